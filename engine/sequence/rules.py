"""Sequence: the rules interface (docs/rules/sequence.md): legality, chance, views.

Each action type has one handler that checks that exact action against the position and
raises ``IllegalAction`` with a stable code, then hands the change to state.py. The legal
action list is generated separately for speed, from the same tables; the tests check the two
agree (every listed action applies, every other one is refused).

Chance steps: the generated layout (``board=random``), the first shuffle, and each reshuffle of
the discards, drawn from ``chance_rng(seed, chance_index)``; pinned outcomes are checked to be
possible ones. Views are built from an allow-list of public fields plus the seat's own hand,
never by stripping the state; the public fields are built once per state and shared by the
seats' views. This module must never do I/O, read the clock or use the global
random generator.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import product
from typing import Any

from engine import errors
from engine.codec import make_frozen
from engine.errors import IllegalAction, OptionError
from engine.game import Game, Outcome, chance_rng
from engine.presentation import Caption, Common, GridLine, Marks
from engine.sequence import board as B
from engine.sequence.data import (
    ACTION_TYPES,
    CHANCE_TYPES,
    BoardLayout,
    Discard,
    Double,
    ExchangeDead,
    HandCard,
    LastMove,
    Line,
    Place,
    Remove,
    Reshuffle,
    SequenceView,
    Shuffle,
    Wild,
)
from engine.sequence.options import INFO, Rules, resolve_teams
from engine.sequence.state import (
    CODES,
    DEAL,
    DISCARD_OF,
    EXCHANGE_OF,
    FULL_DECK,
    LAYOUT,
    ONE_EYED,
    OVER,
    PLAY,
    RC,
    REMOVE_AT,
    SORTED_DECK,
    TO_ACT,
    TWO_EYED,
    WILD_AT,
    State,
    draw,
    end_play,
    new_state,
    put_chip,
    remove_one,
    set_at,
    tables_for,
    take_chip,
)

# Game-specific illegal-action codes (stable: clients translate them).
NOT_IN_HAND = "card_not_in_hand"
WRONG_SQUARE = "wrong_square"
SQUARE_TAKEN = "square_taken"
NO_CHIP = "no_opposing_chip"
CHIP_LOCKED = "chip_locked"
NOT_DEAD = "card_not_dead"
ALREADY_EXCHANGED = "already_exchanged"
MUST_PLAY = "must_play"
VARIANT_OFF = "variant_off"

CAPTION_WILD = "sequence.card.wild"
CAPTION_REMOVE = "sequence.card.remove"
CAPTION_DEAD = "sequence.card.dead"

# -- the game ------------------------------------------------------------------------------------


class SequenceGame(Game[State]):
    info = INFO
    action_types = ACTION_TYPES
    chance_types = CHANCE_TYPES

    def check_options(self, players: int, options: Mapping[str, Any]) -> None:
        resolve_teams(players, options)
        if options.get("fill_board") and options.get("sequences_to_win") is not None:
            raise OptionError("sequences_to_win", "does not apply with fill_board "
                              "(the board is played full)", "unset")

    def teams(self, players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
        t = resolve_teams(players, options)
        return tuple(s % t for s in range(players))

    def new_state(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        return new_state(Rules.from_options(players, options), seed)

    # -- chance --------------------------------------------------------------------------------
    def chance_outcome(self, state: State) -> Any | None:
        phase = state.phase
        if phase in (PLAY, OVER):
            return None
        rng = chance_rng(state.seed, state.chances)
        if phase == LAYOUT:
            return BoardLayout(B.rows_of(B.random_layout(rng)))
        cards = [CODES[c] for c in (FULL_DECK if phase == DEAL else state.discards)]
        rng.shuffle(cards)
        return Shuffle(tuple(cards)) if phase == DEAL else Reshuffle(tuple(cards))

    def apply_chance(self, state: State, outcome: Any) -> State:
        phase = state.phase
        if phase in (PLAY, OVER):
            raise IllegalAction(errors.NO_CHANCE_PENDING, "no chance step is pending")
        if phase == LAYOUT:
            if not isinstance(outcome, BoardLayout):
                raise IllegalAction(errors.BAD_CHANCE, "the board layout comes first")
            problem = B.layout_problem(outcome.rows, twins_apart=True)
            if problem:
                raise IllegalAction(errors.BAD_CHANCE, problem)
            st = state.copy()
            st.tables = tables_for(B.layout_from_rows(outcome.rows))
            st.phase = DEAL
            st.chances += 1
            return st
        expected = Shuffle if phase == DEAL else Reshuffle
        if type(outcome) is not expected:
            raise IllegalAction(errors.BAD_CHANCE, f"a {expected.__name__.lower()} is pending")
        index = B.CARD_INDEX
        try:
            cards = tuple(index[c] for c in outcome.deck)
        except (KeyError, TypeError):
            raise IllegalAction(errors.BAD_CHANCE, "not a list of card codes") from None
        want = SORTED_DECK if phase == DEAL else tuple(sorted(state.discards))
        if tuple(sorted(cards)) != want:
            raise IllegalAction(errors.BAD_CHANCE, "the cards must be exactly the two decks"
                                if phase == DEAL else "the cards must be exactly the discards")
        st = state.copy()
        st.chances += 1
        st.phase = PLAY
        if phase == DEAL:
            h = st.rules.hand_size
            st.hands = tuple(tuple(sorted(cards[i * h:(i + 1) * h]))
                             for i in range(st.rules.players))
            st.deck = cards
            st.pos = h * st.rules.players
        else:
            st.deck = cards
            st.pos = 0
            st.discards = ()
            draw(st)
        return st

    # -- play -------------------------------------------------------------------------------------
    def to_act(self, state: State) -> tuple[int, ...]:
        return TO_ACT[state.turn] if state.phase == PLAY else ()

    def legal_actions(self, state: State, seat: int) -> tuple[Any, ...]:
        if state.phase != PLAY or seat != state.turn:
            return ()
        legal = state._legal
        if legal is None:
            legal = state._legal = _legal(state)
        return legal

    def apply(self, state: State, seat: int, action: Any) -> State:
        phase = state.phase
        if phase != PLAY:
            if phase == OVER:
                raise IllegalAction(errors.GAME_OVER, "the game is over")
            raise IllegalAction(errors.CHANCE_PENDING, "a chance step is pending")
        if seat != state.turn:
            raise IllegalAction(errors.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn")
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(errors.BAD_ACTION, f"not a Sequence action: {action!r}")
        return handler(state, seat, action)

    def view(self, state: State, seat: int | None) -> SequenceView:
        return build_view(state, seat)

    def common(self, view: SequenceView) -> Common:
        last = view.last
        return Common(
            seat=view.seat, to_act=view.to_act, hand=tuple(hc.card for hc in view.hand),
            hand_counts=view.hand_counts, teams=view.teams, scores=view.score,
            phase="play" if view.turn is not None else ("over" if view.sequences or any(
                c >= 0 for row in view.chips for c in row) else "deal"),
            captions=(Caption("sequence.draw_pile", (("n", view.draw_pile),)),)
            + ((Caption("sequence.last_discard", (("card", view.discards[-1]),)),)
               if view.discards else ()),
            last=_last(last), side_notes=_side_notes(view),
            marks=Marks(lines=tuple(GridLine(x.team, x.squares) for x in view.sequences),
                        locked=view.locked, last=last.squares if last else (),
                        removed=last.captured if last else ()))

    def outcome(self, state: State) -> Outcome | None:
        return state.result

    def resample_hidden(self, state: State, seat: int | None, rng: random.Random) -> State:
        st = state.copy()
        st.seed = rng.randrange(2**63)
        if state.phase in (LAYOUT, DEAL):
            return st
        hidden = [s for s in range(state.rules.players) if s != seat]
        pool = [c for s in hidden for c in state.hands[s]]
        pool.extend(state.deck[state.pos:])
        rng.shuffle(pool)
        hands = list(state.hands)
        k = 0
        for s in hidden:
            n = len(hands[s])
            hands[s] = tuple(sorted(pool[k:k + n]))
            k += n
        st.hands = tuple(hands)
        st.deck = tuple(pool[k:])
        st.pos = 0
        return st


# -- legal actions ----------------------------------------------------------------------------------


# Per card: 0 a board card, 1 a two-eyed jack, 2 a one-eyed jack (for the legal-move loop).
_KIND = tuple(1 if c in TWO_EYED else 2 if c in ONE_EYED else 0 for c in range(len(CODES)))


def _legal(st: State) -> tuple[Any, ...]:
    r = st.rules
    t = st.tables
    team = r.team_of[st.turn]
    occ = st.occ
    hand = st.hands[st.turn]
    first, second, options, kind = t.first, t.second, t.options, _KIND
    plays: list[Any] = []
    dead: list[int] = []
    prev = -1
    for c in hand:
        k = kind[c]
        if c == prev:
            if k == 0 and r.doubles and not occ & t.card_mask[c]:
                plays.append(t.double[c])
            continue
        prev = c
        if k == 0:
            taken = (occ >> first[c] & 1) | (occ >> second[c] & 1) << 1
            if taken == 3:
                dead.append(c)
            else:
                plays.extend(options[c][taken])
        elif k == 1:
            WILD_AT[c].pick(B.PLAYABLE_MASK & ~occ, plays)
        else:
            for u, m in enumerate(st.chips):
                if u != team:
                    REMOVE_AT[c][u].pick(m if r.fill_board else m & ~st.locked, plays)
    swaps = [EXCHANGE_OF[c] for c in dead] if dead and r.dead_card and not st.exchanged else ()
    if plays:
        return (*plays, *swaps)
    if swaps:
        return tuple(swaps)
    return tuple(DISCARD_OF[c] for c in sorted(set(hand)))


# -- action handlers: each checks its own action exactly, then builds the new state ---------------


def _card(code: object, seat_hand: tuple[int, ...]) -> int:
    c = B.CARD_INDEX.get(code) if isinstance(code, str) else None
    if c is None:
        raise IllegalAction(errors.ILLEGAL_ACTION, f"{code!r} is not a card")
    if c not in seat_hand:
        raise IllegalAction(NOT_IN_HAND, f"{code} is not in your hand")
    return c


def _square(row: object, col: object) -> int:
    if (type(row) is not int or type(col) is not int
            or not (0 <= row < B.SIZE and 0 <= col < B.SIZE)):
        raise IllegalAction(errors.ILLEGAL_ACTION, "no such square")
    return row * B.SIZE + col


def _played(st: State, seat: int, cards: tuple[int, ...]) -> State:
    new = st.copy()
    hand = st.hands[seat]
    for c in cards:
        hand = remove_one(hand, c)
    new.hands = set_at(st.hands, seat, hand)
    new.discards = st.discards + cards
    return new


def _do_place(st: State, seat: int, a: Place) -> State:
    c = _card(a.card, st.hands[seat])
    s = _square(a.row, a.col)
    if c in B.JACKS:
        raise IllegalAction(errors.ILLEGAL_ACTION, "a jack is played as wild or remove")
    if st.tables.layout[s] != c:
        raise IllegalAction(WRONG_SQUARE, f"that square is not {a.card}")
    if st.occ >> s & 1:
        raise IllegalAction(SQUARE_TAKEN, "that square is taken")
    return _chip_move(st, seat, "place", c, (s,))


def _do_wild(st: State, seat: int, a: Wild) -> State:
    c = _card(a.card, st.hands[seat])
    s = _square(a.row, a.col)
    if c not in TWO_EYED:
        raise IllegalAction(errors.ILLEGAL_ACTION, "only a two-eyed jack (JD, JC) is wild")
    if s in B.CORNERS:
        raise IllegalAction(WRONG_SQUARE, "a free corner takes no chip")
    if st.occ >> s & 1:
        raise IllegalAction(SQUARE_TAKEN, "that square is taken")
    return _chip_move(st, seat, "wild", c, (s,))


def _do_double(st: State, seat: int, a: Double) -> State:
    if not st.rules.doubles:
        raise IllegalAction(VARIANT_OFF, "doubles are not played at this table")
    c = _card(a.card, st.hands[seat])
    s1 = _square(a.row, a.col)
    s2 = _square(a.row2, a.col2)
    if c in B.JACKS:
        raise IllegalAction(errors.ILLEGAL_ACTION, "jacks are not played as doubles")
    if st.hands[seat].count(c) < 2:
        raise IllegalAction(NOT_IN_HAND, f"you need both copies of {a.card}")
    if (s1, s2) != st.tables.card_squares[c]:
        raise IllegalAction(WRONG_SQUARE, f"a double covers both {a.card} squares")
    if st.occ & st.tables.card_mask[c]:
        raise IllegalAction(SQUARE_TAKEN, "both squares must be empty")
    return _chip_move(st, seat, "double", c, (s1, s2))


def _chip_move(st: State, seat: int, kind: str, c: int, squares: tuple[int, ...]) -> State:
    new = _played(st, seat, (c,) * len(squares))
    team = st.rules.team_of[seat]
    made = 0
    captured: tuple[int, ...] = ()
    for s in squares:
        n, caps = put_chip(new, team, s)
        made += n
        captured += caps
    new.last = (seat, kind, c, squares, captured, made)
    return end_play(new, team, len(squares))


def _do_remove(st: State, seat: int, a: Remove) -> State:
    c = _card(a.card, st.hands[seat])
    s = _square(a.row, a.col)
    if c not in ONE_EYED:
        raise IllegalAction(errors.ILLEGAL_ACTION, "only a one-eyed jack (JH, JS) removes a chip")
    team = st.rules.team_of[seat]
    owner = st.team_at(s)
    if owner < 0:
        raise IllegalAction(NO_CHIP, "there is no chip there")
    if owner == team:
        raise IllegalAction(NO_CHIP, "you may not remove your own team's chip")
    if owner != a.team:
        raise IllegalAction(NO_CHIP, f"that chip is team {owner}'s")
    if st.locked >> s & 1 and not st.rules.fill_board:
        raise IllegalAction(CHIP_LOCKED, "that chip is part of a completed sequence")
    new = _played(st, seat, (c,))
    take_chip(new, owner, s)
    new.last = (seat, "remove", c, (s,), (), 0)
    return end_play(new, team, 1)


def _do_exchange(st: State, seat: int, a: ExchangeDead) -> State:
    if not st.rules.dead_card:
        raise IllegalAction(VARIANT_OFF, "dead cards are not exchanged at this table")
    c = _card(a.card, st.hands[seat])
    if c in B.JACKS or st.occ & st.tables.card_mask[c] != st.tables.card_mask[c]:
        raise IllegalAction(NOT_DEAD, f"{a.card} is not dead: one of its squares is free")
    if st.exchanged:
        raise IllegalAction(ALREADY_EXCHANGED, "one dead card per turn")
    new = _played(st, seat, (c,))
    new.exchanged = True
    new.last = (seat, "exchange_dead", c, (), (), 0)
    new.owed = 1
    new.owed_end = False
    draw(new)
    return new


def _do_discard(st: State, seat: int, a: Discard) -> State:
    c = _card(a.card, st.hands[seat])
    legal = st._legal if st._legal is not None else _legal(st)
    if DISCARD_OF[c] not in legal:
        raise IllegalAction(MUST_PLAY, "you can still play a card (or exchange a dead one)")
    new = _played(st, seat, (c,))
    new.last = (seat, "discard", c, (), (), 0)
    new.owed = 1
    new.owed_end = True
    draw(new)
    return new


_HANDLERS: dict[type, Any] = {
    Place: _do_place, Wild: _do_wild, Remove: _do_remove, Double: _do_double,
    ExchangeDead: _do_exchange, Discard: _do_discard,
}

# -- views -----------------------------------------------------------------------------------------


# Everything a view holds is built once per state (``State._public``) except the three fields
# that depend on the seat: a host renders every seat after every move, so per seat there is
# only the hand to caption and the view object to fill in.

# _HAND_CARD[c][dead]: the shared HandCard of card ``c``, captioned dead or not; a jack's two
# entries are the same (its caption never depends on the board, and its card mask is 0, which
# reads as "both squares taken").
_HAND_CARD: tuple[tuple[HandCard, HandCard], ...] = tuple(
    (HandCard(code, CAPTION_WILD),) * 2 if c in TWO_EYED
    else (HandCard(code, CAPTION_REMOVE),) * 2 if c in ONE_EYED
    else (HandCard(code, None), HandCard(code, CAPTION_DEAD))
    for c, code in enumerate(CODES))

# The chips grid, five squares at a time. Each team's chip mask, its binary digits read as hex
# digits, puts square k in nibble k; adding those up, team t's counted t + 1 times, gives a
# number whose nibble k is 1 + the team on square k, or 0 (no square holds two chips).
# _FIVE maps five such nibbles (a half row, 20 bits) to the grid's values for them.
_HALF_ROW = 5
_HALF_BITS = 4 * _HALF_ROW
_HALF_MASK = (1 << _HALF_BITS) - 1
_ROW_MASK = (1 << 4 * B.SIZE) - 1
_ROW_SHIFTS = range(0, 4 * B.SQUARES, 4 * B.SIZE)  # where each row's nibbles start
assert B.SIZE == 2 * _HALF_ROW
_FIVE: dict[int, tuple[int, ...]] = {
    sum((v + 1) << (4 * k) for k, v in enumerate(values)): values
    for values in product(range(-1, 3), repeat=_HALF_ROW)}


# The completed-sequence Line of each team and window, shared by every view.
_LINES: dict[tuple[int, int], Line] = {
    (t, w): Line(t, tuple(RC[s] for s in squares))
    for t in range(3) for w, squares in B.WINDOW_SQUARES.items()}


def _chips_grid(chips: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    nibbles = 0
    for t, m in enumerate(chips):
        if m:
            nibbles += int(f"{m:b}", 16) * (t + 1)
    five, bits, low = _FIVE, _HALF_BITS, _HALF_MASK
    rows = []
    for s in _ROW_SHIFTS:
        row = nibbles >> s & _ROW_MASK  # one shift of the long number per row, not per half
        rows.append(five[row & low] + five[row >> bits])
    return tuple(rows)


def _public(st: State) -> dict[str, Any]:
    """The fields of every view of ``st`` that are the same for each seat, in field order;
    ``seat``, ``team`` and ``hand`` are placeholders, set per seat by ``build_view``."""
    r = st.rules
    dealt = st.phase not in (LAYOUT, DEAL)
    last = None
    if st.last is not None:
        who, kind, c, squares, captured, made = st.last
        last = LastMove(who, kind, CODES[c], tuple(RC[s] for s in squares),
                        tuple(RC[s] for s in captured), made)
    playing = st.phase == PLAY
    return {
        "seat": None,
        "team": None,
        "players": r.players,
        "teams": r.team_of,
        "layout": st.tables.rows if (dealt or not r.random_board) else (),
        "chips": _chips_grid(st.chips),
        "sequences": tuple([_LINES[t, w] for t, per in enumerate(st.seqs) for w in per]),
        "locked": tuple([RC[s] for s in B.squares_of(st.locked)]),
        "hand": (),
        "hand_counts": tuple(map(len, st.hands)),
        "discards": tuple([CODES[c] for c in st.discards]),
        "draw_pile": len(st.deck) - st.pos if dealt else len(FULL_DECK),
        "score": tuple(map(len, st.seqs)),
        "captures": st.captures,
        "last": last,
        "turn": st.turn if playing else None,
        "to_act": TO_ACT[st.turn] if playing else (),
        "exchanged": st.exchanged,
        "rules": r.view,
    }


def build_view(st: State, seat: int | None) -> SequenceView:
    public = st._public
    if public is None:
        public = st._public = _public(st)
    # The public fields in the view's order, then this seat's; built without __init__
    # (make_frozen: about as long as the rest of a seat's view otherwise).
    fields = dict(public)
    fields["seat"] = seat
    r = st.rules
    if seat is not None and 0 <= seat < r.players:
        fields["team"] = r.team_of[seat]
        occ, card_mask, hand_card = st.occ, st.tables.card_mask, _HAND_CARD
        fields["hand"] = tuple([hand_card[c][occ & card_mask[c] == card_mask[c]]
                                for c in st.hands[seat]])
    return make_frozen(SequenceView, **fields)


GAME = SequenceGame()


def _side_notes(view: SequenceView) -> tuple[Caption, ...]:
    """Each team's standing (Game.common): its sequences of those needed (all it can make
    with fill_board), and its captures when the variant counts them."""
    r = view.rules
    key = "sequence.side" + ("" if r.sequences_to_win else "_fill") + (
        "_captures" if r.captures else "")
    goal = (("goal", r.sequences_to_win),) if r.sequences_to_win else ()
    return tuple(Caption(key, (("n", n), *goal, *((("taken", view.captures[t]),
                                                  ("need", r.captures_to_win))
                                                 if r.captures else ())))
                 for t, n in enumerate(view.score))


def _last(last: LastMove | None) -> Caption | None:
    """The move just made in words (Game.common): who, which card, where, any new sequence."""
    if last is None:
        return None
    row, col = last.squares[0] if last.squares else (0, 0)
    made = (("n", last.new_sequences),) if last.new_sequences else ()
    return Caption(f"sequence.said.{last.type}{'_made' if made else ''}", (
        ("seat", last.seat), ("card", last.card), ("row", row + 1), ("col", col + 1), *made))
