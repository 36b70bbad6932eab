"""``python -m tablebox``: the same as the ``tablebox`` command."""

from tablebox.cli import main

main()
