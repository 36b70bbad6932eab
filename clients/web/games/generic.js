// The generic fallback: any game the page has no renderer for is shown readably and played
// through its legal actions, so a newly registered game is playable from a phone with no
// client code. The view's fields are listed by name (seat-indexed lists get the seats' names,
// card codes are drawn as cards), the own hand is a row of cards, and every legal action is
// one button (a card that exactly one legal action plays is also tappable in the hand).
//
// Labels come from the game's strings when it has them (`<game>.action.<type>`,
// `<game>.field.<name>`) and are otherwise the readable form of the names the host sent.
// Like every renderer it never decides what is legal: it sends an action exactly as received.

import { card } from "../cards.js";
import { h } from "../dom.js";
import { SUIT_SYMBOL, list, suitName, t } from "../i18n.js";
import { CARD, actionRow, actionsFor, describe, hint, label, scalar, waitingHint } from "./common.js";

// Fields the shell already shows (the seat strip, the status line) or that only the page uses.
const SHOWN_ELSEWHERE = new Set(["type", "seat", "to_act", "hand", "hand_counts"]);
const MAX_ITEMS = 60; // a longer list is summarised by its length: the page stays readable

function value(ctx, v, depth = 0) {
  if (Array.isArray(v)) {
    if (!v.length) return h("span", { class: "muted" }, "–");
    if (v.length > MAX_ITEMS) return t("generic.items", { n: v.length });
    if (v.every((x) => typeof x === "string" && CARD.test(x))) {
      return h("span", { class: "cards-row" }, v.map((c) => card(c, { game: ctx.game, small: true })));
    }
    if (v.every((x) => x === null || typeof x !== "object")) return list(v.map((x) => scalar(ctx, x)));
    // One entry per seat: name each row after its seat.
    const perSeat = v.length === ctx.seats.length;
    return h("ol", { class: "generic-list" }, v.map((x, i) =>
      h("li", null, perSeat ? h("span", { class: "muted" }, `${ctx.name(i)}: `) : null, value(ctx, x, depth + 1))));
  }
  if (v && typeof v === "object") {
    if (depth > 4) return "…";
    return h("dl", { class: "generic-fields" }, Object.entries(v).filter(([k]) => k !== "type").map(([k, x]) => [
      h("dt", null, label(ctx, "field", k)), h("dd", null, value(ctx, x, depth + 1))]));
  }
  return scalar(ctx, v);
}

// A caption in words; a seat argument also names the seat ({name}), as the table shows it, and
// a suit reads as its symbol and name.
export function capText(ctx, cap) {
  const a = Object.fromEntries(cap.args.map(([k, x]) => [k, k === "suit" && SUIT_SYMBOL[x] ? `${SUIT_SYMBOL[x]} ${suitName(x)}` : scalar(ctx, x)]));
  const s = cap.args.find(([k, x]) => k === "seat" && typeof x === "number");
  if (s && a.name == null) a.name = ctx.name(s[1]);
  return t(cap.key, a);
}

// The common part every game sends (engine/presentation.py): its captions (unless `captions` is
// false), and the score of each side named by its seats.
export function commonPart(ctx, captions = true) {
  const c = ctx.state.common;
  if (!c) return null;
  const lines = (captions ? c.captions || [] : []).map((cap) => h("p", { class: "caption-line" }, capText(ctx, cap)));
  const sides = c.scores.map((score, side) => {
    const seats = c.teams.map((team, seat) => (team === side ? ctx.name(seat) : null)).filter((x) => x !== null);
    return h("li", { class: c.seat != null && c.teams[c.seat] === side ? "mine" : "" },
      h("span", null, list(seats)), " ", h("strong", null, String(score)));
  });
  return h("div", { class: "common" }, lines,
    h("ol", { class: "side-scores", "aria-label": t("results.score") }, sides));
}

// What the common part says of a seat (badges, its note), between hands (the result) and of
// the last action, for any family; nothing when the host sends none (an older box).
const said = (ctx, name) => (ctx.state.common && ctx.state.common[name]) || [];
export function badgesOf(ctx, seat) {
  return (said(ctx, "badges")[seat] || []).map((cap) => h("span", { class: ["badge", cap.key.split(".").pop()] }, capText(ctx, cap)));
}
export function noteOf(ctx, seat) {
  const note = said(ctx, "seat_notes")[seat];
  return note ? capText(ctx, note) : null;
}
export function result(ctx) {
  const [head, ...lines] = said(ctx, "result");
  return head ? h("div", { class: "banner", role: "status" }, h("strong", null, capText(ctx, head)),
    lines.map((cap) => h("span", null, ` ${capText(ctx, cap)}`))) : null;
}
export function describeLast(ctx) {
  const last = ctx.state.common && ctx.state.common.last;
  return last ? capText(ctx, last) : "";
}

export function render(ctx) {
  const v = ctx.view || {};
  const fields = Object.entries(v).filter(([k]) => !SHOWN_ELSEWHERE.has(k));
  const acts = ctx.myTurn ? ctx.legal : [];
  const hand = Array.isArray(v.hand) && ctx.seat != null ? h("div", { class: "hand", role: "group", "aria-label": t("table.your_hand") },
    v.hand.map((c) => {
      const mine = typeof c === "string" && CARD.test(c) ? actionsFor(acts, c) : [];
      if (typeof c !== "string" || !CARD.test(c)) return h("span", { class: "token" }, scalar(ctx, c));
      return card(c, {
        game: ctx.game, key: `hand-${c}`, disabled: ctx.busy || mine.length !== 1,
        onclick: mine.length === 1 ? () => ctx.act(mine[0]) : undefined, button: true,
      });
    })) : null;
  return h("div", { class: "generic" },
    commonPart(ctx),
    h("dl", { class: "generic-fields" }, fields.map(([k, x]) => [
      h("dt", null, label(ctx, "field", k)), h("dd", null, value(ctx, x))])),
    h("div", { class: "hand-panel" },
      hint(ctx.myTurn ? t("generic.choose") : waitingHint(ctx)),
      hand,
      actionRow(ctx, acts, (a) => describe(ctx, a), { prefix: "generic-" })));
}
