"""Game records: a JSON document that replays a whole game, and the replayer that checks one.

Format (documented in docs/records.md)::

    {"format": "tablebox.record", "version": 1, "game": "sequence", "rules_version": "1.0",
     "players": 4, "options": {...}, "seed": 7, "seats": [{"name": ..., "controller": ...}],
     "steps": [{"chance": {...}}, {"seat": 0, "action": {...}}, ...],
     "outcome": {...} | null}

``seed`` is optional. When replay reaches a pending chance step and the next recorded step is
not a chance step, it draws the outcome from the seed, so a hand-written record may pin the
first deal and list only actions after it. Without a seed every chance step must be recorded.
Replay re-validates every step and stops at the first illegal one, reporting its index and
code; it never raises for a bad step, only for a record that is not a record at all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine import errors, registry
from engine.codec import to_data
from engine.errors import CodecError, IllegalAction, OptionError, RecordError
from engine.match import Match

FORMAT = "tablebox.record"
VERSION = 1


def to_record(
    match: Match,
    seats: Sequence[Mapping[str, Any]] | None = None,
    *,
    include_seed: bool = True,
) -> dict[str, Any]:
    """The record of ``match`` so far. Leave the seed out of records that leave the host."""
    outcome = match.outcome()
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": match.game.info.id,
        "rules_version": match.game.info.rules_version,
        "players": match.players,
        "options": dict(match.options),
    }
    if include_seed:
        rec["seed"] = match.seed
    if seats is not None:
        rec["seats"] = [dict(s) for s in seats]
    rec["steps"] = [match.step_data(s) for s in match.steps]
    rec["outcome"] = to_data(outcome) if outcome is not None else None
    return rec


@dataclass(frozen=True)
class ReplayError:
    index: int  # index into the record's "steps" (len(steps) for the final outcome check)
    code: str
    message: str


@dataclass
class ReplayResult:
    match: Match
    steps: int  # recorded steps applied
    error: ReplayError | None

    @property
    def valid(self) -> bool:
        return self.error is None

    def report(self) -> dict[str, Any]:
        """The JSON report of ``tablebox replay --json``."""
        m = self.match
        outcome = m.outcome()
        return {
            "valid": self.valid,
            "steps": self.steps,
            "error": None
            if self.error is None
            else {"index": self.error.index, "code": self.error.code, "message": self.error.message},
            "outcome": to_data(outcome) if outcome is not None else None,
            "to_act": list(m.to_act()),
            "legal": {str(s): [to_data(a) for a in m.legal(s)] for s in m.to_act()},
        }


def start_from(record: Mapping[str, Any]) -> Match:
    """The match a record starts from (before any step), or RecordError/OptionError."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a tablebox record (format must be {FORMAT!r})")
    if record.get("version") != VERSION:
        raise RecordError(f"unsupported record version {record.get('version')!r} (this reads {VERSION})")
    game = registry.get(str(record.get("game")))
    rv = record.get("rules_version")
    if rv is not None and rv != game.info.rules_version:
        raise RecordError(
            f"record is for {game.info.id} rules {rv}, this engine has {game.info.rules_version}"
        )
    players = record.get("players", game.info.default_players)
    if not isinstance(players, int) or isinstance(players, bool):
        raise RecordError("'players' must be an integer")
    options = record.get("options") or {}
    if not isinstance(options, Mapping):
        raise RecordError("'options' must be an object")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError("'seed' must be an integer")
    steps = record.get("steps", [])
    if not isinstance(steps, list):
        raise RecordError("'steps' must be a list")
    return Match.start(game, players, options, seed if seed is not None else 0, resolve=False)


def replay(record: Mapping[str, Any]) -> ReplayResult:
    """Re-validate every step of ``record``. Raises only RecordError/OptionError for non-records."""
    match = start_from(record)
    has_seed = record.get("seed") is not None
    steps: list[Any] = list(record.get("steps", []))
    applied = 0

    def fail(index: int, code: str, message: str) -> ReplayResult:
        return ReplayResult(match, applied, ReplayError(index, code, message))

    for index, step in enumerate(steps):
        if not isinstance(step, Mapping):
            return fail(index, "bad_step", "a step is an object")
        if "chance" in step:
            try:
                outcome = match.game.chances.decode(step["chance"])
                match.apply_chance(outcome)
            except CodecError as e:
                return fail(index, errors.BAD_CHANCE, str(e))
            except IllegalAction as e:
                return fail(index, e.code, e.detail)
        elif "action" in step:
            if match.chance_pending():
                if not has_seed:
                    return fail(index, errors.CHANCE_PENDING, "a chance step must come first")
                match.resolve_chance()
            seat = step.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                return fail(index, "bad_step", "'seat' must be an integer")
            try:
                match.act(seat, match.decode_action(step["action"]))
            except IllegalAction as e:
                return fail(index, e.code, e.detail)
        else:
            return fail(index, "bad_step", "a step has 'chance' or 'seat' and 'action'")
        applied += 1
    if has_seed:
        match.resolve_chance()
    recorded = record.get("outcome")
    actual = match.outcome()
    if recorded is not None and (actual is None or to_data(actual) != recorded):
        return fail(len(steps), "outcome_mismatch", "the recorded outcome is not what replay reached")
    return ReplayResult(match, applied, None)


__all__ = [
    "FORMAT",
    "VERSION",
    "OptionError",
    "RecordError",
    "ReplayError",
    "ReplayResult",
    "replay",
    "start_from",
    "to_record",
]
