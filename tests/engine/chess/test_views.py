"""Chess views: what each seat and the spectator are shown, byte for byte, and the string
catalogues that name it.

Chess has no hidden cards, but the state holds one secret, the seed, which draws a Chess960
position: no view may carry it or depend on it (not before the set-up, not after). Both
seats and the spectator see the same game; only ``seat`` and ``plays`` differ.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import chess

from engine.chess import GAME, rules
from engine.chess.state import MoveTo, OfferDraw, Pick
from engine.codec import to_data
from engine.match import Match
from tests.engine.chess.scenario import enter, from_fen

ROOT = Path(__file__).resolve().parents[3]
SEED = 918_273_645_546_372_819


def encoded(m: Match, seat: int | None) -> bytes:
    return json.dumps(to_data(m.view(seat)), sort_keys=True).encode()


def test_the_board_is_eight_ranks_eight_first_with_algebraic_squares() -> None:
    m = from_fen(chess.STARTING_FEN)
    v = m.view(0)
    assert v.board == ("rnbqkbnr", "pppppppp", "........", "........", "........",
                       "........", "PPPPPPPP", "RNBQKBNR")
    assert v.plays == "white" and m.view(1).plays == "black" and m.view(None).plays is None
    assert v.turn == 0 and v.phase == "play" and v.fen == chess.STARTING_FEN
    zone = GAME.info.presentation.zones[0]
    assert (zone.field, zone.rows, zone.cols, zone.labels) == ("board", 8, 8, "algebraic")


def test_the_move_being_entered_and_the_last_move_are_shown() -> None:
    m = from_fen(chess.STARTING_FEN)
    m.act(0, Pick("g1"))
    v = m.view(None)
    assert v.picked == "g1" and v.targets == ("f3", "h3")
    m.act(0, MoveTo("f3"))
    v = m.view(1)
    assert v.picked == "" and v.targets == ()
    assert v.last is not None and (v.last.san, v.last.uci, v.last.squares) == (
        "Nf3", "g1f3", ("g1", "f3"))
    c = GAME.common(v)
    assert c.last is not None and c.last.key == "chess.last_move"
    assert dict(c.last.args) == {"seat": 0, "move": "Nf3"}


def test_check_names_the_kings_square_and_is_a_caption() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, "e2e4", "f7f6", "d1h5")
    v = m.view(1)
    assert v.check == "e8"
    assert [cap.key for cap in GAME.common(v).captions] == ["chess.check"]
    enter(m, "g7g6")
    assert m.view(0).check == ""


def test_every_seat_sees_the_same_game_and_never_the_seed() -> None:
    m = Match.start(GAME, 2, {"chess960": True, "clock": "3+2"}, SEED)
    enter(m, "e2e4" if m.state.board.piece_at(chess.E2) else "a2a3")
    m.act(1, OfferDraw())
    views = {s: encoded(m, s) for s in (None, 0, 1)}
    for blob in views.values():
        assert str(SEED).encode() not in blob and b"seed" not in blob
    strip = {s: {k: v for k, v in json.loads(b).items() if k not in ("seat", "plays")}
             for s, b in views.items()}
    assert strip[None] == strip[0] == strip[1]
    # Another seed, the same game: not a byte changes for anyone.
    other = GAME.resample_hidden(m.state, 0, random.Random(1))
    assert other.seed != m.state.seed
    for s in (None, 0, 1):
        assert json.dumps(to_data(GAME.view(other, s)), sort_keys=True).encode() == views[s]


def test_before_the_set_up_no_view_tells_the_chess960_position() -> None:
    """The position is drawn from the seed: until the chance step is applied, every seat
    sees an empty board, whatever the seed would draw."""
    drawn = set()
    seen = set()
    for seed in range(6):
        m = Match.start(GAME, 2, {"chess960": True}, seed, resolve=False)
        drawn.add(GAME.chance_outcome(m.state))
        seen.add(tuple(encoded(m, s) for s in (None, 0, 1)))
        assert m.view(0).phase == "setup" and m.view(0).board == ("........",) * 8
    assert len(drawn) > 1 and len(seen) == 1


def test_draw_counters_claims_and_offers_are_in_the_view() -> None:
    m = from_fen(chess.STARTING_FEN)
    enter(m, "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1")
    v = m.view(1)
    assert v.claims == ("threefold",) and v.halfmoves == 7 and v.repetitions == 2
    keys = [cap.key for cap in GAME.common(v).captions]
    assert keys == ["chess.claim_open"]
    m.act(1, OfferDraw())
    enter(m, "f6g8")
    v = m.view(0)
    assert v.offer == 1 and v.repetitions == 3
    assert "chess.draw_offered" in [cap.key for cap in GAME.common(v).captions]


def test_a_promotion_awaiting_its_piece_is_shown_to_everyone() -> None:
    m = from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    m.act(0, Pick("a7"))
    m.act(0, MoveTo("a8"))
    for s in (None, 0, 1):
        assert m.view(s).promoting == "a8" and m.view(s).picked == "a7"
    assert "chess.choose_promotion" in [c.key for c in GAME.common(m.view(0)).captions]


# -- the string catalogues ---------------------------------------------------------------------
def catalogue(lang: str) -> dict[str, str]:
    path = ROOT / "clients" / "strings" / "chess" / f"{lang}.json"
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def engine_keys() -> set[str]:
    keys: set[str] = set()
    for path in (ROOT / "engine" / "chess").glob("*.py"):
        keys |= set(re.findall(r'"(chess\.[a-z_.0-9]+[a-z0-9])"', path.read_text("utf-8")))
    return keys


def test_every_key_the_engine_sends_is_in_every_language() -> None:
    keys = engine_keys() | {"chess.reason.threefold", "chess.reason.fifty_moves", "chess.name"}
    assert {"chess.checkmate", "chess.last_move", "chess.claimed_threefold"} <= keys
    source = (ROOT / "engine" / "chess" / "rules.py").read_text("utf-8")
    names = set(re.findall(r"IllegalAction\(\s*([A-Z][A-Z_]+)\b", source))
    codes = {getattr(rules, n) for n in names}
    assert {"promote_first", "bad_target"} <= codes
    for lang in ("en", "fr", "ar"):
        cat = catalogue(lang)
        assert sorted(keys - set(cat)) == []
        # Each refusal code is translated here or in the shell's catalogue.
        shell = json.loads((ROOT / "clients" / "web" / "i18n" / f"{lang}.json").read_text(
            encoding="utf-8"))
        assert sorted(c for c in codes
                      if f"error.{c}" not in cat and f"error.{c}" not in shell) == []
        assert not set(cat) & set(shell)


def test_languages_have_the_same_keys_and_placeholders() -> None:
    en = catalogue("en")
    for lang in ("fr", "ar"):
        other = catalogue(lang)
        assert set(other) == set(en)
        for key, text in other.items():
            assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", en[key]))
    # Every action type has a label.
    types = {re.sub(r"(?<!^)(?=[A-Z])", "_", t.__name__).lower() for t in GAME.action_types}
    assert sorted(t for t in types - {"clock", "flag"} if f"chess.action.{t}" not in en) == []
