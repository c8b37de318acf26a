"""Every limit on the work one command may ask for, in one place.

Each is checked before the work it bounds starts, and a request over one is refused with one
line saying what to reduce.  The figures behind each number are in the comments; the docs
list them for users (reference/limits).  The modules that check a limit import it from
here (and keep its old name, so that ``boardgen.geometry.hexgrid.MAX_CELLS`` still works).
"""

from __future__ import annotations

# --- what is read ---------------------------------------------------------------------
# Any input file (a mask, a moves file, a diagram file, a glyph table, a start position) is
# read up to this many bytes, whatever it is: /dev/zero or an endless pipe is refused.
MAX_INPUT_BYTES = 2_000_000
# A cut sheet font kept in the font cache: some tens of kilobytes; a larger file there is
# not one of ours (and a link to /dev/zero must not be read into memory).
MAX_CACHED_FONT_BYTES = 4_000_000
# A finished sheet kept in the sheet cache (boardgen.publish.sheet_cache): the largest that
# `boardgen all` makes (an HTML sheet) is about 1.2 MB, a kit about 160 kB; a larger file is
# set each time rather than kept, and a larger file there is not read.
MAX_CACHED_SHEET_BYTES = 32_000_000
# The whole cache of finished files: one `boardgen all` in English and French keeps about
# 14 MB (its sheets 5 MB; its diagrams, boards and thumbnails the rest), so this holds some
# seven builds' worth (the entries used longest ago are deleted first).
MAX_SHEET_CACHE_BYTES = 100_000_000
# A glyph store of the user's cache (boardgen.render.fonts) holds some hundreds of glyphs, tens
# of kilobytes, and cairo's kept C declarations (boardgen.render.cairolib) some 60 kB: a
# larger file there is not one of ours and is not read.
MAX_STORE_BYTES = 8_000_000
MAX_FFI_BYTES = 4_000_000
# A title (--title, or a diagram file's 'title:'): one printed line of 12 pt bold across A4.
MAX_TITLE_CHARS = 100
# What prints under one panel of a diagram file (its label, caption and notes together), or
# a line of panels' title: a few wrapped lines.  The engine's own captions reach about 200
# characters, the longest line title in templates/ 118.
MAX_CAPTION_CHARS = 300
# A number written in a diagram file (a side, a count, a number of stones to undo).  Nine
# digits count more than any board holds; Python refuses to convert 4,301 digits or more.
MAX_NUMBER_DIGITS = 9
# An error line quotes at most this many characters of what it refuses.
MAX_QUOTED_CHARS = 80

# --- what is built --------------------------------------------------------------------
# Cells of one board: a side-224 hexhex (149,857 cells) is the largest; a typo such as
# --side 10000 must not eat the machine's memory.
MAX_CELLS = 150_000
# Panels in one diagram: a diagram is a page or a few.
MAX_PANELS = 200
# Arrows and marks drawn on one picture, all its panels together (a diagram file's 'arrow:'
# and 'mark:' lines, or the API's arrows= and marks=): a diagram points at a few places.
# Each arrow costs some 500 bytes of SVG and a path to rasterise: before this limit
# 150,000 'arrow:' lines took 79 s and 503 MB for a 73 MB SVG.
MAX_ANNOTATIONS = 1_000
# Cells drawn in all the panels of one picture together (panels x cells each): a diagram
# file, a play --every strip, a position.  Each cell drawn costs about 7 KB of memory while
# the picture is made and 90 bytes of SVG: this is one largest board, drawn once, in about
# 1 GB and 10 s.  (Before this limit, 200 panels of a side-224 board grew 70 MB a second
# until they ran out of memory.)
MAX_DRAWN_CELLS = MAX_CELLS
# Pages of a tiled board: nobody glues 500 sheets together.
MAX_PAGES = 500
# PNG output: about 9000 x 9000 pixels; cairo's image surface stops at 32,767 each way;
# CairoSVG aborts past 100,000 <use> references.
MAX_PIXELS = 80_000_000
MAX_SIDE_PIXELS = 32_767
MAX_ELEMENTS = 100_000

# Animations (--animate): pictures drawn in all, counting a swing's in-between frames; cells
# drawn in all the frames together (as a diagram's panels: a side-5 game of 61 moves draws
# 3,721); pixels of every GIF or APNG frame together (300 frames of 500 x 500 pixels, held
# in memory as they are drawn, a byte each once in the palette); and the bytes written.
MAX_ANIMATION_FRAMES = 600
MAX_ANIMATION_CELLS = MAX_DRAWN_CELLS
MAX_ANIMATION_PIXELS = 75_000_000
MAX_ANIMATION_BYTES = 25_000_000

# --- what is searched -------------------------------------------------------------------
# 'expect: solved winner P' searches every continuation: at most this many empty cells...
MAX_SOLVED_EMPTY = 12
# ...and at most this many positions (some seconds): a guard, not a working limit.  900
# endgames of twelve cells of the hardest kind (a compact empty region among both colours)
# needed at most 13,000 positions for an exact margin, 10,000 to say who wins
# (bench/bench_solver.py); the search before issue 19 took minutes on side 50.
MAX_SOLVER_POSITIONS = 2_000_000
# 'expect: solved' claims checked in one diagram (a start claim counts once per line of play
# it is checked at), and all their searches together visit at most MAX_SOLVER_POSITIONS:
# before, 1,000 claims (a 24 KB file) took 30-100 s and a 2 MB file would have taken hours.
MAX_SOLVED_CLAIMS = 20
