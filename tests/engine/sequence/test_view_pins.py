"""Sequence's views and legal actions, pinned byte for byte (tests/engine/view_pins.py).

The digests were computed from the code before views were made cheaper (a per-state cache of
the public part, precomputed tables); any change to what a seat is sent changes them. If a
change to the wire is meant, recompute them and say so in the commit.

Recomputed for rules 1.1 (issue 19: long lines count at their best, and every chip of a run of
five or more is protected): 27 of the 65 games changed, each first at the move where a run of
six or seven locked its chips beyond the five shown as its sequence (so a one-eyed jack had
fewer targets and the random game went another way). In none of them did a score at that
point, or any game's outcome, change.
"""

from __future__ import annotations

from typing import Any

from engine.sequence import GAME
from tests.engine.view_pins import Pins, pinned_tests

# (players, options, digests of seeds 1 to 5)
PINS: Pins = [
    (2, {}, (
        "e8e70136069287e7317bc445787b5c472fabd87ceb99b6bcf5bcfeb536094b31",
        "08e127441c69a08af7d24983e75d513b357fb47a9e9a426bd1a24d0f837296b6",
        "9fa24fd135ff4d8e2f50a1dcb6fb5e0e90d2f91a793fe05983300c7aa7d8c329",
        "3370cad36b8344cb3928196b08399f2e933713f96dd8f39b0599b12ab426bce0",
        "6270167c0ff71d7f2b52c7cc904df746bc8c58b28ad29267ee8049a99bc5a775",
    )),
    (3, {}, (
        "5dcf203a5c9f8e47747fb09f9b6182e9385b6d3322383ee0e27b66efa0034149",
        "a8aa621fa862af1f67d7443f49b73978b462a53c7c37a56b35e1c9999c2dbf57",
        "58339f7c7be41bdb1ddeaebbf8230d51b50e0a24db9a8449b38f2c7a231ff630",
        "ca11f31efb788290a0aad7339051537c35c042540bcd789265475109e0a99d1a",
        "5be7c1bdef03b55c83dd7023754d83e7041a6eac286cd0753f4f13d8b3ea4db3",
    )),
    (4, {'board': 'random'}, (
        "b13ba1757525c23d63e35aaf02a83301204f1668c3390a25f6fb59e913284865",
        "8f197359db4d9108f6dfd25ba576e7b1129eb461ab03aa9be293d049f1776db3",
        "d01626593445908fa3314fa5a7992f4334854d1804919a1e0836719d199826fd",
        "d2d392a41769ec3949dbbcad05bdacf4696bad8a6ce56e32c555cdb094bce25a",
        "969fb4d05f7f6161d8b08ed52bebb653110faabdc235f305ed5d9bf2c90d1834",
    )),
    (4, {'fill_board': True}, (
        "46f17576f056ca21a899caf62c07a4ca7156b96c3ba868398292baf93c4bb83e",
        "5aba94e62d06e3cc983120fb4015b17f4ec16186f1dcb29487871cefb9244f31",
        "dc94c4cc82d855fdda610bf314e09e304d8676e81fa51a4329b8d3f9b2718a05",
        "b6901aa5cfe7f30363c145da6aa7a36f491237d4a3f6d33c03ff52a8258613fd",
        "cad8b00b6bfb38b080085937f29521f0fe8124746abd3ecb70c4ff94febfa910",
    )),
    (2, {'reshuffle': False}, (
        "9eca6d8567b9815acbee1241850af6476b4b016a49eba52b5235633b4c406d37",
        "cfe1b05886c9fc05f2aba1e304cf5a9e251de62f639dfb165d7561ddc72dc21d",
        "93551bba392bdd50d7fbb4e620ddf629d1309a8aa3264add319d55ce51357229",
        "e28f6f49ba04e8f3b0e2902164cd57e84dcd5aa310db463911ed6d7d31b170f2",
        "ad8967931137f2bd6e3a484317eccbd85e25f202285c18e9b5db1e5f850d8db8",
    )),
    (4, {'doubles': True}, (
        "46b98c835f46947134d314f3c7f54f03b5271594576c6e08adb9aae614a59522",
        "406378aa955db63e89d58cb69c508d17bc692a7e80279c139fb93add8b36e5a7",
        "c634569dd53d3200e6c0effc9af5a8ba2b4ec65a34cf28ee5c57a688796bf378",
        "3ea4a80df06bcda85091d3a3956412c4e3ff79b9e66541e1b0de668f70dfe2a2",
        "e39f0305efabd52263e1274a2de1977c20b67dd4b67c3ab9cc5f5f0f7d7d3a8c",
    )),
    (2, {'captures': True}, (
        "bb4ddc8e2b53c49161ad24015203946cabc9084aa3c8941572132650efc348f0",
        "809c0b191a5d3f807e531bf252567c63ad0ed55731be36d2f3a1ae173410a85a",
        "c378b9d2ced60957e45abf1d0f91a19d8111712c0b7ae73f99684c6b4833764f",
        "9bc97dffd5c5e2f1e095dfedf547e54e2e0578185a17234717163c1689ff2ed2",
        "74f493dd4143c8c49448c5cacfd12a235cbd055230ab8298f4df3eff9111d45b",
    )),
    (3, {'dead_card': False}, (
        "d5b11626dc80527b2bf982749dda59288428ec4e64eba9f33d390b67afb2ac98",
        "e65648eaae4edf93d30eca237e44ce74c0c044ab1c77185c40d51315bf73923e",
        "592a9b7f4efb31d1e694bd79670b3b665aaf14c73810803de4a7d3aaf51eee04",
        "850186fba26c4cec3f0ce9e7c5e7824f92b47ea336e107ea1962affca7cd037e",
        "d4870885fa605e914ffbe69aa75067e80601c9769f288aeb50571d3ee5c88a45",
    )),
    (6, {'teams': 3, 'captures': True, 'doubles': True}, (
        "9c658ce013c19f03189116383f8ce399fbbd86f9ede9d601fa03a38370c4edd7",
        "f3ae83952c2da0a34cb68ecca5710896cda401ddf1295d06dc27484b1f42cfec",
        "fe98cda9e6d2b74df937c9c1fa40400f6ecfc9bcd7c681f9f3836c66c9843a69",
        "bb2d54a6bba3de0af9b4bec4468e8c23d847b32c6c55f549f99bda8e4f53a4f1",
        "a8a68eaabd9fcd5d5c664d5993050f542874a0a90daee3adb93852b4145a9ef7",
    )),
    (12, {'teams': 2, 'board': 'random', 'reshuffle': False}, (
        "5be1be60274945f8fce85d2a5494c7fd593b976373b3b9e7010bed05c8979b12",
        "6a4b1ccababda7b2ed4c03f1fa571f91579627f19d43d5e4bb627cdd3c0f6f2e",
        "7cbe775a0bfbbec176abf2e5d1976574209f7d6ae6871e00308c887cb0d65b2f",
        "b0ac4554da722f7b7e6874ab934095eab8c77613c9c671fcd865ea0561f64a80",
        "93df7159b1ccd93ec8bd5e36e9c640ed59f8823d1dc8f95245f78e5b3bf7d401",
    )),
    (8, {'fill_board': True, 'captures': True, 'dead_card': False}, (
        "cd21fb5cb5d70c2435070667c524faff3b178822274e03a52bee2ee9bab67479",
        "22080eb07458b1390415bdc1f6afec05b0c4a3d428c104404bd0d8f084215eb4",
        "7c54af8dae3d15d027be627ea1501bf2f9cd895b5669b48389f911cbf0560bc6",
        "16fb7752b5057cf6f78c82183d2a80b1b9db9eaefca49c48d4d2895833691fd0",
        "6a673486761b597de64e00536af342d1be84020d44835e7e1167dc2a875e145c",
    )),
    (2, {'sequences_to_win': 1}, (
        "d64fa3202bb586b3c6158799e3e82e8daf8bff6860c3e8479641396176316dfe",
        "d950347ce13954544ae2d6f83feccc48089b8d1e41e7e30ca58b82556db47331",
        "32e0544816e8eadff4029f559943186e51e025ba1f1c794430cac22d9ad1c2eb",
        "e18001a79fdcff5147c63f30bd9dc1be37a7a1eb8bb77e28123d67ab3f8fce7a",
        "402ef42fc7fe1d8fb92f8f5b9052fb131050d975faa332b241bd7bb104465a7e",
    )),
    (4, {'fill_board': True, 'reshuffle': False, 'doubles': True, 'board': 'random'}, (
        "fbd097c566df094dde0b5893077a661833192af5a3c30b5ed3dddc04f787ebaa",
        "0bc91d08ad13821f6dcadd626b36d4e2acfe8f965ede72a0b9c0db1b9c96381b",
        "75bb09d209988e40505c2f6418e7ae643f7585e025bf4cc7afede3102f133187",
        "ef21759991e007fbcdfa567cd9984de83fb7d7c9fd7b36eff5b609d78d58ea4c",
        "fb38f811ce094e58d5879f7f876e79c97cad2ba4e3bc0de7f6179362cfa7adef",
    )),
]

# A few of them for the checks that look at every view object, not only its bytes.
FEW: list[tuple[int, dict[str, Any]]] = [(4, {}), (3, {"board": "random", "fill_board": True})]


(test_views_and_legal_actions_are_byte_for_byte_as_pinned,
 test_views_do_not_depend_on_the_order_states_are_viewed_in,
 test_views_hold_what_their_dataclass_would) = pinned_tests(GAME, PINS, FEW)
