"""The bytes the host embeds in ``state`` frames are exactly the engine codec's data as JSON
(byte for byte, key order too), on every view, legal action and outcome of seeded random
games of every game."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from engine import registry
from engine.codec import to_data
from engine.errors import CodecError
from engine.match import Match
from hostd.protocol.wire import Memo, encode_data
from tests.hostd.helpers import GAMES


@pytest.mark.parametrize("game", GAMES)
def test_bytes_are_the_engine_codec_data(game: str) -> None:
    g = registry.get(game)
    for seed in range(3):
        m = Match.start(g, None, None, seed)
        rng = random.Random(seed)
        for step in range(400):
            if m.outcome() is not None:
                break
            memo: Memo = {}  # as the host renders: one memo for every seat of a state
            for seat in [None, *range(m.players)]:
                view = m.view(seat)
                assert encode_data(view) == _codec(view) == encode_data(view, memo)
                if seat is not None and step % 5 == 0:
                    legal = m.legal(seat)
                    assert encode_data(legal) == _codec(legal)
            seat = m.to_act()[0]
            m.act(seat, rng.choice(m.legal(seat)))
            m.resolve_chance()
        outcome = m.outcome()
        assert encode_data(outcome) == _codec(outcome)


def _codec(x: Any) -> bytes:
    return msgspec.json.encode(to_data(x))


def test_scalars_mappings_and_refusals() -> None:
    assert to_data({"a": (1, True, None, 2.5)}) == {"a": [1, True, None, 2.5]}
    assert encode_data(("AS", 3)) == b'["AS",3]'
    with pytest.raises(CodecError):
        encode_data(object())
