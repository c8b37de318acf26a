"""Game rules: state, legal moves, replay.  Imports geometry only, never a renderer."""
