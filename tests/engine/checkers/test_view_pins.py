"""Checkers' views and legal actions, pinned byte for byte (tests/engine/view_pins.py).

Computed from the first version of the game: a change that makes views cheaper must not
change a byte. If a change to the wire is meant, recompute them and say so in the commit.
"""

from __future__ import annotations

from typing import Any

from engine.checkers import GAME
from tests.engine.view_pins import Pins, pinned_tests

PINS: Pins = [
    (2, {}, (
        "e8a665713f54ead3b8a2e46026c2ca71fde0f7c5a6d49884b5f7dc7835ed839e",
        "96d03a3276f3aa201e0da6e207bbbcdd8cc5d96d9c0f2fdc50d4942ee86cf835",
        "89d23acf214c2cf01b7efb5eb7d85e2c2962a96aadd0397936386e196c3b7233",
        "36ce2a0fd40297e37fcb5469307f93ac105da14a3f2e0ee16a9f494245c9482f",
        "8d5a1c5f6895b2cc3ef58d4f9d6853ae91ffb76d0063df87baad377a9b602670",
    )),
    (2, {"ballot": True}, (
        "ffe69fec393cd1ee1d1f63188c25608d969f9cc17166e2814d32b23e1a44a8e3",
        "a66f749d60a7ac7ade538b43f2be95765f5a3f1dd78ac81deb82281c98e11f23",
        "03708579e77100d1a0d7ac08e50f326cba1e4b26e422f1135779b5b6142da573",
        "03ee5c9c2e01c5919edd48afdf9ea8fa0eeed732c6e6a352327793c834405736",
        "2df526242f553ee28b4b82b88328b7bbcbc8e106f9b70b73ae476c6ad59470c7",
    )),
    (2, {"draw_rules": "claim", "ballot": True}, (
        "77e66597ab6344789bcd0cdebac6051af64ee77e11324e95fff8ebedb7e16578",
        "9d5e234ee7db80b0c6da5e3122cd2df089b621b7ec5be2debc0d1b220bf7928e",
        "c561ca59dc0f02db494d0eb477f2a277a242a0fc2097179dd8e438561c77afab",
        "a7cd2072079cd4214996700b525820d77fe13689ff264e4266279cbc32931804",
        "a3473a14468869e755b3444832fbe354be526d358355e9f8e638a13b26ece3e9",
    )),
]

FEW: list[tuple[int, dict[str, Any]]] = [(2, {"ballot": True})]

(test_views_and_legal_actions_are_byte_for_byte_as_pinned,
 test_views_do_not_depend_on_the_order_states_are_viewed_in,
 test_views_hold_what_their_dataclass_would) = pinned_tests(GAME, PINS, FEW)
