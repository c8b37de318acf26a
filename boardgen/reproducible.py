"""SOURCE_DATE_EPOCH: the date a reproducible build stamps into its files.

PDFs carry a creation date.  boardgen writes a fixed one (2000-01-01, reportlab's invariant
mode) so that identical input gives identical bytes, unless SOURCE_DATE_EPOCH is set
(https://reproducible-builds.org/specs/source-date-epoch/): then that date, which reportlab
reads from the environment itself.  The rule sheets, set by Typst, carry that date, or
none at all when it is unset.  The value must be whole seconds since 1970-01-01 UTC,
ASCII digits only; a malformed one is refused before any work (the specification asks a
build to fail rather than guess), not met as a ValueError in the middle of writing a PDF.
"""

from __future__ import annotations

import os
import re

from boardgen.errors import BoardgenError

VARIABLE = "SOURCE_DATE_EPOCH"
# The last second of 9999: a PDF date has four digits for the year.
LATEST = 253_402_300_799
_DIGITS = re.compile(r"[0-9]{1,12}")


def source_date_epoch() -> int | None:
    """SOURCE_DATE_EPOCH as seconds, None if unset or empty (blank is not empty: spaces
    are refused); BoardgenError (one line) if it is not a date a PDF can carry."""
    text = os.environ.get(VARIABLE)
    if not text:  # unset, or set to nothing
        return None
    # Not stripped: " 1" or "1 " is malformed (digits only, says the specification), and
    # another tool reading the same variable may refuse it or read it otherwise.
    if not _DIGITS.fullmatch(text) or int(text) > LATEST:
        shown = text if len(text) <= 30 else text[:30] + "..."
        raise BoardgenError(f"{VARIABLE}={shown!r} is not a time: give whole seconds since "
                            f"1970-01-01 UTC, digits only, at most {LATEST} (the end of 9999), "
                            "or unset it")
    return int(text)


def check_source_date_epoch() -> None:
    """Refuse a malformed SOURCE_DATE_EPOCH (see :func:`source_date_epoch`)."""
    source_date_epoch()
