"""``python -m boardgen``: the command line."""

from boardgen.cli import main

if __name__ == "__main__":
    main()
