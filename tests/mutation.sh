#!/bin/sh
# Mutation testing with mutmut (issue 20); not in CI: it takes long (hours on 2 cores).
#
#   sh tests/mutation.sh          the caption writers, the engines' end-of-game code and the
#                                 checks of placements in diagram files (about 540 mutants)
#   sh tests/mutation.sh all      every mutant of the engines and the diagram-file readers
#
# mutmut copies the package into mutants/, mutates it one change at a time and runs the
# tests that reach each changed function (pyproject.toml, [tool.mutmut], says which files
# and which tests).  The last line gives the score: killed mutants over all those tried.
set -e
cd "$(dirname "$0")/.."
.venv/bin/python -c "import mutmut" 2>/dev/null || .venv/bin/pip install -q mutmut
if [ "$1" = "all" ]; then
    set --
else
    set -- \
        'boardgen.games.copolymer.directives.x__describe__mutmut_*' \
        'boardgen.games.copolymer.directives.x__caption__mutmut_*' \
        'boardgen.games.copolymer.directives.x__cells__mutmut_*' \
        'boardgen.games.copolymer.directives.xǁCopolymerScriptǁplace__mutmut_*' \
        'boardgen.games.o.directives.x__panel__mutmut_*' \
        'boardgen.games.polygone.directives.x__turn_caption__mutmut_*' \
        'boardgen.games.polygone.directives.x__won__mutmut_*' \
        'boardgen.games.free.directives.xǁFreeScriptǁclose_panel__mutmut_*' \
        'boardgen.games.script.x_labelled__mutmut_*' \
        'boardgen.games.polygone.directives.x__show_caption__mutmut_*' \
        'boardgen.games.polygone.directives.x__listed__mutmut_*' \
        'boardgen.games.polygone.directives.x__polygon__mutmut_*' \
        'boardgen.games.polygone.directives.x_classify_targets__mutmut_*' \
        'boardgen.games.copolymer.engine.xǁCopolymerǁforced__mutmut_*' \
        'boardgen.games.copolymer.engine.x_status_line__mutmut_*' \
        'boardgen.games.o.engine.xǁOGameǁ_advance__mutmut_*' \
        'boardgen.games.o.engine.xǁOGameǁ_settle__mutmut_*' \
        'boardgen.games.o.engine.x_status_line__mutmut_*' \
        'boardgen.games.polygone.engine.xǁPolygoneǁ_decide__mutmut_*' \
        'boardgen.games.polygone.engine.x_text_position__mutmut_*'
fi
nice -n 10 .venv/bin/mutmut run --max-children "${JOBS:-2}" "$@"
.venv/bin/mutmut results --all true | .venv/bin/python -c '
import collections, sys
count = collections.Counter(line.rsplit(": ", 1)[-1].strip() for line in sys.stdin if ": " in line)
count.pop("not checked", None)
killed, total = count["killed"], sum(count.values())
print(dict(count))
print(f"score: {killed} killed of {total} ({100 * killed / max(1, total):.1f} %)")'
