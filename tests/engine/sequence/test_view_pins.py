"""Sequence's views and legal actions, pinned byte for byte (tests/engine/view_pins.py).

The digests were computed from the code before views were made cheaper (a per-state cache of
the public part, precomputed tables); any change to what a seat is sent changes them. If a
change to the wire is meant, recompute them and say so in the commit.
"""

from __future__ import annotations

from typing import Any

from engine.sequence import GAME
from tests.engine.view_pins import Pins, pinned_tests

# (players, options, digests of seeds 1 to 5)
PINS: Pins = [
    (2, {}, (
        "7a14e0149ad4de3f762163fc4049eaa3937170a712aafd3f7f92c4f922a05b29",
        "08e127441c69a08af7d24983e75d513b357fb47a9e9a426bd1a24d0f837296b6",
        "3d013ad5f51bfc56b4bf09a8684c93c7116a593e6793f2dcf607010e10d287b4",
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
        "895cc4165868071dc28d5f9fc57231dc809118a924b1a87c31a0ac0ecc9ccedc",
        "534b67a4774a3600f76e75174c8cd2861eedfa66e6a981cc713ffeb8fa4187d2",
        "d01626593445908fa3314fa5a7992f4334854d1804919a1e0836719d199826fd",
        "d2d392a41769ec3949dbbcad05bdacf4696bad8a6ce56e32c555cdb094bce25a",
        "44effdae1e90c7c6d73eb66d7683e352771eec5be732054cafe255004a31aa49",
    )),
    (4, {'fill_board': True}, (
        "6f77183c85d13af87d21d05666997f565d6e0ded464ff718a51562cac81c4708",
        "03bb0c58622f63e9ad0241b5172968ba0f4a8fc35bf3311f7c4e9a2b90c2b5c9",
        "efc73af1e553f8cf72b3d25ce031a6347aa0949256fda6a8d1d3439e83df68d4",
        "8969866e57f55685761e58c1e99ce166fb2414b9e82ec0e9b5fc2a971e85e3a4",
        "8117f70d2c65a74d075c8115a876fb1e1275d8d85c9844404cc2aa8ef38ff0a0",
    )),
    (2, {'reshuffle': False}, (
        "048231b0b90fa3126f471afac2169870389a22752479ce27ea49b9e8f2514663",
        "cfe1b05886c9fc05f2aba1e304cf5a9e251de62f639dfb165d7561ddc72dc21d",
        "b5e329368ed6893562646ee2249fe23a80210452a75d92cc627cbdb0b2b57319",
        "e28f6f49ba04e8f3b0e2902164cd57e84dcd5aa310db463911ed6d7d31b170f2",
        "ad8967931137f2bd6e3a484317eccbd85e25f202285c18e9b5db1e5f850d8db8",
    )),
    (4, {'doubles': True}, (
        "d95d14f6afd2ac38d4755207981c02af95a2220c7e7e8e7c30673e1ca7f13f81",
        "406378aa955db63e89d58cb69c508d17bc692a7e80279c139fb93add8b36e5a7",
        "c634569dd53d3200e6c0effc9af5a8ba2b4ec65a34cf28ee5c57a688796bf378",
        "158103bbb1fc4105d8ca308c2b467e9132340a16b09ce0c84f01dda66d145582",
        "4b002fdf37c603742f084f2eb465b9161203dd91b8d3ce682d1a10fe1e8011a6",
    )),
    (2, {'captures': True}, (
        "5397fc297e0bad072c27c1b6a411d65c4ad5d081a208f94aaf3b0d463e39d903",
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
        "abf7109ebc740856719d536115bc4b512e5de6909d694d6a845cdd711e18d297",
        "6a4b1ccababda7b2ed4c03f1fa571f91579627f19d43d5e4bb627cdd3c0f6f2e",
        "371e23f1cba2c4ee18a471e4879e15e1c8f5052af124ab4916d3b71f09b42b73",
        "ad9433b1988d993fa21bd4bac0ee3c39037df47b669c111b84f7193a888ad667",
        "001df9c27dc5ff43f13536798364df9beada6fb17888faab4b25196b6c96ba1f",
    )),
    (8, {'fill_board': True, 'captures': True, 'dead_card': False}, (
        "cd21fb5cb5d70c2435070667c524faff3b178822274e03a52bee2ee9bab67479",
        "22080eb07458b1390415bdc1f6afec05b0c4a3d428c104404bd0d8f084215eb4",
        "5e862790ada20e5669829c54f22ff63694dbcab462b16f71aa6a9ade812db973",
        "f1abac1b5a8f7670972f8ccd624166b8bd8f5ba6fe8d1000b0d4fa0b09217029",
        "d432f39a0d68adf6ae37e72f4213ae9e3a58bce33589d755745cca6c36e928f2",
    )),
    (2, {'sequences_to_win': 1}, (
        "d64fa3202bb586b3c6158799e3e82e8daf8bff6860c3e8479641396176316dfe",
        "d950347ce13954544ae2d6f83feccc48089b8d1e41e7e30ca58b82556db47331",
        "32e0544816e8eadff4029f559943186e51e025ba1f1c794430cac22d9ad1c2eb",
        "e18001a79fdcff5147c63f30bd9dc1be37a7a1eb8bb77e28123d67ab3f8fce7a",
        "402ef42fc7fe1d8fb92f8f5b9052fb131050d975faa332b241bd7bb104465a7e",
    )),
    (4, {'fill_board': True, 'reshuffle': False, 'doubles': True, 'board': 'random'}, (
        "944fe0db9a1b2432eccae5025bc3134c71f1a7ede1457723beb2242fe112a6d8",
        "5402de2a92f2febaf4e25702b70d5ad5d05ecdcdcf49bb4ac50d7872a472dc7f",
        "75267a12c77ebb18eb712204531c15a002b1a757bab5aad5b71b8a42d5f68783",
        "ef21759991e007fbcdfa567cd9984de83fb7d7c9fd7b36eff5b609d78d58ea4c",
        "cd9ed45826b5f06dda477ff7d8c78f892d3dc0efbeffb7c76f2688963743c1da",
    )),
]

# A few of them for the checks that look at every view object, not only its bytes.
FEW: list[tuple[int, dict[str, Any]]] = [(4, {}), (3, {"board": "random", "fill_board": True})]


(test_views_and_legal_actions_are_byte_for_byte_as_pinned,
 test_views_do_not_depend_on_the_order_states_are_viewed_in,
 test_views_hold_what_their_dataclass_would) = pinned_tests(GAME, PINS, FEW)
