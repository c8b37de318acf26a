"""``--theme FILE.toml`` on the command line: board, diagram and play draw in it; a bad
file is one line on stderr naming FILE:LINE, exit 2, and no file written."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import ROOT, one_line_error

MINE = '# blue and gold\n[roles]\nplayer1 = "#1b4f9c"\nplayer2 = { fill = "#f0c419", ' \
    'pattern = "hatch" }\n'
CLOSE = '[roles]\nplayer1 = "#1b4f9c"\nplayer2 = "#2b5fac"\n'

COMMANDS = [
    ("board", "copolymer", "--side", "3"),
    ("diagram", "copolymer", "tempo"),
    ("play", "copolymer", "--side", "3", "--moves", "C3 B2"),
]


@pytest.mark.parametrize("args", COMMANDS)
def test_a_theme_file_is_drawn(run_cli, in_tmp: Path, args: tuple[str, ...]) -> None:  # type: ignore[no-untyped-def]
    (in_tmp / "mine.toml").write_text(MINE, encoding="utf-8")
    result = run_cli(*args, "--theme", "mine.toml", "-o", "out.svg")
    assert result.code == 0, result.err
    svg = (in_tmp / "out.svg").read_text(encoding="utf-8")
    assert ".cell.empty{fill:#fbf8f1" in svg  # a role left out keeps the colour theme's
    if args[0] != "board":
        assert ".cell.player1{fill:#1b4f9c" in svg


@pytest.mark.parametrize("args", COMMANDS)
def test_a_theme_whose_players_look_alike_is_refused(run_cli, in_tmp: Path,  # type: ignore[no-untyped-def]
                                                     args: tuple[str, ...]) -> None:
    (in_tmp / "close.toml").write_text(CLOSE, encoding="utf-8")
    one_line_error(run_cli(*args, "--theme", "close.toml", "-o", "out.pdf"),
                   "close.toml:2:", "player1", "player2", "grey levels apart")
    assert not (in_tmp / "out.pdf").exists()


def test_a_missing_theme_file_and_an_unknown_name(run_cli, in_tmp: Path) -> None:  # type: ignore[no-untyped-def]
    one_line_error(run_cli("board", "o", "--theme", "none.toml"), "--theme", "none.toml",
                   "no such file")
    one_line_error(run_cli("board", "o", "--theme", "sepia"), "sepia", "FILE.toml")
    assert not any(in_tmp.iterdir())


def test_help_names_the_theme_file(run_cli) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(run_cli("diagram", "--help").out.split())
    assert "FILE.toml" in text and "[roles]" in text


@pytest.mark.parametrize("text, fragments", [
    ('base = ["colour"]\n[roles]\nplayer1 = "#123456"\n', ("t.toml:1:", "base must be")),
    ('[base]\nx = 1\n', ("t.toml:1:", "base must be", "not dict")),
    ('x = ' + '[' * 5000 + ']' * 5000 + '\n', ("t.toml:", "not a TOML file",
                                               "nested too deeply")),
    ('[roles]\nplayer1 = "#000000\\n"\n', ("t.toml:2:", "is not a colour")),
])
def test_a_theme_file_of_the_wrong_shape_is_one_line(run_cli, in_tmp: Path,  # type: ignore[no-untyped-def]
                                                     text: str,
                                                     fragments: tuple[str, ...]) -> None:
    (in_tmp / "t.toml").write_text(text, encoding="utf-8")
    (in_tmp / "o.svg").write_text("mine", encoding="utf-8")
    one_line_error(run_cli("board", "copolymer", "--side", "3", "--theme", "t.toml",
                           "-o", "o.svg"), *fragments)
    assert (in_tmp / "o.svg").read_text(encoding="utf-8") == "mine"


def _help_examples(run_cli) -> list[str]:  # type: ignore[no-untyped-def]
    """The theme the --theme help shows, as the file a user would copy it into."""
    files = []
    for command in ("board", "diagram", "play"):
        text = " ".join(run_cli(command, "--help").out.split())
        settings = re.findall(r'([a-z0-9-]+) = "(#[0-9a-fA-F]{6})"', text)
        assert settings, text
        files.append("[roles]\n" + "".join(f'{role} = "{colour}"\n'
                                           for role, colour in settings))
    return files


def _docs_examples() -> list[str]:
    """Every TOML theme and every theme={...} dict the docs page "Themes of your own"
    shows, as a file."""
    page = (ROOT / "docs" / "howto" / "themes.md").read_text(encoding="utf-8")
    files = re.findall(r"```(?:\{code-block\} )?toml\n(?::[^\n]*\n)*(.*?)```", page, re.S)
    for given in re.findall(r"theme=(\{.*?\}\})", page, re.S):
        data = ast.literal_eval(given)
        files.append("[roles]\n" + "".join(f'{role} = "{colour}"\n'
                                           for role, colour in data["roles"].items()))
    assert len(files) >= 2
    return files


def test_every_example_theme_the_help_and_docs_show_is_accepted(  # type: ignore[no-untyped-def]
        run_cli, in_tmp: Path) -> None:
    for k, text in enumerate([*_help_examples(run_cli), *_docs_examples()]):
        (in_tmp / f"t{k}.toml").write_text(text, encoding="utf-8")
        result = run_cli("play", "copolymer", "--side", "3", "--moves", "C3 B2",
                         "--theme", f"t{k}.toml", "-o", f"o{k}.svg")
        assert result.code == 0, (text, result.err)
        assert (in_tmp / f"o{k}.svg").stat().st_size > 0
