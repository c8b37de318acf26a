"""Failure paths a user meets (issue 20): a thumbnail that cannot be made fails `all`, and a
write interrupted by Ctrl-C leaves neither a temporary file nor a half-written one."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import Run

RunCli = Callable[..., Run]


def _few_jobs_and(extra: Callable[[object], object]) -> Callable[..., list[object]]:
    """`all`'s jobs cut to two cheap ones, with ``extra`` (a job made from Job) between."""
    from boardgen.publish import gallery

    real = gallery.default_jobs

    def jobs(paper, *theme):  # type: ignore[no-untyped-def]
        cheap = [job for job in real(paper, *theme) if job.name.startswith("o-diagram")
                 and job.name.endswith(".pdf")][:2]
        return [cheap[0], extra(gallery.Job), cheap[1]]

    return jobs


@pytest.mark.parametrize("how", ["bytes no viewer can read", "a picture that fails"])
def test_a_thumbnail_that_cannot_be_made_fails_all(run_cli: RunCli, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    how: str) -> None:
    def picture() -> bytes:
        raise OSError(28, "No space left on device")

    def extra(job: Callable[..., object]) -> object:
        if how == "bytes no viewer can read":  # a PDF's thumbnail is drawn from its bytes
            return job("broken.pdf", "o", "diagram", lambda: b"%PDF-1.4 not really")
        return job("broken.svg", "o", "diagram", lambda: b"<svg/>", picture)

    monkeypatch.setattr("boardgen.cli.default_jobs", _few_jobs_and(extra))
    result = run_cli("all", "-o", str(tmp_path))
    name = "broken.pdf" if how.startswith("bytes") else "broken.svg"
    assert result.code == 1, result.err
    assert f"thumbnail of {name}" in result.err
    assert "Traceback" not in result.err
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "Not built" in index and f"thumbnail of {name}" in index
    assert not (tmp_path / "thumbs" / f"{name}.png").exists()
    # The other files and their thumbnails are made all the same.
    assert len(list((tmp_path / "thumbs").glob("o-diagram-*.png"))) == 2


def test_all_with_every_thumbnail_made_exits_zero(run_cli: RunCli, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The same few jobs without the broken one: the failure above is the thumbnail's."""
    from boardgen.publish import gallery

    real = gallery.default_jobs
    monkeypatch.setattr("boardgen.cli.default_jobs", lambda paper, *theme: [
        job for job in real(paper, *theme) if job.name.startswith("o-diagram")
        and job.name.endswith(".pdf")][:2])
    result = run_cli("all", "-o", str(tmp_path))
    assert result.code == 0, result.err
    assert "Not built" not in (tmp_path / "index.html").read_text(encoding="utf-8")


# A real Ctrl-C: SIGINT sent to the process itself half-way through writing the file.
INTERRUPTED = textwrap.dedent("""
    import os, signal, sys
    from boardgen.cli import main

    real_fdopen = os.fdopen

    class HalfThenInterrupt:
        def __init__(self, handle):
            self.handle = handle
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            return self.handle.__exit__(*exc)
        def write(self, data):
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C, delivered here
            self.handle.write(data[len(data) // 2 :])

    os.fdopen = lambda fd, *args, **kwargs: HalfThenInterrupt(real_fdopen(fd, *args, **kwargs))
    main(sys.argv[1:])
""")


@pytest.mark.parametrize("existing", [False, True])
@pytest.mark.parametrize("command", [["board", "copolymer", "--side", "3"],
                                     ["diagram", "o", "corners"]])
def test_an_interrupted_write_leaves_no_temporary_file(tmp_path: Path, existing: bool,
                                                       command: list[str]) -> None:
    target = tmp_path / "out.pdf"
    if existing:
        target.write_bytes(b"the file as it was")
    result = subprocess.run([sys.executable, "-c", INTERRUPTED, *command, "-o", str(target)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 130, result.stderr
    assert result.stderr.strip().splitlines()[-1] == "boardgen: interrupted"
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == (["out.pdf"] if existing else []), left
    if existing:
        assert target.read_bytes() == b"the file as it was"
