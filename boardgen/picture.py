"""What a picture shows, in no game's terms: the neutral picture model every game emits and
the renderer draws.

A picture is data only (no measurements, no colours, no drawing library): cells of a hex
grid or points joined by lines, each with a *role* ("player1", "legal", or a game's own),
marks, arrows, labels and a caption.  A theme (boardgen.render)
says how each role looks; a game (boardgen.games) says which roles it uses and what they
mean in words.  Two kinds of panel:

- :class:`Scene`: a hex board, cells by role, markers (stones, rings, crosses, discs
  carrying a text), arrows between cells;
- :class:`PointScene`: points joined by lines (a lattice of holes, a Go or a
  mill board), with pieces lying on segments (bars) or standing on points (stones),
  dashed, struck-through and hollow segments, zones, arrows turning round a point, and
  labels; the game names the role of each.

A :class:`Diagram` is a titled set of panels in rows, with the legend entries it uses.

This module sits beside ``boardgen.geometry``, below the games and the renderer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal, get_args

from boardgen.errors import BoardgenError, option
from boardgen.geometry import Hex, HexGrid
from boardgen.i18n import N_, tr

LabelMode = Literal["outside", "inside", "none"]
LABEL_MODES: tuple[LabelMode, ...] = get_args(LabelMode)
# A designer's mark on a cell or a hole: a dot, a ring, a cross, or a short text (a number,
# a letter).  Drawn in a language of its own (boardgen.render.figure.designer_strokes): the
# designer's ink, dashed and haloed, SVG class "designer-mark", which no engine role uses.
MarkKind = Literal["ring", "cross", "dot", "text"]
MARK_KINDS: tuple[MarkKind, ...] = get_args(MarkKind)
# The role of a designer's marks (a Marker's role, a legend entry's prefix "mark-KIND").
DESIGNER = "designer"
MARK_ROLE_PREFIX = "mark-"


@dataclass(frozen=True)
class DesignerMark:
    """A designer's mark on a place (a hex cell, or a point of a board of points): its
    kind, and for a ``text`` mark its text."""

    where: Hex | Point
    kind: str  # a MarkKind
    text: str = ""
# How a marker on a hex cell is drawn: a stone (dot), a ring, a cross, a paper-coloured
# disc under a text, or a small pip.
MarkerKind = Literal["dot", "ring", "cross", "disc", "pip"]
# How a legend shows a role: a hex cell, a highlight's band on an empty cell, a stone on an
# empty cell, a bar (a piece on a segment), a dashed segment, a struck-through one, a bar's
# dashed outline, or a tinted one (a designer's decorative tint).
# A designer's mark (``mark``) is drawn as on the panels, its kind named by the entry's role.
SwatchKind = Literal["cell", "band", "stone", "bar", "dashed", "struck", "hollow", "tinted",
                     "mark"]
# The decorative highlight every game's diagrams take: no engine judges it.
TINT = "tint"


# --- hex boards --------------------------------------------------------------------------


@dataclass(frozen=True)
class Marker:
    """A mark drawn on a cell: ``dot`` (a stone or piece), ``ring``, ``cross``, ``disc``
    (a paper-coloured disc, so that a number on it reads on any fill) or ``pip``; in the
    role :data:`DESIGNER`, a designer's mark of a :data:`MarkKind` (``text`` its text),
    drawn in the designer's own style."""

    cell: Hex
    kind: str = "dot"  # a MarkerKind, or a MarkKind in the role DESIGNER
    role: str = "accent"
    text: str = ""  # a designer's text mark


@dataclass(frozen=True)
class Arrow:
    start: Hex
    end: Hex
    role: str = "accent"


@dataclass(frozen=True)
class Scene:
    """One hex board picture: the grid, what each cell holds, and the annotations on top."""

    grid: HexGrid
    cell_roles: Mapping[Hex, str] = field(default_factory=dict)
    cell_texts: Mapping[Hex, str] = field(default_factory=dict)
    markers: tuple[Marker, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    labels: str = "outside"  # a LabelMode
    caption: str | None = None
    # A designer's highlights, by role: drawn over the cell as a band inside its edge, so
    # that the cell keeps its own role (a player's colour), its stone and its number.
    highlights: Mapping[Hex, str] = field(default_factory=dict)
    # What a text alternative says of the panel, written by the game, in place of the list
    # of cells by name that it otherwise makes (a panel whose cells carry no names).
    said: str | None = None

    def __post_init__(self) -> None:
        if self.labels not in LABEL_MODES:
            raise BoardgenError(
                f"unknown label mode {self.labels!r} (choose from {', '.join(LABEL_MODES)})"
            )


def edge_roles(grid: HexGrid) -> dict[Hex, str]:
    """Roles that mark a board's perimeter and its corners."""
    roles = {h: "perimeter" for h in grid.perimeter}
    roles.update({h: "corner" for h in grid.corners})
    return roles


def board_scene(grid: HexGrid, labels: str = "outside", *, edges: bool = False) -> Scene:
    """An empty board; ``edges`` marks its perimeter and corners."""
    return Scene(grid, cell_roles=edge_roles(grid) if edges else {}, labels=labels)


# --- boards of points joined by lines ---------------------------------------------------

# A point of a board of points and lines (a lattice of holes, a Go board's intersections, a
# mill board's points), named by the game's own integer coordinates; ``PointScene.places``
# says where each stands on the page.
Point = tuple[int, ...]
Segment = tuple[Point, Point]  # two points joined by a line of the board


@dataclass(frozen=True)
class Turn:
    """A piece on a segment turning about its end ``centre`` from ``start`` to ``end``,
    drawn as an arrow round ``centre``; sense +1 clockwise on the page."""

    centre: Point
    start: Point
    end: Point
    sense: int


@dataclass(frozen=True)
class PointNote:
    """Words beside a point, one line each, on its left (side -1) or right (side +1)."""

    point: Point
    lines: tuple[str, ...]
    side: int


@dataclass(frozen=True)
class PointScene:
    """One picture of a board of points joined by lines: pieces lying on segments (bars)
    or standing on points (stones), segments marked dashed, struck through or hollow,
    zones, turns, labels.

    Everything is named by points and segments; ``places`` puts each point on the page,
    in spacings (the distance the renderer is given; x to the right, y down).  Every shape
    says its role, and the game declares how each of its roles looks (a role's
    :class:`RolePaint`)."""

    places: Mapping[Point, tuple[float, float]] = field(default_factory=dict)
    lines: tuple[Segment, ...] = ()  # the board's lines, drawn under everything
    point_role: str = "point"  # the points: small dots
    line_role: str = "board-line"  # the board's lines
    pieces: Mapping[Segment, str] = field(default_factory=dict)  # bars, by role
    stones: Mapping[Point, str] = field(default_factory=dict)  # pieces on points, by role
    dashed: Mapping[Segment, str] = field(default_factory=dict)  # e.g. allowed targets
    struck: Mapping[Segment, str] = field(default_factory=dict)  # a thin line and a cross
    hollow: Mapping[Segment, str] = field(default_factory=dict)  # a bar's dashed outline
    rails: Mapping[Segment, str] = field(default_factory=dict)  # faint: where bars start
    # Tinted polygons, by role, under everything: their corners in spacings, as places.
    zones: tuple[tuple[tuple[tuple[float, float], ...], str], ...] = ()
    turns: tuple[Turn, ...] = ()
    labels: Mapping[Segment, str] = field(default_factory=dict)  # beside a segment
    ringed: tuple[Point, ...] = ()  # points of note, double-ringed
    notes: tuple[PointNote, ...] = ()
    row_labels: tuple[tuple[Point, str], ...] = ()  # left of a row's first point
    column_labels: tuple[tuple[float, str], ...] = ()  # under the board, x in spacings
    # The engine's rings round a point (e.g. the centre of a turn): (point, "ring").
    point_marks: tuple[tuple[Point, str], ...] = ()
    arrows: tuple[tuple[Point, Point], ...] = ()
    caption: str | None = None
    tinted: tuple[Segment, ...] = ()  # a designer's decorative tint, under everything
    # A key to the rails: (rail role, what it means), drawn as a short pair of rails with
    # its words (in the top corners beside the board when there is room, else under it).
    rail_key: tuple[tuple[str, str], ...] = ()
    # The points' names, for a text alternative (a segment: its ends' names joined by '-').
    names: Mapping[Point, str] = field(default_factory=dict)
    # What a board page says of its scale, formatted with ``spacing`` in mm.
    scale_note: str = N_("neighbouring points are {spacing} mm apart")  # tr where drawn

    def name(self, point: Point) -> str:
        return self.names.get(point, ",".join(map(str, point)))

    def segment_name(self, segment: Segment) -> str:
        return f"{self.name(segment[0])}-{self.name(segment[1])}"
    # A designer's marks on points, in the designer's own style (never an engine's ring).
    designer_marks: tuple[DesignerMark, ...] = ()


Panel = Scene | PointScene  # one panel of a diagram: a hex board or points and lines


# --- diagrams ------------------------------------------------------------------------------


# hatch rises to the right, backhatch falls; grid is hlines and vlines together.
PATTERNS = ("dots", "hatch", "backhatch", "crosshatch", "hlines", "vlines", "grid")


@dataclass(frozen=True)
class Paint:
    """How a role is filled: a colour (#rrggbb), optionally overprinted with a pattern in
    the theme's line colour, and optionally its own outline colour (so that neighbouring
    dark cells stay apart instead of merging into one blob)."""

    fill: str
    pattern: str | None = None  # one of PATTERNS
    outline: str | None = None  # None: the theme's line colour


@dataclass(frozen=True)
class RolePaint:
    """How a game's own role looks, declared by the game: a paint per theme (by the
    theme's name) and a ``fallback`` for any other theme, and the roles a player must tell
    it apart from (``apart_from``: held to the grey-distinctness test of the built-in
    roles, 40 grey levels or another pattern, in every theme)."""

    fallback: Paint
    themes: Mapping[str, Paint] = field(default_factory=dict)
    apart_from: tuple[str, ...] = ()
    # A stone (mark) of this role drawn hollow with a heavy rim, as a share of its radius,
    # by theme (the ink theme's loop stones: white on a white cell would not show).
    rims: Mapping[str, float] = field(default_factory=dict)

    def in_theme(self, theme: str) -> Paint:
        return self.themes.get(theme, self.fallback)


@dataclass(frozen=True)
class Role:
    """What a role means to a player: its words in a legend and, when a text alternative
    lists the cells of that role, the words it says (None: not said); and, for a role of
    a game's own that the themes do not paint, how it looks (``paint``)."""

    name: str
    legend: str
    said: str | None = None
    swatch: SwatchKind = "cell"
    paint: RolePaint | None = None
    # A band of the role over empty cells, keyed beside the role's own fill.
    highlighted: bool = False

    def legend_words(self) -> str:
        """Its words in a legend, in the current language."""
        words = tr(self.legend)
        return tr("{legend}, highlighted").format(legend=words) if self.highlighted \
            else words


# The paints games declared for roles of their own, by role (boardgen.games.registry
# declares each game's when it lists the games; the themes look here for a role they lack).
_DECLARED: dict[str, RolePaint] = {}


def declare_paints(paints: Mapping[str, RolePaint]) -> None:
    """Make the paints of a game's own roles known to every theme (a theme's own paint of
    a role comes first).  Refused (ValueError, nothing declared) if another game declared
    one of the roles with another paint."""
    new = dict(paints)
    for name, paint in new.items():
        if _DECLARED.get(name, paint) != paint:
            raise ValueError(f"the role {name!r} is painted otherwise by another game")
    _DECLARED.update(new)


def declared_paint(role: str) -> RolePaint | None:
    """The paint a game declared for ``role``, if any."""
    return _DECLARED.get(role)


def declared_roles() -> list[str]:
    return list(_DECLARED)


DEFAULT_PANEL_CELL_MM = 8.0


@dataclass(frozen=True)
class Diagram:
    """A titled set of panels, one row (or more, wrapped) per line of play, with the
    legend entries its panels use and the words of its game's roles.  Displays itself in
    Jupyter once the renderer is loaded (see :func:`show_svg_with`)."""

    title: str
    rows: tuple[tuple[str | None, tuple[Panel, ...]], ...]
    legend: tuple[Role, ...] = ()  # the roles the panels show, in the game's order
    legend_note: str | None = None
    cell_mm: float = DEFAULT_PANEL_CELL_MM
    roles: tuple[Role, ...] = ()  # every role of the game, for the text alternative
    # The lines move by move, for an animation (empty: an animation steps by panel).
    steps: tuple[tuple[str | None, tuple[Panel, ...]], ...] = ()
    # Where the diagram comes from when it is not ours (a designer's worked example): said
    # under it, with the designer's credit, when it is drawn on its own.
    source: str | None = None

    def _repr_svg_(self) -> str | None:
        """Jupyter shows a diagram as its SVG picture."""
        return _SVG_DRAWERS[-1](self) if _SVG_DRAWERS else None

    def __repr__(self) -> str:
        # One line, as an engine's: the fields are in the attributes, the picture above.
        panels = sum(len(row) for _label, row in self.rows)
        return (f"<boardgen.Diagram {self.title!r}: {len(self.rows)} "
                f"line{'s' * (len(self.rows) != 1)}, {panels} panel{'s' * (panels != 1)}>")


_SVG_DRAWERS: list[Callable[[Diagram], str]] = []


def show_svg_with(drawer: Callable[[Diagram], str]) -> None:
    """How a diagram draws itself as SVG in Jupyter: the renderer registers itself when it
    is imported (a picture is data, and imports no renderer)."""
    _SVG_DRAWERS.append(drawer)


def panel_roles(panel: Panel) -> set[str]:
    """The roles a panel shows as fills, stones, bars or segments, as a legend names them
    (highlights apart: :func:`highlight_roles`)."""
    if isinstance(panel, Scene):
        return set(panel.cell_roles.values()) | {m.role for m in panel.markers}
    roles = {*panel.pieces.values(), *panel.stones.values(), *panel.dashed.values(),
             *panel.struck.values(), *panel.hollow.values()}
    if panel.tinted:
        roles.add(TINT)
    return roles


def highlight_roles(panel: Panel) -> set[str]:
    """The roles a panel's highlights show (drawn as bands over the cells)."""
    return set(panel.highlights.values()) if isinstance(panel, Scene) else set()


def designer_marks(panel: Panel) -> tuple[DesignerMark, ...]:
    """A panel's designer's marks, in the order drawn."""
    if isinstance(panel, PointScene):
        return panel.designer_marks
    return tuple(DesignerMark(m.cell, m.kind, m.text) for m in panel.markers
                 if m.role == DESIGNER)


# What the key says of each kind of designer's mark: the diagram's pointer, not a rule.
MARK_LEGENDS: Mapping[str, str] = {
    "dot": N_("The diagram's dot"),
    "ring": N_("The diagram's ring"),
    "cross": N_("The diagram's cross"),
    "text": N_("The diagram's label"),
}


def mark_legend(panels: list[Panel]) -> tuple[Role, ...]:
    """One key entry for each kind of designer's mark the panels use, in MARK_KINDS'
    order (role ``mark-KIND``, swatch ``mark``)."""
    used = {m.kind for p in panels for m in designer_marks(p)}
    return tuple(Role(f"{MARK_ROLE_PREFIX}{kind}", MARK_LEGENDS[kind], swatch="mark")
                 for kind in MARK_KINDS if kind in used)


def legend_of(roles: tuple[Role, ...], panels: list[Panel]) -> tuple[Role, ...]:
    """The roles the panels use, in the order given; a role used as a highlight is shown
    as a band on an empty cell (after its own entry, if the panels also fill cells with
    it); then one entry for each kind of designer's mark used."""
    used = set().union(*(panel_roles(p) for p in panels)) if panels else set()
    bands = set().union(*(highlight_roles(p) for p in panels)) if panels else set()
    legend: list[Role] = []
    for role in roles:
        filled = role.name in used and role.swatch != "band"
        if filled:
            legend.append(role)
        if role.name in bands:  # said apart from the fill of the same role, if both show
            legend.append(replace(role, swatch="band", highlighted=filled))
    return tuple(legend) + mark_legend(panels)


@dataclass(frozen=True)
class PageInfo:
    """What the page furniture says besides the picture itself."""

    title: str | None = None
    subject: str | None = None  # e.g. "Copolymer board, hexhex side 10, 271 cells"
    credit: str | None = None  # e.g. "Copolymer by Mark Steere"
    # What every picture of the game must also say, e.g. "glyph chart: our reconstruction".
    note: str | None = None


# --- boards ------------------------------------------------------------------------------


@dataclass(frozen=True)
class StripGroup:
    """``count`` strips of one role, labelled beside their block; the fold line is drawn
    in ``fold`` (paper on a dark strip)."""

    role: str
    label: str
    count: int
    fold: str = "muted"


@dataclass(frozen=True)
class Strips:
    """Pieces to cut out at a board's scale: strips one spacing long, printed twice their
    width with a fold line down the middle.  ``caption`` is formatted with ``length`` and
    ``width`` in mm."""

    groups: tuple[StripGroup, ...]
    caption: str


@dataclass(frozen=True)
class FixedBoard:
    """A board of one size, drawn from a picture of points and lines at a chosen spacing,
    with pieces to cut out.  ``subject`` is formatted with ``spacing`` in mm."""

    picture: PointScene
    stem: str  # the file name of the board, without suffix
    subject: str
    strips: Strips | None = None
    largest_spacing: float = 60.0  # mm: a board no larger, however large the paper


# --- animations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """One step of an animation: the picture after a move (the move's cells marked as in
    a still panel) and the engine's words for that move.  ``turn``: the piece the move
    turned about one of its ends, for a renderer that draws it turning."""

    panel: Panel
    caption: str
    turn: Turn | None = None


@dataclass(frozen=True)
class Animation:
    """A game or a line of play as a sequence of frames, one per move (or per panel of a
    diagram's line), after ``start`` (the position before the first frame, which the
    renderer needs to draw the first turn; not a frame itself)."""

    title: str
    frames: tuple[Frame, ...]
    start: Panel | None = None
    cell_mm: float = DEFAULT_PANEL_CELL_MM
    roles: tuple[Role, ...] = ()


def diagram_animations(diagram: Diagram) -> tuple[Animation, ...]:
    """A diagram's lines of play as animations, one per row: a frame per move where the
    game gives its lines move by move (``steps``), else per panel (its caption as written
    under it).  A panel of points that shows one turn whose piece the next panel has
    turned is drawn turning."""
    animations = []
    for heading, panels in diagram.steps or diagram.rows:
        frames: list[Frame] = []
        for k, panel in enumerate(panels):
            previous = panels[k - 1] if k else None
            turn = _turned(previous, panel) if previous is not None else None
            frames.append(Frame(panel, panel.caption or "", turn))
        title = diagram.title if heading is None else f"{diagram.title}: {heading}"
        animations.append(Animation(title, tuple(frames), None, diagram.cell_mm,
                                    diagram.roles))
    return tuple(animations)


def diagram_animation(diagram: Diagram, line: int | None = None) -> Animation:
    """One line of a diagram (counting from 1) as an animation, or (None) the whole
    diagram, line after line, each frame's caption led by its line's title."""
    animations = diagram_animations(diagram)
    if line is not None:
        if not 1 <= line <= len(animations):
            lines = len(animations)
            raise BoardgenError(f"{option('line')} {line}: the diagram {diagram.title!r} has "
                                f"{lines} line{'s' * (lines != 1)} of play", field="line")
        return animations[line - 1]
    if len(animations) == 1:
        return animations[0]
    frames = []
    for (heading, _), animation in zip(diagram.steps or diagram.rows, animations, strict=True):
        for frame in animation.frames:
            caption = f"{heading}: {frame.caption}" if heading else frame.caption
            frames.append(replace(frame, caption=caption,
                                  panel=replace(frame.panel, caption=caption)))
    return Animation(diagram.title, tuple(frames), None, diagram.cell_mm, diagram.roles)


def _turned(before: Panel, after: Panel) -> Turn | None:
    """The turn ``before`` shows, if ``after`` has its piece no longer at its start."""
    if not isinstance(before, PointScene) or not isinstance(after, PointScene) \
            or len(before.turns) != 1:
        return None
    turn = before.turns[0]
    # (The piece may be gone from the end too: captured as soon as it landed.)
    if piece_at(before, turn.centre, turn.start) is None \
            or piece_at(after, turn.centre, turn.start) is not None:
        return None
    return turn


def piece_at(scene: PointScene, a: Point, b: Point) -> Segment | None:
    """The segment between ``a`` and ``b`` as the scene holds a piece on it, if it does."""
    for segment in ((a, b), (b, a)):
        if segment in scene.pieces:
            return segment
    return None
