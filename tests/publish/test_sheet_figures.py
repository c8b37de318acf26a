"""A sheet's ``{{name}}`` figures: filled from figures.json beside the template, and an
unknown name or a broken file refused in one line naming where (issue 31)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgen.errors import BoardgenError
from boardgen.publish.sheet import sheet_figures, with_figures, write_sheet_figures


def test_figures_are_filled_in() -> None:
    text = "Of {{games}} games,\n{{loops}} ended in a loop.\n"
    assert with_figures(text, {"games": "2,050", "loops": "2,049"}, "s.md") == \
        "Of 2,050 games,\n2,049 ended in a loop.\n"


def test_an_unknown_figure_is_refused_with_its_line() -> None:
    with pytest.raises(BoardgenError, match=r"^s\.md:2: no figure named 'lops' \(known: "
                                            r"games\)$"):
        with_figures("Of {{games}} games,\n{{lops}} ended in a loop.\n", {"games": "9"},
                     "s.md")


def test_a_folder_without_figures_has_none(tmp_path: Path) -> None:
    assert sheet_figures(tmp_path) == {}


@pytest.mark.parametrize("content", ["not json", '{"figures": [1, 2]}', '{"other": {}}',
                                     '{"figures": {"games": 12}}'])
def test_a_broken_figures_file_is_refused(tmp_path: Path, content: str) -> None:
    (tmp_path / "figures.json").write_text(content, encoding="utf-8")
    with pytest.raises(BoardgenError, match="figures.json"):
        sheet_figures(tmp_path)


def test_a_written_figures_file_reads_back(tmp_path: Path) -> None:
    """What the figure scripts write (bench/o_claims.py --sheet, bench/polygone_figures.py)
    is what a sheet reads."""
    path = write_sheet_figures(tmp_path, "counted by a test", {"holes": "24", "games": "2,050"})
    assert path == tmp_path / "figures.json"
    assert sheet_figures(tmp_path) == {"holes": "24", "games": "2,050"}
    assert '"about": "counted by a test"' in path.read_text(encoding="utf-8")
