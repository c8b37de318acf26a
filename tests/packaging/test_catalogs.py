"""The gettext catalogs (issue 36): the template holds every message the code makes, every
catalog translates every one of them, with the same fields, and the catalogs ship in the
package as text (compiled by Babel at first use)."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from conftest import ROOT

from boardgen import i18n

LOCALE = ROOT / "boardgen" / "locale"
KEYWORDS = {"tr": None, "ntr": (1, 2), "N_": None}


def _ids(messages: object) -> set[str | tuple[str, ...]]:
    return {m if isinstance(m, str) else tuple(m) for m in messages}  # type: ignore[attr-defined]


def code_messages() -> set[str | tuple[str, ...]]:
    """Every message id Babel extracts from the code, as the docs' command does."""
    found = extract_from_dir(str(ROOT / "boardgen"), method_map=[("**.py", "python")],
                             keywords=KEYWORDS)
    return {message if isinstance(message, str) else tuple(message)
            for _file, _line, message, _comments, _context in found}


def catalog(path: Path) -> dict[str | tuple[str, ...], object]:
    with path.open("rb") as handle:
        return {m.id if isinstance(m.id, str) else tuple(m.id): m for m in read_po(handle)
                if m.id}


def literal_calls() -> set[str]:
    """The literal first argument of every tr()/ntr()/N_() call, read from the syntax tree
    (f-string expressions included, which Babel's extractor does not look into)."""
    found: set[str] = set()
    for path in (ROOT / "boardgen").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                    node.func.id in KEYWORDS and node.args and \
                    isinstance(node.args[0], ast.Constant) and \
                    isinstance(node.args[0].value, str):
                found.add(node.args[0].value)
    return found


def test_the_template_holds_every_message_of_the_code() -> None:
    template = set(catalog(LOCALE / "boardgen.pot"))
    extracted = code_messages()
    assert extracted - template == set(), "run the extraction in docs/howto/translate.md"
    assert template - extracted == set(), "the template holds messages the code no longer has"
    assert len(extracted) > 200  # the engines' captions, keys, pages, kits, the gallery


def test_babel_finds_every_literal_message() -> None:
    # A tr("...") inside an f-string's braces is invisible to the extractor: it would
    # print in English on every page of every language.
    singulars = {m if isinstance(m, str) else m[0] for m in code_messages()}
    assert literal_calls() - singulars == set()


@pytest.mark.parametrize("lang", [lang for lang in i18n.languages() if lang != "en"])
def test_every_message_is_translated_with_the_same_fields(lang: str) -> None:
    path = i18n.catalog_path(lang)
    assert path is not None and path.is_relative_to(LOCALE)
    translated = catalog(path)
    for message_id in code_messages():
        assert message_id in translated, (lang, message_id)
        entry = translated[message_id]
        assert not entry.fuzzy, (lang, message_id)  # type: ignore[attr-defined]
        strings = entry.string  # type: ignore[attr-defined]
        strings = (strings,) if isinstance(strings, str) else strings
        ids = (message_id,) if isinstance(message_id, str) else message_id
        assert all(strings), (lang, message_id)
        fields = {name for _, name, _, _ in string.Formatter().parse(ids[-1]) if name}
        for text in strings:
            if message_id == r"^Picture \d+: ":  # a pattern, not a template
                re.compile(text)
                continue
            assert {name for _, name, _, _ in string.Formatter().parse(text)
                    if name} == fields, (lang, message_id, text)


def test_french_plurals_are_gettext_s() -> None:
    with i18n.speaking("fr"):
        said = [i18n.ntr("{count} stone", "{count} stones", n).format(count=n)
                for n in (0, 1, 2)]
    assert said == ["0 pion", "1 pion", "2 pions"]  # French: 0 is singular


def test_catalogs_ship_as_text_in_the_package() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/*/LC_MESSAGES/*.po"' in pyproject
    assert not list(LOCALE.rglob("*.mo"))  # compiled in memory, never committed
    assert '"babel' in pyproject
