"""The patch format's pure functions: apply(diff(a, b), a) is b, exactly, and bad patches fail.

Also writes nothing the JS applier does not read the same way: tests/clients/web/test_patch_js.py
runs clients/web/patch.js on ``CASES`` (and on random ones) in Chromium.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hostd.protocol.patch import PatchError, apply, diff, same

# JSON values as msgspec decodes them: small ints, floats, strings, bools, None, and nesting.
scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2, allow_nan=False) \
    | st.sampled_from(["", "a", "JD", "AS", "b"])
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                      | st.dictionaries(st.sampled_from(["a", "b", "c", "hand", "0"]), inner,
                                        max_size=4), max_leaves=25)
docs = st.dictionaries(st.sampled_from(["view", "legal", "to_act", "seats", "deadline"]),
                       values, max_size=5)

CASES: list[tuple[Any, Any]] = [
    ({"view": {"hand": ["JD", "AS", "9H"], "trick": []}},
     {"view": {"hand": ["JD", "9H"], "trick": ["AS"]}}),
    ({"to_act": [1], "legal": [{"type": "play", "card": "JD"}]}, {"to_act": [2], "legal": []}),
    ({"seats": [{"connected": True}, {"connected": True}]},
     {"seats": [{"connected": True}, {"connected": False}]}),
    ({"view": {"board": [[0, 0], [0, 0]]}}, {"view": {"board": [[0, 1], [0, 0]]}}),
    ({"deadline": 3.5, "outcome": None}, {"deadline": None, "outcome": {"winners": [0]}}),
    ({"a": 1, "b": True}, {"a": True, "b": 1}),
    ({"a": 1.0}, {"a": 1}),
    ({"a": {"x": 1, "y": 2}}, {"a": {"y": 2}}),
    ({"a": [1, 2]}, {"a": [1, 2, 3, 4]}),
    ({"a": [1, 2, 3]}, {"a": [1]}),
    ({"a": []}, {"a": [[]]}),
    ({"a": [1, 2, 3, 4]}, {"a": [5, 6, 7, 4]}),
    ({}, {"view": {"é": "ع"}}),
]


@pytest.mark.parametrize(("a", "b"), CASES)
def test_apply_of_diff_gives_the_new_document(a: Any, b: Any) -> None:
    before = copy.deepcopy(a)
    out = apply(a, diff(a, b))
    assert same(out, b)
    assert same(a, before), "apply never changes the document it was given"


@settings(max_examples=400, deadline=None)
@given(docs, docs)
def test_apply_of_diff_round_trips_random_documents(a: dict[str, Any], b: dict[str, Any]) -> None:
    before = copy.deepcopy(a)
    ops = diff(a, b)
    assert same(apply(a, ops), b)
    assert same(a, before)
    # What goes on the wire is JSON: the decoded operations apply the same way.
    assert same(apply(json.loads(json.dumps(a)), json.loads(json.dumps(ops))), b)


@given(docs)
def test_an_unchanged_document_needs_no_operation(a: dict[str, Any]) -> None:
    assert diff(a, copy.deepcopy(a)) == []


def test_a_card_played_is_a_small_patch() -> None:
    a: dict[str, Any] = {"view": {"hand": ["JD", "AS", "9H", "TC", "KS"], "trick": ["QH"],
                                  "scores": [4, 7],
                                  "board": [[None] * 10 for _ in range(10)]}}
    b = copy.deepcopy(a)
    b["view"]["hand"].remove("AS")
    b["view"]["trick"].append("AS")
    b["view"]["board"][3][4] = 1
    ops = diff(a, b)
    assert ops == [["set", ["view", "hand"], ["JD", "9H", "TC", "KS"]],
                   ["push", ["view", "trick"], ["AS"]],
                   ["set", ["view", "board", 3, 4], 1]]
    assert len(json.dumps(ops)) < len(json.dumps(b)) / 5


@pytest.mark.parametrize("ops", [
    [["set", ["nope", "x"], 1]],
    [["set", [], 1]],
    [["del", ["missing"]]],
    [["push", ["view"], [1]]],
    [["set", ["list", 5], 1]],
    [["set", ["list", "0"], 1]],
    [["set", ["list", True], 1]],
    [["move", ["view"], 1]],
    [["del", ["view"], 1]],
    [["set", ["view"]]],
    ["set"],
    [[1, ["view"], 1]],
    [["set", "view", 1]],
])
def test_an_operation_that_does_not_fit_is_refused_and_changes_nothing(ops: list[Any]) -> None:
    doc = {"view": {"a": 1}, "list": [1, 2]}
    with pytest.raises(PatchError):
        apply(doc, ops)
    assert doc == {"view": {"a": 1}, "list": [1, 2]}
