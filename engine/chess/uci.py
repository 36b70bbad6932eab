"""What the chess levels ask of an external UCI engine (Stockfish), as pure data and text.

The engine layer never runs a process (docs/architecture.md): a host's AI worker that finds
Stockfish wraps it in a ``UciBackend`` (anything with ``bestmove``) and hands it to
``engine.chess.ai.use_backend``; without one, every level plays on our own search. This
module owns the settings each level gives the engine (``LEVELS``), the UCI lines that set
them and ask for a move (``setup_lines``, ``go_lines``), and reading the answer
(``parse_bestmove``). It must never do I/O, start a process, or read the clock: a backend
that does those things lives with the host (bench/chess_ai.py has the reference one).

Work is bounded by nodes, never by time, so a decision costs the same wherever it runs
(Stockfish's skill setting still draws its own random numbers, so its moves are not
reproducible from our generator: the fallback search's are).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class UciSettings:
    """One level's engine settings: ``skill`` is Stockfish's "Skill Level" (0-20), ``elo``
    its "UCI_Elo" with "UCI_LimitStrength" on (None: off), ``nodes`` the search budget."""

    skill: int
    nodes: int
    elo: int | None = None
    hash_mb: int = 16


# easy stays on our own search (a beginner who hangs pieces: Stockfish at its weakest still
# sees every one-move threat). normal and hard are Stockfish held down by skill and nodes:
# normal a casual club player, hard a strong club player (UCI_Elo 2000). hard's 50,000
# nodes take about 0.3 s on the 2-core development machine, so about 1 s on a Raspberry
# Pi 4 (docs/rules/chess.md has the budget and the measured times).
LEVELS: dict[str, UciSettings] = {
    "normal": UciSettings(skill=3, nodes=20_000),
    "hard": UciSettings(skill=20, nodes=50_000, elo=2000),
}


class UciBackend(Protocol):
    """A running UCI engine. ``bestmove`` answers the UCI move for the position reached
    from ``fen`` by ``moves`` (castling king-takes-rook when ``chess960``) under
    ``settings``, or None when the engine failed (the level then plays on our own search)."""

    def bestmove(self, fen: str, moves: Sequence[str], settings: UciSettings,
                 chess960: bool) -> str | None:
        ...


def setup_lines(settings: UciSettings, chess960: bool) -> list[str]:
    """The ``setoption`` lines for ``settings`` (one search thread: a box serves tables)."""
    out = [
        "setoption name Threads value 1",
        f"setoption name Hash value {settings.hash_mb}",
        f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}",
        f"setoption name Skill Level value {settings.skill}",
        f"setoption name UCI_LimitStrength value {'true' if settings.elo else 'false'}",
    ]
    if settings.elo:
        out.append(f"setoption name UCI_Elo value {settings.elo}")
    return out


def go_lines(fen: str, moves: Sequence[str], settings: UciSettings) -> list[str]:
    """The lines that set the position and ask for a move within the node budget."""
    position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
    return [position, f"go nodes {settings.nodes}"]


def parse_bestmove(line: str) -> str | None:
    """The move of a ``bestmove e2e4 ponder e7e5`` line; None for anything else (and for
    ``bestmove (none)``, which an engine says in a finished position)."""
    parts = line.split()
    if len(parts) < 2 or parts[0] != "bestmove" or parts[1] in ("(none)", "0000"):
        return None
    move = parts[1]
    if not 4 <= len(move) <= 5:
        return None
    return move
