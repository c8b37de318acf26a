"""Hex: an example game plug-in for boardgen with a board shape of its own, an N x N
rhombus (see the README's "Adding a game").

``GAME`` is the object the ``boardgen.games`` entry point names."""

from boardgen_hex.game import GAME

__all__ = ["GAME"]
