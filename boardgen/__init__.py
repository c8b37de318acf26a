"""boardgen: printable boards, engine-checked diagrams and rule sheets for abstract games."""

__version__ = "0.1.0"
