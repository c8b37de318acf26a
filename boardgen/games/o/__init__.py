"""O (Mark Steere, 2024): its engine (glyph chart, corner rule, loops, partisan), its
diagram-file directives and claims."""
