"""The generic conformance check every game must pass (open_spiel's random simulation test).

``check_games`` plays seeded random games through the rules interface only and asserts:
- legal actions are non-empty exactly for the seats to act;
- every legal action applies (all of them, or a sample on wide turns);
- sampled illegal actions (other seats' actions, actions from other turns, a wrong seat)
  raise ``IllegalAction`` with a code and change nothing;
- every view encodes to JSON and round-trips through the codec's JSON;
- every view's common part (``Game.common``) agrees with the match: the seat, who acts, the
  sides, one score per side, hand counts per seat, the seat's own hand as two-character codes;
  a note and badges for every seat or none, a note for every side or none, a score sheet's
  rows and totals as long as its heads, a grid's marks on cells of its grid zone, and every
  word in it (captions, the last action, notes, badges, the result, the sheet's cells) a key
  of the game's en, fr and ar catalogues whose placeholders its arguments fill (a seat
  argument gives ``{name}``);
- every seat's legal list stays under ``LEGAL_BYTES_MAX`` as the wire encodes it;
- no view depends on anything its seat may not know: redrawing the hidden part of the true
  state (``resample_hidden``) leaves that seat's view byte-for-byte the same;
- the record replays, through JSON, to the very same views for every seat.
"""

from __future__ import annotations

import functools
import json
import random
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.codec import to_data, to_wire
from engine.errors import IllegalAction
from engine.game import Game
from engine.match import Match
from engine.presentation import LEGAL_BYTES_MAX, Caption, Common, Sheet
from engine.records import replay, to_record


def encode(x: Any) -> str:
    return json.dumps(to_data(x), sort_keys=True, ensure_ascii=False)


def all_views(match: Match) -> list[str]:
    return [encode(match.view(s)) for s in [None, *range(match.players)]]


def check_wire(x: Any) -> None:
    """The host's fast encoding (``to_wire``) gives the generic codec's JSON, key order too."""
    assert json.dumps(to_wire(x), ensure_ascii=False) == json.dumps(to_data(x), ensure_ascii=False)


def check_view_invariance(game: Game[Any], state: Any, players: int, rng: random.Random) -> None:
    for seat in [None, *range(players)]:
        before = encode(game.view(state, seat))
        other = game.resample_hidden(state, seat, rng)
        after = encode(game.view(other, seat))
        assert before == after, f"view of seat {seat} depends on hidden state"


def play_random(
    game: Game[Any],
    seed: int,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    *,
    deep: bool = False,
    max_steps: int = 20_000,
) -> Match:
    m = Match.start(game, players, options, seed)
    rng = random.Random(seed * 7919 + 1)
    pool: list[Any] = []
    for _ in range(max_steps):
        if m.outcome() is not None:
            break
        to_act = m.to_act()
        assert to_act, "no seat to act, no chance pending, and no outcome: the game is stuck"
        for seat in range(m.players):
            legal = m.legal(seat)
            assert bool(legal) == (seat in to_act), f"seat {seat}: legal={len(legal)} to_act={to_act}"
        seat = to_act[rng.randrange(len(to_act))]
        legal = m.legal(seat)
        if deep:
            _deep_checks(game, m, seat, legal, pool, rng)
        pool.extend(legal[:: max(1, len(legal) // 4)])
        if len(pool) > 400:
            del pool[:200]
        m.act(seat, legal[rng.randrange(len(legal))])
        m.resolve_chance()
    else:
        raise AssertionError(f"game did not end in {max_steps} steps")
    assert not m.to_act()
    for seat in range(m.players):
        assert m.legal(seat) == ()
    check_outcome(m)
    if deep:
        for v in [None, *range(m.players)]:
            json.dumps(to_data(m.view(v)))
        _check_replay(m)
    return m


def check_outcome(m: Match) -> None:
    """A finished game's outcome is one the clients can show: a draw exactly when nobody won."""
    o = m.outcome()
    assert o is not None
    assert o.draw == (not o.winners), f"draw={o.draw} with winners {o.winners}"
    assert len(set(o.winners)) == len(o.winners), f"a seat wins twice: {o.winners}"
    assert all(0 <= w < m.players for w in o.winners), f"winners {o.winners} are not seats"
    assert len(o.scores) == m.players, f"{len(o.scores)} scores for {m.players} seats"
    assert o.reason, "an outcome names its reason (a message key)"


def _deep_checks(game: Game[Any], m: Match, seat: int, legal: tuple[Any, ...],
                 pool: list[Any], rng: random.Random) -> None:
    state = m.state
    views = all_views(m)
    for v in views:
        json.loads(v)
    for s in [None, *range(m.players)]:
        check_wire(m.view(s))
        check_common(game, m, s)
        if s is not None:
            check_wire(m.legal(s))
            size = len(json.dumps(to_wire(m.legal(s)), separators=(",", ":")).encode())
            assert size <= LEGAL_BYTES_MAX, f"seat {s}: legal list of {size} bytes"
    # Every legal action applies.
    sample = legal if len(legal) <= 24 else rng.sample(legal, 24)
    for a in sample:
        game.apply(state, seat, a)
        assert m.decode_action(json.loads(json.dumps(to_data(a)))) == a
    # Illegal actions are refused with a code, and nothing changes.
    legal_set = set(legal)
    trials = [a for a in rng.sample(pool, min(len(pool), 12)) if a not in legal_set]
    for a in trials:
        try:
            game.apply(state, seat, a)
        except IllegalAction as e:
            assert e.code and e.code.islower()
        else:
            raise AssertionError(f"illegal action accepted: {a!r}")
    others = [s for s in range(m.players) if s not in m.to_act()]
    for other in others[:2]:
        try:
            game.apply(state, other, legal[0])
        except IllegalAction as e:
            assert e.code
        else:
            raise AssertionError(f"seat {other} acted out of turn")
    assert m.state is state and all_views(m) == views
    check_view_invariance(game, state, m.players, rng)


def check_common(game: Game[Any], m: Match, seat: int | None) -> None:
    """The common part of ``seat``'s view is consistent with the match itself."""
    c = game.common(m.view(seat))
    assert isinstance(c, Common)
    assert c.seat == seat
    assert c.to_act == tuple(m.to_act())
    assert c.teams == tuple(m.teams()) and len(c.teams) == m.players
    assert len(c.scores) == max(c.teams) + 1, "one score per side"
    assert len(c.hand_counts) in (0, m.players)
    if seat is None:
        assert c.hand == ()
    assert all(isinstance(x, str) and len(x) == 2 for x in c.hand)
    if c.hand_counts and seat is not None:
        assert c.hand_counts[seat] == len(c.hand)
    assert len(c.seat_notes) in (0, m.players), "a note for every seat, or none"
    assert len(c.badges) in (0, m.players), "badges for every seat, or none"
    assert len(c.side_notes) in (0, len(c.scores)), "a note for every side, or none"
    words = (*c.captions, *([c.last] if c.last else []), *c.result, *c.side_notes,
             *(n for n in c.seat_notes if n is not None), *(b for bs in c.badges for b in bs),
             *sheet_words(c.sheet))
    check_marks(game, c)
    for cap in words:
        assert isinstance(cap, Caption) and cap.key.startswith(f"{game.info.id}."), cap
        check_caption(game.info.id, cap)
    assert c.phase and c.phase == c.phase.lower()
    json.dumps(to_data(c))


def sheet_words(sheet: Sheet | None) -> tuple[Caption, ...]:
    """A score sheet's captions, once its shape is checked: every row and the totals as long
    as the heads."""
    if sheet is None:
        return ()
    width = len(sheet.heads)
    assert width >= 2, "a sheet names its rows and at least one column"
    assert all(len(r) == width for r in sheet.rows), "every row as long as the heads"
    assert len(sheet.totals) in (0, width), "the totals as long as the heads"
    return (sheet.title, *([sheet.legend] if sheet.legend else []), *sheet.heads,
            *(x for r in sheet.rows for x in r), *sheet.totals)


def check_marks(game: Game[Any], c: Common) -> None:
    """A grid's marks name cells of the game's grid zone, and lines sides that exist."""
    if c.marks is None:
        return
    grids = [z for z in game.info.presentation.zones if z.kind == "grid"]
    assert grids, "marks on a game without a grid"
    rows, cols = grids[0].rows, grids[0].cols
    m = c.marks
    cells = (*m.locked, *m.last, *m.removed, *(x for line in m.lines for x in line.cells))
    assert all(0 <= r < rows and 0 <= k < cols for r, k in cells), cells
    assert all(0 <= line.side < len(c.scores) and len(line.cells) >= 2 for line in m.lines)


LANGUAGES = ("en", "fr", "ar")
_STRINGS = Path(__file__).resolve().parents[2] / "clients" / "strings"
_PLACEHOLDER = re.compile(r"{(\w+)}")


@functools.cache
def catalogue(game_id: str, lang: str) -> Mapping[str, str]:
    """A game's string catalogue in one language (the one every client reads)."""
    path = _STRINGS / game_id / f"{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def check_caption(game_id: str, cap: Caption) -> None:
    """A caption's key, and each argument that is itself a key, is in every language, and its
    arguments fill every placeholder (a seat argument also fills ``{name}``)."""
    names = {k for k, _ in cap.args} | ({"name"} if any(k == "seat" for k, _ in cap.args) else set())
    for lang in LANGUAGES:
        strings = catalogue(game_id, lang)
        assert cap.key in strings, f"{cap.key} is not in {game_id}/{lang}.json"
        missing = set(_PLACEHOLDER.findall(strings[cap.key])) - names
        assert not missing, f"{cap.key} ({lang}) leaves {sorted(missing)} unfilled: {cap.args}"
        for _, value in cap.args:
            if isinstance(value, str) and value.startswith(f"{game_id}."):
                assert value in strings, f"argument {value} is not in {game_id}/{lang}.json"


def _check_replay(m: Match) -> None:
    rec = json.loads(json.dumps(to_record(m)))
    result = replay(rec)
    assert result.valid, result.error
    assert result.steps == len(m.steps)
    assert all_views(result.match) == all_views(m)
