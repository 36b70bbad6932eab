"""The page's patch applier (clients/web/patch.js) in Chromium, on the Python side's cases.

For each case the diff is made by hostd/protocol/patch.py (what the box sends) and applied by
the page's module as served by the box: it must give the same document as Python's ``apply``,
leave its input untouched, and refuse what Python refuses.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings

from hostd.protocol.patch import apply, diff
from tests.clients.web.harness import Box
from tests.hostd.protocol.test_patch import CASES, docs

BAD = [
    [["set", ["nope", "x"], 1]], [["del", ["missing"]]], [["push", ["view"], [1]]],
    [["set", ["list", 5], 1]], [["set", ["list", "0"], 1]], [["move", ["view"], 1]],
    [["del", ["view"], 1]], [["set", []]], ["set"],
]

RUN = """async (cases) => {
  const { applyPatch, PatchError } = await import("/patch.js");
  return cases.map(([doc, ops]) => {
    const before = JSON.stringify(doc);
    try {
      const out = applyPatch(doc, ops);
      return { ok: true, out, untouched: JSON.stringify(doc) === before };
    } catch (e) {
      return { ok: false, patchError: e instanceof PatchError,
               untouched: JSON.stringify(doc) === before };
    }
  });
}"""


def as_js(value: Any) -> Any:
    """``value`` as a JS engine holds it: whole floats are plain numbers there."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, list):
        return [as_js(x) for x in value]
    if isinstance(value, dict):
        return {k: as_js(v) for k, v in value.items()}
    return value


def run(page: Any, cases: list[tuple[Any, Any]]) -> list[dict[str, Any]]:
    # Through JSON text both ways: the page sees exactly what a frame would carry.
    result: list[dict[str, Any]] = page.evaluate(RUN, json.loads(json.dumps(cases)))
    return result


def test_the_page_applies_every_case_like_the_box_diffs_it(box: Box, phone: Any) -> None:
    page = phone.new_page()
    page.goto(box.url + "/")
    rng = random.Random(20)
    cases = list(CASES)
    # Random documents from the same strategy as the Python round trip.
    examples: list[tuple[Any, Any]] = []

    @settings(max_examples=150, database=None, suppress_health_check=list(HealthCheck),
              deadline=None)
    @given(docs, docs)
    def collect(a: Any, b: Any) -> None:
        examples.append((a, b))

    collect()
    cases += examples
    rng.shuffle(cases)
    results = run(page, [(a, diff(a, b)) for a, b in cases])
    for (a, b), r in zip(cases, results, strict=True):
        assert r["ok"] and r["untouched"], (a, b, r)
        # JSON equality as the page holds it (JS has one number type: 1.0 is 1 there).
        assert as_js(r["out"]) == as_js(apply(a, diff(a, b))) == as_js(b), (a, b)


def test_the_page_refuses_what_the_box_would_refuse(box: Box, phone: Any) -> None:
    page = phone.new_page()
    page.goto(box.url + "/")
    doc = {"view": {"a": 1}, "list": [1, 2]}
    results = run(page, [(doc, ops) for ops in BAD])
    for ops, r in zip(BAD, results, strict=True):
        assert not r["ok"] and r["patchError"] and r["untouched"], ops


FOLLOW = """async () => {
  const { Follower } = await import("/patch.js");
  const f = new Follower();
  const out = [];
  f.state({ type: "state", table: "7", version: 3, view: { a: 1 }, presentation: { x: 1 } });
  out.push(f.patch({ type: "patch", table: "7", re: 4, base: 3, version: 5,
                     ops: [["set", ["view", "a"], 2]] }));
  out.push(f.patch({ type: "patch", table: "7", re: null, base: 6, version: 7, ops: [] }));
  out.push(f.patch({ type: "patch", table: "7", re: null, base: 7, version: 8, ops: [] }));
  f.state({ type: "state", table: "7", version: 8, view: { a: 3 } });
  out.push(f.patch({ type: "patch", table: "7", re: null, base: 8, version: 9,
                     ops: [["del", ["view", "a"]]] }));
  out.push(f.patch({ type: "patch", table: "7", re: null, base: 9, version: 10,
                     ops: [["del", ["view", "a"]]] }));
  return out;
}"""


def test_the_page_follows_patches_and_asks_for_a_sync_once_when_one_does_not_follow(
        box: Box, phone: Any) -> None:
    page = phone.new_page()
    page.goto(box.url + "/")
    applied, lost, ignored, again, misfit = page.evaluate(FOLLOW)
    assert applied == {"sync": False, "state": {"type": "state", "table": "7", "version": 5,
                                                "re": 4, "view": {"a": 2},
                                                "presentation": None}}
    assert lost == {"sync": True, "state": None}, "a base it does not hold: sync"
    assert ignored == {"sync": False, "state": None}, "then patches wait for the full state"
    assert again["state"]["view"] == {} and again["state"]["version"] == 9
    assert misfit == {"sync": True, "state": None}, "a patch that does not apply: sync"
