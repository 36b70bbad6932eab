// Wizard's part of the trick_taking family: the turned card and trump in the middle, the round,
// bids as numbers, Wizards and Jesters named aloud. The dealer, each seat's bid and tricks (a
// hidden bid only as "has bid") and the score sheet (drawn by the Scores panel, log.js) are
// the view's common part (engine/wizard/views.py).

import { card } from "../../cards.js";
import { h } from "../../dom.js";
import { SUIT_SYMBOL, cardName, suitName, t } from "../../i18n.js";

const LIVE = ["trump", "bidding", "play"];
const suit = (s) => `${SUIT_SYMBOL[s]} ${suitName(s)}`;

export const cardLabel = (ctx, c) => ({ W: t("wizard.card.wizard"), N: t("wizard.card.jester") })[c[0]] || cardName(c);

export function middle(ctx) {
  const { view: v } = ctx;
  return LIVE.includes(v.phase) && v.turned ? h("div", { class: "turned" },
    card(v.turned, { game: "wizard", small: true, label: `${t("wizard.field.turned")}: ${cardLabel(ctx, v.turned)}` }),
    h("span", { class: `suit-${v.trump} trump` }, v.trump ? suit(v.trump) : t(v.phase === "trump" ? "wizard.phase.trump" : "wizard.no_trump"))) : null;
}

export const info = ({ view: v }) => [[t("wizard.field.round"), `${v.round} / ${v.rounds}`]];

export const label = (ctx, a) => (a.type === "bid" ? String(a.tricks) : a.type === "choose_trump" ? suit(a.suit) : null);

export const hint = (ctx, cards, others) => t(cards.length ? "hand.hint.tap" : others.some((a) => a.type === "choose_trump") ? "wizard.hint.trump" : "wizard.hint.bid", { n: ctx.view.round });
