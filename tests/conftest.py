"""Shared helpers: run the CLI in-process and capture its one-line errors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from boardgen.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Run]:
    def run(*args: str) -> Run:
        code = 0
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return run
