"""A seat's own account of the game in play: its log and its score sheet, from its views only.

Owns ``account(match, seat, base)``: the table's steps replayed, and each step described from
what ``seat`` sees before and after it (``None``: the spectator's public account), never from
the true state or the action itself where the view does not show it:

- A log entry is the game's own words for the last move (``Common.last``, built by the game
  from the seat's view) when that changes. A game whose views carry no such caption gets a
  shell line naming the mover, the action's type and its plain fields (``log.action``), with
  the action's cards only when every one of them is in this seat's view just before or just
  after the step (``log.action_cards``); a game with a secret action type or field must
  caption its moves.
- A score-sheet row is the scores by side (``Common.scores`` of the seat's view) after each
  scored hand (``Game.between_hands``) and at the end of the game: one row for a game of one
  deal.

Replays are kept per match and seat and carried forward from where they stopped, so asking
again after a move costs one step, not the whole game; ``advance`` carries one forward a
slice at a time, so the first ask in a long game need not hold the caller's loop. The cached
true states never leave this module; nothing here is sent but entries and rows built from a
seat's views.

This module must never do I/O, log, or describe a step from anything but ``seat``'s views and
the public parts of the action named above (the leak test holds every entry of every game
against the true states).
"""

from __future__ import annotations

import json
import re
import weakref
from dataclasses import dataclass, field
from typing import Any

from engine.codec import to_data
from engine.game import Game
from engine.match import ActionStep, Match
from engine.presentation import Caption, Common
from hostd.protocol.messages import LogEntry, ScoreRow, Text

_CARD = re.compile(r'"([A2-9TJQK][SHDC])"')


@dataclass
class _Replay:
    """One seat's replay of one match: the state after ``done`` steps, and what it gave."""

    state: Any
    common: Common
    view_cards: frozenset[str]
    done: int = 0
    entries: list[LogEntry] = field(default_factory=list)
    rows: list[ScoreRow] = field(default_factory=list)


# Keyed by the Match object: a rematch's new match starts a new account, and a table that goes
# away takes its replays with it.
_replays: weakref.WeakKeyDictionary[Match, dict[int | None, _Replay]] = (
    weakref.WeakKeyDictionary())


def _cards(data: Any) -> frozenset[str]:
    return frozenset(_CARD.findall(json.dumps(data)))


def _text(cap: Caption) -> Text:
    return Text(cap.key, dict(cap.args))


def _fallback(game: Game[Any], seat: int, action: Any, known: frozenset[str]) -> Text:
    """The shell's words for a move of a game without captions: who, which action (the
    game's ``<game>.log.<type>`` phrase), its other plain fields (a suit named, a square),
    and its cards only when this seat can see all of them."""
    data = to_data(action)
    fields = data if isinstance(data, dict) else {}
    args: dict[str, str | int] = {"seat": seat,
                                  "action": f"{game.info.id}.log.{fields.get('type', '')}"}
    for name, value in fields.items():
        # Cards are judged below; a plain field of a game that uses this line is public
        # (docs/protocol.md, "Log, scores and reactions"). Booleans go as 0/1.
        if name not in ("type", "seat", "action", "cards") and isinstance(value, str | int) \
                and not _CARD.fullmatch(f'"{value}"'):
            args[name] = int(value) if isinstance(value, bool) else value
    cards = sorted(_cards(data))
    if cards and set(cards) <= known:
        args["cards"] = " ".join(cards)
        return Text("log.action_cards", args)
    return Text("log.action", args)


def _start(game: Game[Any], match: Match, seat: int | None) -> _Replay:
    state = game.new_state(match.players, match.options, match.seed)
    view = game.view(state, seat)
    return _Replay(state, game.common(view), _cards(to_data(view)))


def account(match: Match, seat: int | None, base: int) -> tuple[list[LogEntry], list[ScoreRow]]:
    """``seat``'s log entries and score-sheet rows for ``match`` so far. ``base`` is the table
    version before the match's first step, so entries carry table versions."""
    r = _replay(match, seat, base, None)
    return list(r.entries), list(r.rows)


def advance(match: Match, seat: int | None, base: int, limit: int) -> bool:
    """Carry ``seat``'s replay of ``match`` forward by at most ``limit`` steps; True when it
    has caught up (``account`` then replays nothing). A long game's first account is a replay
    of every step, tens of milliseconds here and several times that on a Pi: the caller runs
    it in slices and lets everything else run between them."""
    return _replay(match, seat, base, limit).done == len(match.steps)


def _replay(match: Match, seat: int | None, base: int, limit: int | None) -> _Replay:
    game = match.game
    per_seat = _replays.setdefault(match, {})
    r = per_seat.get(seat)
    if r is None or r.done > len(match.steps):
        r = per_seat[seat] = _start(game, match, seat)
    end = len(match.steps) if limit is None else min(len(match.steps), r.done + limit)
    for i in range(r.done, end):
        step = match.steps[i]
        version = base + i + 1
        if isinstance(step, ActionStep):
            state = game.apply(r.state, step.seat, step.action)
        else:
            state = game.apply_chance(r.state, step.outcome)
        view = game.view(state, seat)
        common = game.common(view)
        cards = _cards(to_data(view))
        if isinstance(step, ActionStep):
            if common.last is not None:
                if common.last != r.common.last:
                    r.entries.append(LogEntry(version=version, text=_text(common.last)))
            elif r.common.last is None:
                r.entries.append(LogEntry(version=version, text=_fallback(
                    game, step.seat, step.action, r.view_cards | cards)))
        scored = game.between_hands(state) or game.outcome(state) is not None
        if scored and (not r.rows or r.rows[-1].version != version):
            r.rows.append(ScoreRow(version=version, scores=list(common.scores)))
        r.state, r.common, r.view_cards, r.done = state, common, cards, i + 1
    return r
