"""Publishing: rule sheets, print-and-play kits, the printer check, the gallery (``boardgen
all``) and the live preview, built on the games and the renderers."""
