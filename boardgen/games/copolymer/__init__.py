"""Copolymer (Mark Steere, 2006): its engine, its diagram-file directives and claims."""
