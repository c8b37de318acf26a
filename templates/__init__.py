"""boardgen's templates, installed as the package ``boardgen.templates`` (see pyproject.toml):
one folder per game with its rule-sheet text (``sheet.md``, ``quick.md``) and its built-in
diagram files (``*.txt``).  No code lives here."""
