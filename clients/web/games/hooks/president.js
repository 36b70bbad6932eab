// President's part of the shedding family: the round, the revolution and the rank order, the
// exchange, the Play/Give labels and the hints. Titles, passes, places, totals and the last
// play are the view's common part (engine/president/rules.py `common`).

import { h } from "../../dom.js";
import { cardName, list, rankFace, t } from "../../i18n.js";
import { sameSet } from "../shedding.js";

const cardsText = (cards) => list(cards.map(cardName));
const playText = (cards) => t("president.set", { count: cards.length, rank: rankFace(cards[0][0], "president") });
const orderText = (order, sep) => order.split("").map((r) => rankFace(r, "president")).join(sep);

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
  const x = ctx.view.exchange;
  const parts = !x ? [] : [x.received.length && t("president.received", { cards: cardsText(x.received), name: ctx.name(x.partner) }),
    x.gave.length && t("president.gave", { cards: cardsText(x.gave), name: ctx.name(x.partner) })].filter(Boolean);
  return parts.length ? h("p", { class: "banner" }, parts.join(" ")) : null;
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
