// President's part of the shedding family: the round, the revolution and the rank order, the
// exchange between rounds, places (titles) and points, the Play/Give labels and the hints,
// and who passed or is out on the seats.

import { h } from "../../dom.js";
import { cardName, list, rankFace, t } from "../../i18n.js";
import { sameSet } from "../shedding.js";

const cardsText = (cards) => list(cards.map(cardName));
const playText = (cards) => t("president.set", { count: cards.length, rank: rankFace(cards[0][0], "president") });
const orderText = (order, sep) => order.split("").map((r) => rankFace(r, "president")).join(sep);

const titleOf = (places, seat) => places.filter((x) => x.seat === seat).map((p) => t(`president.title.${p.title}`))[0] || null;

export function status(ctx) {
  const v = ctx.view;
  return h("div", { class: "pres-state" },
    h("span", null, t("president.round", { n: v.round, total: v.rounds })),
    v.reversed ? h("span", { class: "badge revolution", role: "status" }, `⟲ ${t("president.revolution")}`) : null,
    h("span", { class: "order-label", "aria-hidden": "true" }, t("president.order")),
    h("span", { class: "order", role: "img", "aria-label": t("president.order_label", { order: orderText(v.order, ", ") }),
      "data-order": orderText(v.order, " ") }, v.order.split("").map((r) => h("span", { class: "rk" }, rankFace(r, "president")))));
}

export function notes(ctx) {
  const v = ctx.view;
  const x = v.exchange;
  const parts = !x ? [] : [x.received.length && t("president.received", { cards: cardsText(x.received), name: ctx.name(x.partner) }),
    x.gave.length && t("president.gave", { cards: cardsText(x.gave), name: ctx.name(x.partner) })].filter(Boolean);
  return [parts.length ? h("p", { class: "banner" }, parts.join(" ")) : null,
    v.phase === "between" || v.phase === "over" ? h("div", { class: "banner", role: "status" },
      h("strong", null, t("president.round_over", { n: v.round })),
      h("ol", { class: "places" }, v.places.map((p) => h("li", null,
        `${ctx.name(p.seat)}: ${t(`president.title.${p.title}`)} (${t("president.points", { n: p.points })})`)))) : null];
}

export function footer(ctx) {
  return h("p", { class: "muted totals" }, `${t("president.totals")}: `,
    ctx.view.totals.map((pts, s) => `${ctx.name(s)} ${pts}`).join(" · "));
}

export function confirm(ctx, exact, candidates) {
  const giving = candidates.some((a) => a.type === "give_back");
  if (!exact) return t(giving ? "president.give" : "president.play");
  return giving ? t("president.give_cards", { set: cardsText(exact.cards) }) : t("president.play_set", { set: playText(exact.cards) });
}

export function hint(ctx, { top, selected, candidates }) {
  const v = ctx.view;
  if (candidates.some((a) => a.type === "give_back")) {
    const need = v.exchange ? v.exchange.to_give : candidates[0].cards.length;
    return t("president.hint.give", { n: need, name: v.exchange ? ctx.name(v.exchange.partner) : "" });
  }
  if (!candidates.length) return t("president.hint.must_pass");
  if (selected.length && !candidates.some((a) => sameSet(a.cards, selected))) return t("president.hint.more");
  return top ? t("president.hint.beat", { set: playText(top.cards) }) : t("president.hint.lead");
}

export const label = (ctx, a) => (a.type === "pass" ? t("president.pass") : null);

export function describeLast(ctx) {
  const v = ctx.view;
  const p = ctx.prev ? ctx.prev.view : null;
  if (!p) return "";
  if (v.trick.length > p.trick.length) {
    const last = v.trick[v.trick.length - 1];
    return t("president.last.play", { name: ctx.name(last.seat), set: cardsText(last.cards) });
  }
  const passed = v.passed.filter((s) => !p.passed.includes(s));
  if (passed.length) return t("president.last.pass", { name: ctx.name(passed[0]) });
  if (v.reversed !== p.reversed) return t(v.reversed ? "president.revolution" : "president.revolution_over");
  return !v.trick.length && p.trick.length ? t("president.last.cleared") : "";
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
  const title = titleOf(v.previous_places, seat);
  const place = v.places.find((p) => p.seat === seat);
  return [title && h("span", { class: "badge" }, title),
    place && h("span", { class: "badge done" }, t("president.finished", { title: t(`president.title.${place.title}`) })),
    v.passed.includes(seat) && h("span", { class: "badge passed" }, t("president.passed"))].filter(Boolean);
}
