"""Polygone (Fabien Vandenbussche, 2004–2005): its engine (swings, polygons, captures), its
diagram-file directives and claims."""
