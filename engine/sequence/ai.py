"""Computer players for Sequence (placeholder while the rules land)."""

from __future__ import annotations

from typing import Any

from engine.ai import RandomPlayer

PLAYERS: dict[str, Any] = {"random": RandomPlayer()}
