"""The rules of every tablebox game: pure, deterministic, standard library only.

This package owns game rules, computer players and game records. It must never do I/O,
read the clock, use the global ``random`` generator, or import anything outside the
standard library (see tests/test_imports.py).
"""
