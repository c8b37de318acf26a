"""The games: each in its own folder (engine, diagram-file directives, pictures), and the
registry that lists them once.  Nothing here imports a renderer."""
