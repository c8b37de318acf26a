"""The French texts (issue 36) against the English ones they translate, read as files.

Each ``sheet.fr.md`` / ``quick.fr.md`` keeps its English file's structure (the same blocks
in the same order, the same diagrams, figures and print-or-screen alternatives, every mark
of ours); each diagram file ``NAME.txt`` has a ``NAME.fr.txt`` that says its prose in French
and keeps every other directive as it is (the moves, the claims); and no French file lets
an English sentence through, nor a typographic habit of English.  The sheets' typesetting
in French is tested with the ``--lang fr`` code path.

The checks read the files with their own small parser, sharing nothing with
``boardgen.publish.sheet`` or ``boardgen.games.script``: they judge those readers' input."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import ROOT

TEMPLATES = ROOT / "templates"
GAMES = ("copolymer", "o", "polygone")
SHEETS = [TEMPLATES / game / f"{kind}.md" for game in GAMES for kind in ("sheet", "quick")]
DIAGRAM_FILES = sorted(p for p in TEMPLATES.glob("*/*.txt") if "." not in p.stem)


def french(path: Path) -> Path:
    """templates/o/sheet.md -> templates/o/sheet.fr.md (the same for NAME.txt)."""
    return path.with_name(f"{path.stem}.fr{path.suffix}")


# --- the sheets: the same blocks --------------------------------------------------------

def blocks(text: str) -> list[tuple[str, str]]:
    """The sheet's blocks as (kind, what stays the same in every language): a title and
    headings, paragraphs, bullet lists (with their item count), boxed notes, directives
    (with their words).  A block runs to a blank line, a directive or a heading."""
    out: list[tuple[str, str]] = []
    lines = text.splitlines()
    k = 0
    while k < len(lines):
        line = lines[k].strip()
        k += 1
        if not line:
            continue
        if line.startswith(":::"):
            out.append(("directive", line))
            continue
        if line.startswith("#"):
            out.append(("heading" if line.startswith("## ") else "title", ""))
            continue
        body = [line]
        while k < len(lines) and lines[k].strip() and not lines[k].strip().startswith(
                (":::", "#")):
            if not line.startswith(("- ", ">")) and lines[k].strip().startswith(("- ", ">")):
                break
            body.append(lines[k].strip())
            k += 1
        if line.startswith("- "):
            out.append(("bullets", str(sum(b.startswith("- ") for b in body))))
        else:
            out.append(("note" if line.startswith(">") else "para", ""))
    return out


FIGURE = re.compile(r"\{\{[a-z0-9-]+\}\}")
ALTERNATIVE = re.compile(r"\{[^{}|]*\|[^{}|]*\}")
# Our marks, English -> French: every ruling of ours, our reading of a lost figure, and
# what we reconstructed, said the same way everywhere in French.
MARKS = [(re.compile(r"our ruling|\(ours\)|\*ours\*"), "notre décision"),
         (re.compile(r"our reading"), "notre interprétation"),
         (re.compile(r"our\s+reconstruction"), "notre reconstitution")]
# A picture named in the prose: "picture 3" in English is "figure 3" in French.
PICTURE = (re.compile(r"\bpictures? (\d+)\b(?: and (\d+)\b)?", re.I),
           re.compile(r"\bfigures? (\d+)\b(?: et (\d+)\b)?", re.I))


def structure_problems(english: str, translated: str) -> list[str]:
    problems: list[str] = []
    if blocks(english) != blocks(translated):
        problems.append(f"blocks differ: {blocks(english)} != {blocks(translated)}")
    for what, pattern in (("figures", FIGURE), ("print|screen alternatives", ALTERNATIVE)):
        if len(pattern.findall(english)) != len(pattern.findall(translated)):
            problems.append(f"{what}: {len(pattern.findall(english))} in English, "
                            f"{len(pattern.findall(translated))} in French")
    if sorted(FIGURE.findall(english)) != sorted(FIGURE.findall(translated)):
        problems.append("not the same {{figures}}")
    flat_en, flat_fr = (" ".join(re.sub(r"(?m)^\s*>", "", text).split())
                        for text in (english, translated))  # a note's lines joined
    for english_mark, french_mark in MARKS:
        said, translated_count = len(english_mark.findall(flat_en)), flat_fr.count(french_mark)
        if said != translated_count:
            problems.append(f"{english_mark.pattern!r} {said} times, {french_mark!r} "
                            f"{translated_count} times")
    pictures = [sorted(n for m in pattern.findall(text) for n in m if n)
                for pattern, text in zip(PICTURE, (flat_en, flat_fr), strict=True)]
    if pictures[0] != pictures[1]:
        problems.append(f"pictures named: {pictures[0]} in English, {pictures[1]} in French")
    return problems


@pytest.mark.parametrize("path", SHEETS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_each_french_sheet_has_its_english_sheets_structure(path: Path) -> None:
    assert french(path).is_file(), f"{french(path).relative_to(ROOT)} is missing"
    assert structure_problems(path.read_text(encoding="utf-8"),
                              french(path).read_text(encoding="utf-8")) == []


def test_the_structure_check_catches_a_lost_diagram_a_heading_and_a_mark() -> None:
    english = (TEMPLATES / "polygone" / "sheet.md").read_text(encoding="utf-8")
    translated = french(TEMPLATES / "polygone" / "sheet.md").read_text(encoding="utf-8")
    assert structure_problems(english, translated) == []
    for broken in (translated.replace("::: diagram polygone 09-capture-back\n", ""),
                   translated.replace("::: diagram polygone 09-capture-back\n\n::: diagram "
                                      "polygone 10-two-polygons",
                                      "::: diagram polygone 10-two-polygons\n\n::: diagram "
                                      "polygone 09-capture-back"),
                   translated.replace("## Victoire", "Victoire"),
                   translated.replace("*(notre décision)*.", ".", 1),
                   translated.replace("{{holes}}", "24"),
                   re.sub(r"figure\s+10\b", "figure 9", translated, count=1)):
        assert structure_problems(english, broken), "a broken translation passed"


# --- the diagram files: the same moves, the prose in French -----------------------------

# Directives whose value is prose printed with the picture; every other one (the board,
# the moves, the claims, numbers and marks) is the same in every language.
PROSE_KEYS = {"title", "source", "panel", "line", "note", "caption"}


def directives(text: str) -> list[tuple[str, str]]:
    """(key, value) per directive line, comments and blank lines left out; a prose value
    becomes "<prose>" (or "" when empty); a block's lines are kept as they are."""
    out: list[tuple[str, str]] = []
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        key, colon, value = line.partition(":")
        if colon and re.fullmatch(r"[a-z-]+", key):
            out.append((key, "<prose>" if key in PROSE_KEYS and value.strip() else
                        value.strip()))
        else:
            out.append(("", line.rstrip()))  # inside a block (a position), or "end"
    return out


def prose(text: str) -> list[str]:
    """What a diagram file says in words: its comments and its prose directives."""
    said = []
    for line in text.splitlines():
        key, colon, value = line.partition(":")
        if line.lstrip().startswith("#"):
            said.append(line.lstrip("# "))
        elif colon and key in PROSE_KEYS:
            said.append(value.strip())
    return said


def used_diagram_files() -> set[Path]:
    """Every diagram file a sheet or quick reference prints (not the generated figures)."""
    used = set()
    for sheet in SHEETS:
        for game, name in re.findall(r"^::: diagram (\S+) (\S+)", sheet.read_text("utf-8"),
                                     re.M):
            if (TEMPLATES / game / f"{name}.txt").is_file():
                used.add(TEMPLATES / game / f"{name}.txt")
    return used


def test_every_diagram_file_a_sheet_prints_has_a_french_file() -> None:
    used = used_diagram_files()
    assert len(used) >= 14, sorted(p.name for p in used)  # 3 + 3 + 10 files are printed
    missing = sorted(str(p.relative_to(ROOT)) for p in used if not french(p).is_file())
    assert missing == []


@pytest.mark.parametrize("path", DIAGRAM_FILES, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_each_french_diagram_file_keeps_every_move_and_claim(path: Path) -> None:
    english = path.read_text(encoding="utf-8")
    assert french(path).is_file(), f"{french(path).relative_to(ROOT)} is missing"
    translated = french(path).read_text(encoding="utf-8")
    assert directives(translated) == directives(english)
    for en, fr in zip(prose(english), prose(translated), strict=False):
        assert not (en == fr and re.search(r"[a-z]{3}", en)), f"not translated: {en!r}"


def test_the_directive_check_catches_a_changed_move() -> None:
    translated = french(TEMPLATES / "polygone" / "10-two-polygons.txt").read_text("utf-8")
    english = (TEMPLATES / "polygone" / "10-two-polygons.txt").read_text("utf-8")
    assert directives(translated) == directives(english)
    assert directives(translated.replace("d3-d5>c4/2,1", "d3-d5>c4/1,2")) != \
        directives(english)
    assert directives(translated.replace("panel: Après le coup\n", "")) != directives(english)


# --- no English, and French typography ---------------------------------------------------

# Common English words that are no French words either ("on", "or", "but", "plus", "as"
# and "a" are French, so they are not listed).
ENGLISH = frozenset("""the and of to with is are be been was were it its this that these
those which who when where while than then from by for into onto your you their they
there has have had not no must may can cannot will would should each every only one two
three after before about between under over what piece pieces stone stones cell cells
board player players turn move moves wins win game""".split())
# The familiar "tu": the sheets address the reader as "vous".
TUTOIEMENT = frozenset({"tu", "ton", "ta", "tes", "toi"})
CELL_OR_CODE = re.compile(r"`[^`]*`|\{\{[a-z0-9-]+\}\}|\b[a-z]\d+(?:[-/>,][a-z0-9/,]+)*\b",
                          re.I)


def words(text: str) -> list[str]:
    return re.findall(r"[a-zà-ÿœæ]+", CELL_OR_CODE.sub(" ", text).lower().replace("’", "'"))


def french_texts() -> dict[str, str]:
    """Every French file's prose, by name: the sheets whole but their directives, the
    diagram files' comments and prose directives."""
    texts = {}
    for sheet in SHEETS:
        lines = french(sheet).read_text("utf-8").splitlines()
        texts[french(sheet).relative_to(ROOT).as_posix()] = "\n".join(
            line for line in lines if not line.startswith(":::"))
    for path in DIAGRAM_FILES:
        texts[french(path).relative_to(ROOT).as_posix()] = "\n".join(
            prose(french(path).read_text("utf-8")))
    return texts


def english_words(text: str) -> list[str]:
    return sorted({w for w in words(text) if w in ENGLISH})


def test_no_french_file_says_a_common_english_word() -> None:
    found = {name: english_words(text) for name, text in french_texts().items()}
    assert {name: said for name, said in found.items() if said} == {}


def test_the_english_word_check_catches_an_english_sentence() -> None:
    text = french_texts()["templates/o/sheet.fr.md"]
    assert english_words(text) == []
    assert english_words(text + "\nThe stone is placed on C3.") == ["is", "stone", "the"]
    # Cell names and move notation are the same in every language: never taken for words.
    assert english_words("c0-c2>d1 B3 d3-d5>c4/2,1 `boardgen rules o`") == []


def typography_problems(text: str) -> list[str]:
    """French punctuation typed as the code expects it: an ordinary space before ; : ! ?
    and inside « », never glued, never a typed no-break space (the code sets the thin
    no-break spaces); a decimal comma, not a point."""
    text = CELL_OR_CODE.sub(" ", text)
    problems = [f"glued {m.group()!r}" for m in re.finditer(r"\S[;:!?»]", text)]
    problems += [f"glued {m.group()!r}" for m in re.finditer(r"«\S", text)]
    problems += [f"typed no-break space {m.group()!r}"
                 for m in re.finditer(r".[\u00a0\u202f].", text)]
    problems += [f"decimal point {m.group()!r}" for m in re.finditer(r"\d\.\d", text)]
    problems += [f"English quote {m.group()!r}" for m in re.finditer(r'[“”"]', text)]
    return problems


def test_french_punctuation_is_typed_the_way_the_code_sets_it() -> None:
    found = {name: typography_problems(text) for name, text in french_texts().items()}
    assert {name: said for name, said in found.items() if said} == {}


def test_the_typography_check_catches_glued_punctuation_and_a_decimal_point() -> None:
    for bad in ("Pion posé; tour fini.", "Voici: un pion.", "«pion »", "12.5 mm",
                "Pion\u00a0: posé.", 'un "pion"'):
        assert typography_problems(bad), bad
    assert typography_problems("Voici : un pion ; « pion » de 12,5 mm, en c0-c2>d1.") == []


def test_the_sheets_say_vous_never_tu() -> None:
    for name, text in french_texts().items():
        assert not set(words(text)) & TUTOIEMENT, name
        if name.endswith(".md"):
            assert "vous" in words(text) or "votre" in words(text), name


# --- the figures a French sheet prints ---------------------------------------------------

def english_figure(text: str) -> str:
    """A French figure as the English file writes it: thousands with a comma, the partisan
    players' English names."""
    text = re.sub(r"(\d)[\u00a0\u202f ](\d{3})\b", r"\1,\2", text)
    return {"Gauche": "Left", "Droite": "Right", "Premier": "First",
            "Second": "Second"}.get(text, text)


@pytest.mark.parametrize("game", [g for g in GAMES
                                  if (TEMPLATES / g / "figures.json").is_file()])
def test_french_figures_say_what_the_english_figures_say(game: str) -> None:
    """figures.fr.json (beside figures.json, which a computation writes) has the same names
    and the same values, written the French way."""
    english = json.loads((TEMPLATES / game / "figures.json").read_text("utf-8"))["figures"]
    path = TEMPLATES / game / "figures.fr.json"
    if not path.is_file():  # a game whose figures are plain numbers needs no French file
        assert all(re.fullmatch(r"\d{1,3}", v) for v in english.values()), english
        return
    translated = json.loads(path.read_text("utf-8"))["figures"]
    assert set(translated) == set(english)
    assert {k: english_figure(v) for k, v in translated.items()} == english
    assert not any(re.search(r"\d,\d{3}", v) for v in translated.values())


# --- every ruling of ours marked, in French too ------------------------------------------

def french_sentences(game: str, kind: str) -> list[str]:
    """The French sheet's sentences, each {print|screen} alternative taken both ways."""
    text = french(TEMPLATES / game / f"{kind}.md").read_text("utf-8")
    text = "\n".join(re.sub(r"^\s*(>|- )", "", line) for line in text.splitlines()
                     if not line.startswith((":::", "#")))
    out = []
    for medium in (1, 2):
        flat = " ".join(re.sub(r"\{([^{}|]*)\|([^{}|]*)\}",
                               lambda m, k=medium: m.group(k), text).split())
        out += re.split(r"(?<=[.!?])\s+(?=[A-ZÀ-Ý*(])", flat)
    return out


FRENCH_MARK = re.compile(r"notre décision|notre interprétation")
# The spec's rulings as the French sheets state them (game, name, statement, where); the
# English list is in test_rules_fidelity_iv.py.
FRENCH_RULINGS: list[tuple[str, str, str, tuple[str, ...]]] = [
    ("polygone", "the goal is the far apex", r"\bbut\b[^.]*\bpointe\b|pointe adverse, votre but",
     ("sheet", "quick")),
    ("polygone", "the swinging end ends no nearer home", r"au moins aussi\s+loin en avant",
     ("sheet",)),
    ("polygone", "only pieces at the pivot block",
     r"ne touchent pas le pivot ne bloquent|seules les pièces au pivot", ("sheet", "quick")),
    ("polygone", "seven captures win at once", r"\bsept\b[^.;]*fait gagner",
     ("sheet", "quick")),
    ("polygone", "a broken polygon no longer counts", r"rompu par une prise antérieure",
     ("sheet", "quick")),
    ("polygone", "a piece sticking in from a corner",
     r"s'avance à l'intérieur depuis (l'un de ses|un) sommet",
     ("sheet", "quick")),
    ("polygone", "no move loses", r"ne peut pas jouer perd", ("sheet", "quick")),
    ("o", "off the board counts as empty", r"hors du plateau comptent comme vides",
     ("sheet", "quick")),
    ("o", "the outside counts as open", r"extérieur du plateau compte comme ouvert",
     ("sheet",)),
    ("o", "neither can place: no winner", r"sans vainqueur", ("sheet", "quick")),
    ("o", "which glyph is Left's", r"lequel des deux est le glyphe gauche|qui a lequel",
     ("sheet", "quick")),
]


def unmarked(sentences: list[str], statement: str) -> tuple[bool, list[str]]:
    """Whether any sentence states the ruling, and those that state it unmarked."""
    stating = [s for s in sentences if re.search(statement, s, flags=re.I)]
    return bool(stating), [s for s in stating if not FRENCH_MARK.search(s)]


@pytest.mark.parametrize("case", FRENCH_RULINGS,
                         ids=lambda c: f"{c[0]}-{c[1].replace(' ', '-')}")
def test_every_ruling_of_ours_is_marked_in_french(
        case: tuple[str, str, str, tuple[str, ...]]) -> None:
    game, name, statement, expected = case
    for kind in ("sheet", "quick"):
        stated, bare = unmarked(french_sentences(game, kind), statement)
        assert bare == [], f"{game} {kind}: our ruling ({name}) printed unmarked"
        assert stated or kind not in expected, f"{game} {kind}: {name} is no longer stated"


def test_the_french_mark_check_catches_an_unmarked_ruling() -> None:
    sentences = french_sentences("polygone", "sheet")
    assert unmarked(sentences, FRENCH_RULINGS[2][2]) == (True, [])
    bare = [s.replace(" *(notre décision)*", "") for s in sentences]
    assert unmarked(bare, FRENCH_RULINGS[2][2])[1]
