"""``python -m bench``: every benchmark in turn (what ``make bench`` runs)."""

from __future__ import annotations

import sys

from bench import engine


def main() -> int:
    engine.main(sys.argv[1:])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
