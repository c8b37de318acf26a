"""Publishing: what boardgen makes of drawings for people to read (the live preview page)."""
