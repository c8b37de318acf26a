"""Fives: an example game plug-in for boardgen (see the README's "Adding a game").

``GAME`` is the object the ``boardgen.games`` entry point names."""

from boardgen_fives.game import GAME

__all__ = ["GAME"]
