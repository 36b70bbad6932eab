// Euchre's part of the trick_taking family: the turned card, the bidding's labels and hints.
// Bids on the seats, badges, trump, tricks and score by side, each hand's result and the last
// move in words are the view's common part (engine/euchre/rules.py `common`).

import { back, card } from "../../cards.js";
import { h } from "../../dom.js";
import { SUIT_SYMBOL, cardName, suitName, t } from "../../i18n.js";

const BIDDING = ["round_one", "round_two", "discard"];
export const quiet = ["pass", "defend_with_partner"];

// The trick just won stays on the table until the next card is played.
export const heldTrick = (ctx) => (ctx.view.tricks.length && ctx.view.phase === "play" ? ctx.view.tricks.at(-1) : null);

// The turned card while bidding (the family says who won the trick otherwise).
export function middle(ctx) {
  const v = ctx.view;
  return v.turned && BIDDING.includes(v.phase) ? h("div", { class: "turned" },
    v.turned_status === "turned_down" ? back({ small: true, label: t("euchre.turned_down_card", { card: cardName(v.turned) }) })
      : card(v.turned, { game: "euchre", small: true }),
    h("span", { class: "muted" }, t(`euchre.turned.${v.turned_status}`))) : null;
}

export function label(ctx, a) {
  if (a.type === "order_up") return t(`euchre.${ctx.seat === ctx.view.dealer ? "pick_up" : "order_up"}${a.alone ? "_alone" : ""}`);
  if (a.type === "name_trump") return `${SUIT_SYMBOL[a.suit]} ${suitName(a.suit)}`;
  return t(`euchre.${a.type}`);
}

export function hint(ctx, cardActs, others) {
  const v = ctx.view;
  const has = (type) => others.some((a) => a.type === type);
  const key = cardActs.some((a) => a.type === "discard") ? "discard"
    : cardActs.length ? (!v.trick.length ? "lead" : cardActs.length < v.hand.length ? "follow" : "play")
      : has("defend_alone") ? "defend"
        : has("order_up") ? (ctx.seat === v.dealer ? "round_one_dealer" : "round_one")
          : has("name_trump") ? (has("pass") ? "round_two" : "stuck") : "other";
  return t(`euchre.hint.${key}`);
}
