"""A palette of one's own: a theme read from a TOML file (or the same data as a dict).

    base = "colour"            # optional: the built-in theme the rest comes from
    accent = "#c2410c"         # optional: the engine's marks (rings, arrows, numbers)
    designer = "#6b0a7d"       # optional: a diagram author's own marks (mark:)
    [roles]
    player1 = "#1b4f9c"        # a colour: the fill (the base's pattern and outline stay)
    player2 = { fill = "#f0c419", pattern = "hatch", outline = "#ffffff" }
    new = { fill = "#f6d55c", pattern = "none" }

Roles left out keep the base theme's paint.  Every role a theme paints may be set, a game's
own roles too (those a plug-in declares included): :func:`settable_roles`.  The result is
checked as the built-in themes are: every pair of roles a player must tell apart stays 40
grey levels apart (what a greyscale printer keeps of a colour) or differs in pattern; the
designer's ink stays 40 grey levels from the accent, and every role stays as far in grey
from the two inks as in the base theme, or 40 levels, or differs in pattern.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping
from dataclasses import replace

from boardgen.errors import BoardgenError
from boardgen.picture import PATTERNS, Paint, declared_paint, declared_roles
from boardgen.render.scene import THEMES, Theme, luma
from boardgen.text import quoted_value

GREY_STEP = 40.0  # grey levels (of 255) between roles a player must tell apart
NO_PATTERN = "none"
# The theme's own roles a player must tell apart (a game adds its own pairs through
# RolePaint.apart_from): the players, the players and an empty cell, what the engine
# allows and refuses, and the board's zones.
TOLD_APART: tuple[tuple[str, str], ...] = (
    ("player1", "player2"), ("player1", "empty"), ("player2", "empty"),
    ("legal", "illegal"), ("legal", "empty"), ("illegal", "empty"),
    ("legal", "perimeter"), ("legal", "corner"), ("illegal", "perimeter"),
    ("illegal", "corner"), ("new", "corner"), ("new", "perimeter"), ("new", "empty"),
    ("empty", "perimeter"), ("empty", "corner"), ("perimeter", "corner"),
)
# Two colours plainly different on screen and in colour print: this far apart in RGB.
HUE_STEP = 80.0
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")  # the whole value (fullmatch): no trailing newline
_PAINT_KEYS = ("fill", "pattern", "outline")
_INK_KEYS = ("accent", "designer")  # the theme's two inks a file may set (not roles)
_TOP_KEYS = ("base", *_INK_KEYS, "roles")


def settable_roles(base: Theme | None = None) -> list[str]:
    """Every role a theme file may set: the theme's own and those the games declared."""
    return list((base or THEMES["colour"]).cells)


def pairs_told_apart() -> list[tuple[str, str]]:
    """The pairs of roles a player must tell apart: the theme's own and the games'."""
    pairs = list(TOLD_APART)
    for role in declared_roles():
        paint = declared_paint(role)
        for other in paint.apart_from if paint is not None else ():
            if (role, other) not in pairs and (other, role) not in pairs:
                pairs.append((role, other))
    return pairs


def told_apart(a: Paint, b: Paint) -> bool:
    """Whether two paints stay apart on a greyscale print: 40 grey levels, or patterns."""
    return abs(luma(a.fill) - luma(b.fill)) >= GREY_STEP or a.pattern != b.pattern


def rgb_distance(a: str, b: str) -> float:
    """How far apart two #rrggbb colours are, as a point in RGB space (of 441)."""
    return math.dist(*(tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for c in (a, b)))


def _line_of(text: str | None, key: str, section: str | None = "roles") -> int | None:
    """The line (from 1) where ``key`` is set in ``section`` of a TOML text, bare or quoted
    (tomllib says where a syntax error is, but not where a value it read came from)."""
    if text is None:
        return None
    current: str | None = None
    wanted = re.compile(r"^\s*(?:" + re.escape(key) + r'|"' + re.escape(key) + r'"|\'' +
                        re.escape(key) + r"')\s*=")
    # The key given as a table of its own: ``[base]``, ``[roles.player1]``.
    own_table = key if section is None else f"{section}.{key}"
    for number, line in enumerate(text.splitlines(), start=1):
        header = re.match(r"^\s*\[\s*([^\]]+?)\s*\]", line)
        if header:
            current = header.group(1).strip("\"'")
            if re.sub(r"\s*\.\s*", ".", current.strip("[ ")).replace('"', "") == own_table:
                return number
            continue
        if current == section and wanted.match(line):
            return number
        dotted = re.match(r"^\s*" + re.escape(section or "") + r"\s*\.\s*" + re.escape(key) +
                          r"\s*=", line) if section and current is None else None
        if dotted:
            return number
    return None


class _Where:
    """How an error names the place: ``FILE:LINE`` where the line is known, else ``FILE``
    (or the API's argument name)."""

    def __init__(self, name: str, text: str | None) -> None:
        self.name = name
        self.text = text

    def at(self, key: str | None = None, section: str | None = "roles") -> str:
        line = _line_of(self.text, key, section) if key is not None else None
        return f"{self.name}:{line}" if line is not None else self.name


def _colour(value: object, where: str, what: str) -> str:
    if not isinstance(value, str) or not _COLOUR.fullmatch(value):
        raise BoardgenError(f"{where}: {what} {quoted_value(value)} is not a colour: give "
                            "#rrggbb, such as \"#1b4f9c\"")
    return value.lower()


def _paint(role: str, value: object, base: Paint, where: _Where) -> Paint:
    place = where.at(role)
    if isinstance(value, str):
        return replace(base, fill=_colour(value, place, f"role {role}:"))
    if not isinstance(value, Mapping):
        raise BoardgenError(f"{place}: role {role}: give a colour \"#rrggbb\" or a table "
                            "{ fill = \"#rrggbb\", pattern = \"hatch\" }, not "
                            f"{type(value).__name__}")
    unknown = [key for key in value if key not in _PAINT_KEYS]
    if unknown:
        raise BoardgenError(f"{place}: role {role}: unknown key {quoted_value(unknown[0])} "
                            f"(a role takes {', '.join(_PAINT_KEYS)})")
    if "fill" not in value:
        raise BoardgenError(f"{place}: role {role}: the table needs a fill = \"#rrggbb\"")
    fill = _colour(value["fill"], place, f"role {role}: fill")
    pattern = base.pattern
    if "pattern" in value:
        given = value["pattern"]
        if given not in (*PATTERNS, NO_PATTERN):
            raise BoardgenError(f"{place}: role {role}: unknown pattern {quoted_value(given)} "
                                f"(choose from {', '.join(PATTERNS)}, or {NO_PATTERN})")
        pattern = None if given == NO_PATTERN else str(given)
    outline = base.outline
    if "outline" in value:
        outline = _colour(value["outline"], place, f"role {role}: outline")
    return Paint(fill, pattern, outline)


def _unknown_role(role: object, known: list[str], place: str) -> BoardgenError:
    # A name far longer than any role is like none of them (and difflib is slow on it).
    close = difflib.get_close_matches(role, known, n=1) \
        if isinstance(role, str) and len(role) <= 64 else []
    hint = f"did you mean {close[0]}? " if close else ""
    return BoardgenError(f"{place}: unknown role {quoted_value(role)} ({hint}the roles: "
                         f"{', '.join(known)})")


def theme_from_data(data: object, name: str, text: str | None = None) -> Theme:
    """A theme from parsed TOML (or a dict of the same shape), checked; ``name`` is the
    file (or argument) an error names, ``text`` the file's text (for line numbers)."""
    where = _Where(name, text)
    if not isinstance(data, Mapping):
        raise BoardgenError(f"{name}: a theme is a table with a [roles] table, not "
                            f"{type(data).__name__}")
    for key in data:
        if key not in _TOP_KEYS:
            raise BoardgenError(f"{where.at(str(key), None)}: unknown key {quoted_value(key)} "
                                "(a theme file has base = \"colour\", accent and designer "
                                "colours, and a [roles] table)")
    base_name = data.get("base", "colour")
    if not isinstance(base_name, str):
        raise BoardgenError(f"{where.at('base', None)}: base must be the name of a built-in "
                            f"theme, one of {', '.join(THEMES)} (as base = \"colour\"), not "
                            f"{type(base_name).__name__}")
    if base_name not in THEMES:
        raise BoardgenError(f"{where.at('base', None)}: unknown base theme "
                            f"{quoted_value(base_name)} (choose from {', '.join(THEMES)})")
    base = THEMES[base_name]
    roles = data.get("roles", {})
    if not isinstance(roles, Mapping):
        raise BoardgenError(f"{where.at('roles', None)}: roles must be a table: [roles], "
                            "then one role = \"#rrggbb\" a line")
    known = settable_roles(base)
    own: dict[str, Paint] = {role: base.cells[role] for role in base.cells if base.paints(role)}
    for role, value in roles.items():
        if role not in known:
            raise _unknown_role(role, known, where.at(str(role)))
        own[role] = _paint(role, value, base.cells[role], where)
    inks = {key: _colour(data[key], where.at(key, None), f"{key}:")
            for key in _INK_KEYS if key in data}
    # The base's name stays: a game's roles left out keep the paint it declared for it.
    theme = replace(base, cells=own, accent=inks.get("accent", base.accent),
                    designer=inks.get("designer", base.designer))
    _check_apart(theme, set(roles), where)
    _check_inks(theme, base, set(roles), set(inks), where)
    return theme


def _check_inks(theme: Theme, base: Theme, given: set[str], inks: set[str],
                where: _Where) -> None:
    """Refuse a theme whose designer's marks could pass for the engine's, or whose roles
    take on an ink: the designer's ink 40 grey levels from the accent, and each role the
    file sets (every role, if it sets an ink) 40 grey levels from the inks, or patterned,
    or plainly another colour (in grey the marks' dashes, halos and shapes still tell
    them), or no nearer to them than in the base theme (whose palette tests check)."""
    if inks and abs(luma(theme.designer) - luma(theme.accent)) < GREY_STEP:
        named = "designer" if "designer" in inks else "accent"
        step = abs(luma(theme.designer) - luma(theme.accent))
        raise BoardgenError(
            f"{where.at(named, None)}: the designer's ink ({theme.designer}) and the accent "
            f"({theme.accent}) are {step:.0f} grey levels apart, and a reader must tell a "
            f"diagram's marks from the engine's: make them at least {GREY_STEP:.0f} apart")
    for ink in _INK_KEYS:
        colour, was = getattr(theme, ink), getattr(base, ink)
        for role in theme.cells:
            if role not in given and ink not in inks:
                continue
            paint = theme.cells[role]
            step = abs(luma(paint.fill) - luma(colour))
            if paint.pattern or step >= GREY_STEP or rgb_distance(paint.fill, colour) >= \
                    HUE_STEP:
                continue
            before = base.cells[role] if role in base.cells else None
            if before is not None and not before.pattern and \
                    step >= abs(luma(before.fill) - luma(was)) - 0.5:
                continue  # no nearer than the base theme keeps them
            named, section = (role, "roles") if role in given else (ink, None)
            raise BoardgenError(
                f"{where.at(named, section)}: role {role} ({paint.fill}) is {step:.0f} grey "
                f"levels from the {ink} ink ({colour}), with which "
                f"{'the engine' if ink == 'accent' else 'a diagram author'} marks the "
                f"pictures: make them at least {GREY_STEP:.0f} apart in grey, or give the "
                "role a pattern")


def _check_apart(theme: Theme, given: set[str], where: _Where) -> None:
    """Refuse a theme in which two roles a player must tell apart look alike in grey."""
    for a, b in pairs_told_apart():
        if a not in theme.cells or b not in theme.cells or not {a, b} & given:
            continue
        paint_a, paint_b = theme.cells[a], theme.cells[b]
        if told_apart(paint_a, paint_b):
            continue
        named = a if a in given else b
        step = abs(luma(paint_a.fill) - luma(paint_b.fill))
        raise BoardgenError(
            f"{where.at(named)}: roles {a} ({paint_a.fill}) and {b} ({paint_b.fill}) are "
            f"{step:.0f} grey levels apart, and a player must tell them apart: make them "
            f"at least {GREY_STEP:.0f} apart in grey, or give one a pattern")


def theme_from_toml(text: str, name: str) -> Theme:
    """A theme from a TOML text (read from the file ``name``), checked."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except RecursionError:
        # tomllib reads nested arrays and tables by recursion: a 10 kB file can exhaust it.
        raise BoardgenError(f"{name}: not a TOML file: nested too deeply") from None
    except tomllib.TOMLDecodeError as exc:
        line = getattr(exc, "lineno", None)
        found = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        if line is None and found:
            line = int(found.group(1))
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc).splitlines()[0])
        place = f"{name}:{line}" if line else name
        raise BoardgenError(f"{place}: not a TOML file: {reason}") from None
    return theme_from_data(data, name, text)
