"""Polygone (Fabien Vandenbussche, 2004): its engine (swings, polygons, captures), its
diagram-file directives and claims."""
