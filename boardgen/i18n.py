"""Languages: the gettext catalogs of every player-facing string the code makes, the
language a piece of work is done in, and the typography each language asks of its text.

A string the code prints is written in English and wrapped in :func:`tr` (or marked with
:func:`N_` where it is a constant read before any language is chosen, and passed through
:func:`tr` where it is used).  The catalogs are gettext ``.po`` files, one per language:
``boardgen/locale/LANG/LC_MESSAGES/boardgen.po`` inside the package, extracted and compiled
with Babel (docs: howto/translate).  Only the ``.po`` text ships; it is compiled with Babel
in memory the first time a language is used, so the wheel holds no build product and its
bytes depend on the sources alone.

More languages come from folders named in the environment variable ``BOARDGEN_LANGUAGES``
(separated as PATH is): each folder holds ``locale/LANG/LC_MESSAGES/boardgen.po`` and
``templates/GAME/sheet.LANG.md``, ``quick.LANG.md`` and ``NAME.LANG.txt``.  Adding a
language is adding files.

The language is a context variable: the command line and the API set it once around a
piece of work (:func:`speaking`), and every layer below reads it (:func:`language`), so no
function between them carries it as an argument.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import io
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from boardgen.errors import BoardgenError, option

SOURCE_LANGUAGE = "en"  # the language the code's strings and the plain templates are in
DOMAIN = "boardgen"
LANGUAGES_VARIABLE = "BOARDGEN_LANGUAGES"  # folders with more languages (see above)

# A language's code as gettext names it: "fr", "pt_BR" (never a path).
_CODE = re.compile(r"[a-z]{2,3}(_[A-Z]{2})?")
# What PDF /Lang and HTML lang say for a language, when the code alone is not enough.
_TAGS = {"en": "en-GB", "fr": "fr-FR"}

_LANGUAGE: ContextVar[str] = ContextVar("boardgen_language", default=SOURCE_LANGUAGE)


def language() -> str:
    """The language of the work in progress (``en`` unless :func:`speaking` says else)."""
    return _LANGUAGE.get()


@contextmanager
def speaking(lang: str) -> Iterator[None]:
    """Do the work inside in ``lang`` (a language :func:`checked_language` accepted)."""
    token = _LANGUAGE.set(lang)
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


def extra_folders() -> list[Path]:
    """The folders ``BOARDGEN_LANGUAGES`` names, in its order (missing ones skipped)."""
    said = os.environ.get(LANGUAGES_VARIABLE, "")
    return [Path(part) for part in said.split(os.pathsep) if part and Path(part).is_dir()]


@functools.cache
def _package_locale() -> Path:
    # The package's own folder (what importlib.resources answers for a package on disk,
    # without importing it: tempfile, shutil, zipfile and the compression modules come
    # with it, a few milliseconds of every command's start-up).
    return Path(__file__).parent / "locale"


def catalog_path(lang: str) -> Path | None:
    """The ``.po`` file of ``lang``: the package's own, else the first extra folder's."""
    for path in _catalog_places(lang, os.environ.get(LANGUAGES_VARIABLE, "")):
        if path.is_file():
            return path
    return None


@functools.lru_cache(maxsize=64)
def _catalog_places(lang: str, extra: str) -> tuple[Path, ...]:
    """Where ``lang``'s catalog may be, in order, with ``extra`` the value of
    BOARDGEN_LANGUAGES: worked out once, as every translated string looks its catalog up
    (a tenth of a French rule sheet's time went to building these paths)."""
    folders = [Path(part) for part in extra.split(os.pathsep) if part]
    return tuple(base / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
                 for base in (_package_locale(), *(folder / "locale" for folder in folders)))


def languages() -> tuple[str, ...]:
    """Every language boardgen can print in: English, and each one with a catalog."""
    found = {SOURCE_LANGUAGE}
    for base in (_package_locale(), *(folder / "locale" for folder in extra_folders())):
        if base.is_dir():
            found.update(p.name for p in base.iterdir()
                         if _CODE.fullmatch(p.name) and
                         (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file())
    return (SOURCE_LANGUAGE, *sorted(found - {SOURCE_LANGUAGE}))


def checked_language(lang: object, field: str = "lang") -> str:
    """``lang`` if boardgen has a catalog for it; else one line naming the option."""
    known = languages()
    if not isinstance(lang, str) or lang not in known:
        shown = repr(lang)[:40]
        raise BoardgenError(f"{option(field)}: unknown language {shown} (choose from "
                            f"{', '.join(known)}; more with {LANGUAGES_VARIABLE}, see "
                            "docs: howto/translate)", field=field)
    return lang


def language_tag(lang: str | None = None) -> str:
    """The BCP 47 tag of ``lang`` (default: the current one), as PDF /Lang and HTML say it."""
    lang = lang or language()
    return _TAGS.get(lang, lang.replace("_", "-"))


@functools.lru_cache(maxsize=16)
def _compiled(path: Path, stamp: float) -> _gettext.GNUTranslations:
    """The catalog at ``path`` compiled by Babel in memory (``stamp``: its time, so that an
    edited catalog is read again in a long session)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with path.open("rb") as handle:
        messages = read_po(handle, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, messages, use_fuzzy=False)
    compiled.seek(0)
    return _gettext.GNUTranslations(compiled)


def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang`` (English: the strings as written)."""
    if lang == SOURCE_LANGUAGE:
        return _gettext.NullTranslations()
    path = catalog_path(lang)
    if path is None:
        return _gettext.NullTranslations()
    return _compiled(path, path.stat().st_mtime)


def tr(message: str) -> str:
    """``message`` in the current language (its English text where none is known)."""
    lang = language()
    if lang == SOURCE_LANGUAGE:
        return message
    return translations(lang).gettext(message)


def ntr(singular: str, plural: str, count: int) -> str:
    """The singular or plural form of a message for ``count``, in the current language."""
    lang = language()
    if lang == SOURCE_LANGUAGE:
        return singular if count == 1 else plural
    return translations(lang).ngettext(singular, plural, count)


def N_(message: str) -> str:  # noqa: N802 (gettext's own name for a marker)
    """Mark ``message`` for the catalogs without translating it (a constant read before a
    language is chosen): translate it with :func:`tr` where it is used."""
    return message


# --- numbers and typography ------------------------------------------------------------------

_DECIMAL_MARK = {"fr": ","}


def number(value: float, digits: int = 1) -> str:
    """``value`` with ``digits`` decimals ("12.5"; "12,5" in French)."""
    return f"{value:.{digits}f}".replace(".", _DECIMAL_MARK.get(language(), "."))


def decimal_commas(text: str) -> str:
    """``text`` (a template already formatted with numbers, "12.5 mm") with the current
    language's decimal mark in its numbers ("12,5 mm" in French)."""
    mark = _DECIMAL_MARK.get(language())
    return re.sub(r"(?<=\d)\.(?=\d)", mark, text) if mark else text


NARROW_NBSP = "\u202f"  # before ; ! ? in French
NBSP = "\u00a0"  # before : and inside « »

# A space (or none) before ; ! ? that end a word: the punctuation must be followed by a
# space, the end, or a closing mark, so that a URL or "a?b" is left alone.
_TIGHT = re.compile(r"(?<=\S)[ \u00a0\u202f]?([;!?])(?=$|[\s»)\]\u202f\u00a0])")
_COLON = re.compile(r"(?<=\S)[ \u00a0\u202f]?(:)(?=$|\s)")
_PERCENT = re.compile(r"(?<=\d) %")
_OPENING = re.compile(r"«[ \u00a0\u202f]?")
_CLOSING = re.compile(r"[ \u00a0\u202f]?»")


def french_spacing(text: str) -> str:
    """French text with the spaces French typography asks for: a narrow no-break space
    before ; ! ?, a no-break space before : and inside « guillemets » (an ordinary space
    there is replaced, a missing one added)."""
    text = _TIGHT.sub(NARROW_NBSP + r"\1", text)
    text = _COLON.sub(NBSP + r"\1", text)
    text = _OPENING.sub("«" + NBSP, text)
    text = _PERCENT.sub(NBSP + "%", text)  # 100 % on one line
    return _CLOSING.sub(NBSP + "»", text)


LANGUAGE_NAMES = {"en": "English", "fr": "Français"}
_ENGLISH_NAMES = {"en": "English", "fr": "French"}  # in error messages (always English)


def language_name(lang: str) -> str:
    """A language as its speakers name it (the gallery's headings)."""
    return LANGUAGE_NAMES.get(lang, lang)


def localized_template(folder: Path, stem: str, suffix: str, game: str) -> Path:
    """The template ``folder/stem.suffix`` in the current language: ``stem.LANG.suffix``
    beside it, or in an extra folder's ``templates/GAME/``.  A missing translation is
    refused with one line, never replaced by the English text on a page in another
    language."""
    lang = language()
    if lang == SOURCE_LANGUAGE:
        return folder / f"{stem}.{suffix}"
    name = f"{stem}.{lang}.{suffix}"
    for place in (folder, *(extra / "templates" / game for extra in extra_folders())):
        if (place / name).is_file():
            return place / name
    raise BoardgenError(f"{folder / f'{stem}.{suffix}'} has no translation into "
                        f"{_ENGLISH_NAMES.get(lang, lang)}: {name} is missing (beside it, or in "
                        f"{LANGUAGES_VARIABLE}'s templates/{game}/; docs: howto/translate)")


def typography(text: str, lang: str | None = None) -> str:
    """``text`` as the typography of ``lang`` (default: the current one) sets it."""
    return french_spacing(text) if (lang or language()) == "fr" else text
