"""Compare two output folders of ``boardgen all`` file by file, byte for byte.

    python bench/same_output.py BEFORE AFTER

Run ``boardgen all -o BEFORE`` on the code before a speed change and ``boardgen all -o
AFTER`` on the code after it (with the same SOURCE_DATE_EPOCH, or none), then this: it
prints every file that is only in one folder or whose bytes differ, and exits 1 if there
is any, 0 when the two folders hold the same files with the same bytes.
"""

from __future__ import annotations

import sys
from pathlib import Path


def files(folder: Path) -> dict[str, Path]:
    return {path.relative_to(folder).as_posix(): path
            for path in folder.rglob("*") if path.is_file()}


def differences(before: Path, after: Path) -> list[str]:
    old, new = files(before), files(after)
    found = [f"only in {before}: {name}" for name in sorted(old.keys() - new.keys())]
    found += [f"only in {after}: {name}" for name in sorted(new.keys() - old.keys())]
    found += [f"bytes differ: {name}" for name in sorted(old.keys() & new.keys())
              if old[name].read_bytes() != new[name].read_bytes()]
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    before, after = Path(argv[0]), Path(argv[1])
    found = differences(before, after)
    for line in found:
        print(line)
    print(f"{len(files(before))} files in {before}, {len(files(after))} in {after}: "
          f"{'the same bytes' if not found else f'{len(found)} differences'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
