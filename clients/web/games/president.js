// President: choose cards of one rank and play them, or pass; the pile, the revolution, the
// exchange between rounds, places (titles) and points.
//
// A multi-card selection is built by filtering the legal list: a card can be added while some
// legal action holds every selected card and it; the Play (or Give) button is enabled when a
// legal action's cards are exactly the selection, and it sends that action.

import { card } from "../cards.js";
import { button, h } from "../dom.js";
import { cardName, list, rankFace, t } from "../i18n.js";
import { hint, waitingHint } from "./common.js";

function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

function cardsText(cards) {
  return list(cards.map(cardName));
}

function playText(cards) {
  return t("president.set", { count: cards.length, rank: rankFace(cards[0][0], "president") });
}

function titleOf(places, seat) {
  const p = places.find((x) => x.seat === seat);
  return p ? t(`president.title.${p.title}`) : null;
}

export function render(ctx) {
  const v = ctx.view;
  const candidates = ctx.myTurn ? ctx.legal.filter((a) => Array.isArray(a.cards)) : [];
  const selected = (ctx.ui.sel || []).filter((c) => v.hand.includes(c));
  const compatible = candidates.filter((a) => selected.every((c) => a.cards.includes(c)));
  const usable = new Set(compatible.flatMap((a) => a.cards));
  const exact = compatible.find((a) => sameSet(a.cards, selected));
  const pass = ctx.myTurn ? ctx.legal.find((a) => a.type === "pass") : null;
  ctx.ui.sel = selected;

  // The pile: every play of this trick, the one to beat last and largest.
  const trick = v.trick;
  const top = trick.length ? trick[trick.length - 1] : null;
  const prevLen = ctx.prev ? ctx.prev.view.trick.length : 0;
  const pile = h("div", { class: "pile", role: "group", "aria-label": t("president.pile") },
    trick.length ? trick.map((p, i) => h("div", { class: ["play", i === trick.length - 1 && "top"] },
      h("span", { class: "who" }, ctx.name(p.seat)),
      h("span", { class: "cards" }, p.cards.map((c) => card(c, {
        game: "president", small: i !== trick.length - 1, fresh: i === trick.length - 1 && trick.length > prevLen,
      })))))
      : h("p", { class: "muted" }, t("president.pile_empty")));

  const state = h("div", { class: "pres-state" },
    h("span", null, t("president.round", { n: v.round, total: v.rounds })),
    v.reversed ? h("span", { class: "badge revolution", role: "status" }, `⟲ ${t("president.revolution")}`) : null,
    h("span", { class: "order-label", "aria-hidden": "true" }, t("president.order")),
    h("span", { class: "order", role: "img", "aria-label": t("president.order_label", { order: orderText(v.order, ", ") }),
      "data-order": orderText(v.order, " ") },
    v.order.split("").map((r) => h("span", { class: "rk" }, rankFace(r, "president")))));

  const hand = ctx.seat == null ? null : h("div", { class: "hand fan-hand", role: "group", "aria-label": t("table.your_hand") },
    v.hand.map((c) => {
      const on = selected.includes(c);
      const can = on || usable.has(c);
      return card(c, {
        game: "president", key: `hand-${c}`, button: true, pressable: true, selected: on,
        disabled: ctx.busy || !ctx.myTurn || !can, dim: ctx.myTurn && !can,
        onclick: () => {
          ctx.ui.sel = on ? selected.filter((x) => x !== c) : [...selected, c];
          ctx.rerender();
        },
      });
    }));

  const giving = candidates.some((a) => a.type === "give_back");
  const buttons = [];
  if (candidates.length) {
    buttons.push(button(exact ? t(giving ? "president.give_cards" : "president.play_set", { set: giving ? cardsText(exact.cards) : playText(exact.cards) })
      : t(giving ? "president.give" : "president.play"), () => { ctx.ui.sel = []; ctx.act(exact); }, {
      class: "primary", disabled: ctx.busy || !exact, "data-key": "play",
    }));
  }
  if (pass) buttons.push(button(t("president.pass"), () => { ctx.ui.sel = []; ctx.act(pass); }, { disabled: ctx.busy, "data-key": "pass" }));
  if (selected.length) buttons.push(button(t("president.clear"), () => { ctx.ui.sel = []; ctx.rerender(); }, { class: "quiet", "data-key": "clear" }));

  return h("div", { class: "president" },
    state,
    pile,
    exchangeNote(ctx),
    v.phase === "between" || v.phase === "over" ? roundResult(ctx) : null,
    h("div", { class: "hand-panel" },
      buttons.length ? h("div", { class: "actions", role: "group", "aria-label": t("table.actions") }, buttons) : null,
      hand,
      hint(hintText(ctx, top, selected, candidates, giving))),
    totals(ctx));
}

function orderText(order, sep) {
  return order.split("").map((r) => rankFace(r, "president")).join(sep);
}

function exchangeNote(ctx) {
  const x = ctx.view.exchange;
  if (!x) return null;
  const parts = [];
  if (x.received.length) parts.push(t("president.received", { cards: cardsText(x.received), name: ctx.name(x.partner) }));
  if (x.gave.length) parts.push(t("president.gave", { cards: cardsText(x.gave), name: ctx.name(x.partner) }));
  if (!parts.length) return null;
  return h("p", { class: "banner" }, parts.join(" "));
}

function roundResult(ctx) {
  const v = ctx.view;
  return h("div", { class: "banner", role: "status" },
    h("strong", null, t("president.round_over", { n: v.round })),
    h("ol", { class: "places" }, v.places.map((p) => h("li", null,
      `${ctx.name(p.seat)}: ${t(`president.title.${p.title}`)} (${t("president.points", { n: p.points })})`))));
}

function totals(ctx) {
  const v = ctx.view;
  return h("p", { class: "muted totals" }, `${t("president.totals")}: `,
    v.totals.map((pts, s) => `${ctx.name(s)} ${pts}`).join(" · "));
}

function hintText(ctx, top, selected, candidates, giving) {
  const v = ctx.view;
  if (ctx.seat == null) return t("table.spectating");
  if (!ctx.myTurn) return waitingHint(ctx);
  if (giving) {
    const need = v.exchange ? v.exchange.to_give : candidates[0].cards.length;
    return t("president.hint.give", { n: need, name: v.exchange ? ctx.name(v.exchange.partner) : "" });
  }
  if (!candidates.length) return t("president.hint.must_pass");
  if (selected.length && !candidates.some((a) => sameSet(a.cards, selected))) return t("president.hint.more");
  if (!top) return t("president.hint.lead");
  return t("president.hint.beat", { set: playText(top.cards) });
}

export function describeLast(ctx) {
  const v = ctx.view;
  const p = ctx.prev ? ctx.prev.view : null;
  if (!p) return "";
  if (v.trick.length > p.trick.length) {
    const last = v.trick[v.trick.length - 1];
    return t("president.last.play", { name: ctx.name(last.seat), set: cardsText(last.cards) });
  }
  const newlyPassed = v.passed.filter((s) => !p.passed.includes(s));
  if (newlyPassed.length) return t("president.last.pass", { name: ctx.name(newlyPassed[0]) });
  if (v.reversed !== p.reversed) return t(v.reversed ? "president.revolution" : "president.revolution_over");
  if (!v.trick.length && p.trick.length) return t("president.last.cleared");
  return "";
}

export function scoreTable(ctx) {
  const v = ctx.view;
  const order = v.totals.map((pts, s) => [pts, s]).sort((a, b) => b[0] - a[0]);
  return h("table", { class: "scores" },
    h("thead", null, h("tr", null, h("th", { scope: "col" }, t("results.player")),
      h("th", { scope: "col" }, t("president.last_title")), h("th", { scope: "col" }, t("results.score")))),
    h("tbody", null, order.map(([pts, s]) => h("tr", { class: ctx.state.outcome.winners.includes(s) ? "won" : "" },
      h("th", { scope: "row" }, ctx.name(s)), h("td", null, titleOf(v.places, s) || "–"), h("td", null, String(pts))))));
}

// Titles from the last round, who is out this round, and who passed in this trick.
export function seatBadges(seat, ctx) {
  const v = ctx.view;
  const out = [];
  const title = titleOf(v.previous_places, seat);
  if (title) out.push(h("span", { class: "badge" }, title));
  const place = v.places.find((p) => p.seat === seat);
  if (place) out.push(h("span", { class: "badge done" }, t("president.finished", { title: t(`president.title.${place.title}`) })));
  if (v.passed.includes(seat)) out.push(h("span", { class: "badge passed" }, t("president.passed")));
  return out;
}
