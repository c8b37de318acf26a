"""Publishing: rule sheets, kits, the gallery (``boardgen all``) and the live preview, built
on the games and the renderers."""
