"""President's views and legal actions, pinned byte for byte (tests/engine/view_pins.py).

The digests were computed from the code before views were made cheaper (a per-state cache of
the public part, precomputed tables); any change to what a seat is sent changes them. If a
change to the wire is meant, recompute them and say so in the commit.
"""

from __future__ import annotations

from typing import Any

from engine.president import GAME
from tests.engine.view_pins import Pins, pinned_tests

# (players, options, digests of seeds 1 to 5)
PINS: Pins = [
    (3, {}, (
        "ec5ea1a4f8a2518ba8db1e343fc36016b33f36a540310583046f999b2379d4ec",
        "27363597bcc719e84bb61b9515a7f2893e4b8507cb96d9b2f61581b01b135243",
        "978665ebd9b2a8aaa7483506a6397901f6240fd4c047ce33f02b3b11eec92fdf",
        "2087484f77f847a73376a0a1f9c554d3ddd33b850fad61cf16a81a5befb82168",
        "b69a0754b9d6b9fb3332f43fc678652e85b672969b09b1399996f3edd603ac73",
    )),
    (4, {}, (
        "f8cfa75528774720841095d1548e92c531de4a7d2079a4a7569f7ff1dc72584b",
        "51899b58274d76794dde24a8eed2f71986dcc405ac98c01b623d7ca05294ce20",
        "301d87a343e62c4846150c7ed187cb031d98b31a1e9e99f93ad7877cc1286095",
        "fe0a915935c34c306ff7470664e7968e84df5a0c8b643cfe24834f5641025fab",
        "261055a22cd7e324eb1679be049a3dd578c65fc8bad4758842e23a5ef378a56e",
    )),
    (5, {}, (
        "3b5a977d8cb7301890c72f88b6873296b8f0d3445ef8f1af3d8e2494fef6c056",
        "d97c63604d1a81179e6448109389fa8111a55dcf0fa8b02904dd9ce22c21dd4c",
        "7bd157aeefe9032269e8cafa73aa1bbf55476aca0d59cd965d17e58978b77cf0",
        "97768723bcebdb4f55980015d249eb3f6650fb1568f1a9ba82dff0e2c1ae9744",
        "59379d6a2d91fcf20bf570dead93d3cddbb4440b76fe4e2a24011b5d780b7c15",
    )),
    (6, {}, (
        "b3ec6aa7ab6d710edfd891fa1ee96943c0f81ac817e5a542aad17e10bce297d0",
        "c23a8f6b6753d1a59126b95e713dcb34a0fd91955551503a06412308596c1631",
        "ac34f2b1db86649592cd5baa59c48adf1d7411a3f276661628236c79175a74e8",
        "55240e4fe4e16d4be25107b1a3a0a650705d2c11e491a77858f040dbab2dbd93",
        "4ecfccd0be94397961657786b6d58e1060bbef564d592f5e4b70ae40d5d042d8",
    )),
    (3, {'revolution': False}, (
        "bacd506d6189a8e0fbd3b05023c2ae3699e9c7f046ddfa889c7bf394a0af8cc3",
        "ffaf5a4700b0d361582de98cf70e602cf56d98071720c2c9aea5d0640584f6bb",
        "2d983cb9a83ac479ebec40cf663633587ff1d21c5c5da9fc37ceb6324511e932",
        "70ea0d9de3859b6c791156bba182c2be5893c616f5b90b8567084faacfd033bc",
        "4093f2e88e104732f3f57a6067d34c26ea24f16349833723152182aef4fd447e",
    )),
    (4, {'rounds': 3}, (
        "246b617c2bf009c6ce6c50b593c5e6d03e0ad62cf936fd7dd3abb8993568a0be",
        "6890dae4f92cb5f341166c0fbfcd8da75550dcb8801f23883d67e5ae7dd320ad",
        "b435d7216a38d8d22a1c6c1c3a9a55e53556358ddedd870ce1874447aa652b24",
        "1975cec2df13b30f21f58be8c6cc250721df5820b160e37d726927f818b84b22",
        "b3926a14c9b8d69c0fe9556d6a748addbb8da60cbde9426e4930ddbf93fb25d3",
    )),
    (5, {'rounds': 2, 'revolution': False}, (
        "c54eb670b0a7d5072cfb1d913b98654cb793469e9a988bd94a542064960d058b",
        "8b6f8209ffc6c1339c30fc170f27ce31e9d673362a9934eede66506486edd6b7",
        "8c21d18e8defda900e7ddba1d6f32026222fefebf463cea74e3d0f0ee914cfae",
        "9963e27c3ea8ead751607298187e7b40b00146bb3e5d20bcbdda658c042d9c74",
        "9a0f665dde8a69a6f955ba5ac796791ed0875d219e0ff91f85d71d25c15bb09a",
    )),
    (6, {'rounds': 3}, (
        "56349b51b69a3921d3c06ef6cfca108891aecb3fc19e1d56e9c38c70ee6096fb",
        "cd0647694975a0dc8edc869a3cbef6080e69a97a5b17b6b03815346e25bb1030",
        "5168550c280178d882a70a54fc0010176ec47c239302163b0bf1abce998d10bd",
        "ca8320832e21fa6bde4bccbd179efc39c7ea81980da32aaefbbdc678b789e7e7",
        "e1b4c5361c649d84b605368e6bc74ad7c92124e9144d167b92dc388bef870b21",
    )),
    (4, {'rounds': 4, 'revolution': False}, (
        "23439c02bce57091b55bccac8aed40bd3bf4f9109beb8cdcf600f83e758d583c",
        "07f343b6ddbb72a8c292cb816d9ab686eb78d6cd26830cf1fc43478210d55185",
        "986ebf6b7a76aae1e896d91995a9dda6b674af2e6e0916b4f32db5fbb0e9d6a5",
        "803d58cc118bc7b8b537aa5ec341163299f0485e9a720cf65929b41cf52754b4",
        "fa27ded8a22bba6b1375c8532f7b21e3204f20b69034b9658693e076d4fc93fc",
    )),
]

# A few of them for the checks that look at every view object, not only its bytes.
FEW: list[tuple[int, dict[str, Any]]] = [(4, {"rounds": 3}), (5, {})]


(test_views_and_legal_actions_are_byte_for_byte_as_pinned,
 test_views_do_not_depend_on_the_order_states_are_viewed_in,
 test_views_hold_what_their_dataclass_would) = pinned_tests(GAME, PINS, FEW)
