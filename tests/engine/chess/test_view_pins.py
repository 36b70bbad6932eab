"""Chess's views and legal actions, pinned byte for byte (tests/engine/view_pins.py).

Computed from the first registered version of the game: a change that makes views cheaper
must not change a byte. If a change to the wire is meant, recompute them and say so in the
commit.
"""

from __future__ import annotations

from typing import Any

from engine.chess import GAME
from tests.engine.view_pins import Pins, pinned_tests

PINS: Pins = [
    (2, {}, (
        "8f9ef446a7378935e6b59ff32b1c1a2864a5e4c062d1633a206af658418ea077",
        "eed1916ee48591f837028e987d5fc2912224e3988b2c508465cd7d94c32f47e2",
        "9c5fea08b68247a52bea74dcc91cef5ea9f2a242537597d5514d6476563f83e5",
        "d29001bf5a56d6a0c8a8f019ad93cc40b4d446a66e651680507ae2f7c988c9ca",
        "a24c1f15fa4ed39cfe82ce4c78cee666ad6fb4b974e594a3c63e2858cf7763c1",
    )),
    (2, {"chess960": True}, (
        "036fb6ade30c0574498a23b0873a8da5a6a4a3a4765b3ab643f70c91b6a0d473",
        "deb92afa3bdf79f933f598944e5dc47afb661d070536151c6d703f294bce8a07",
        "d9ad0a10a7476a398ec308541d3a7127a4cec4dd56d761b46c5af2efee1b461a",
        "84295175a8f14359d554349b8c39df49903fc7ee5551949b35413354aab300e6",
        "abd63bdd2c2daaaf470f49a6b8ae6b2472b27d964d0cc517e0f022f35492345d",
    )),
    (2, {"draw_rules": "auto_claim", "clock": "3+2"}, (
        "0d30232799ac1c100dff4dd11a9ab6760511d3bd09d5f88dadb4bd66935b06b1",
        "9acfd650b34cc9879f2eff36b3352d9962c24c44953b169b94279794caf634a5",
        "039367da8c5ca3e0f99ea3580ec4323449cbdafc9d6c626875a1b35333f01cfe",
        "a7eb1728d4a0f6fca81b6f3475fb3f91ac79e7f62eced99ade27a311ae98f355",
        "088428d584094dea090b1606a466844a5b52493ef453327617a85953f3a7830e",
    )),
]

FEW: list[tuple[int, dict[str, Any]]] = [(2, {"chess960": True})]

(test_views_and_legal_actions_are_byte_for_byte_as_pinned,
 test_views_do_not_depend_on_the_order_states_are_viewed_in,
 test_views_hold_what_their_dataclass_would) = pinned_tests(GAME, PINS, FEW)
