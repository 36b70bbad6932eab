// Wizard's part of the trick_taking family: the turned card and trump in the middle, the round,
// the score sheet folded (bid/taken, points, total per seat; latest round first), bids as
// numbers, Wizards and Jesters named aloud. The dealer and each seat's bid and tricks (a
// hidden bid only as "has bid") are the view's common part (engine/wizard/views.py).

import { card } from "../../cards.js";
import { h } from "../../dom.js";
import { SUIT_SYMBOL, cardName, suitName, t } from "../../i18n.js";

const LIVE = ["trump", "bidding", "play"];
const suit = (s) => `${SUIT_SYMBOL[s]} ${suitName(s)}`;
let open = false; // redrawn on every state: the sheet stays as the player left it

export const cardLabel = (ctx, c) => ({ W: t("wizard.card.wizard"), N: t("wizard.card.jester") })[c[0]] || cardName(c);

export function middle(ctx) {
  const { view: v } = ctx;
  return LIVE.includes(v.phase) && v.turned ? h("div", { class: "turned" },
    card(v.turned, { game: "wizard", small: true, label: `${t("wizard.field.turned")}: ${cardLabel(ctx, v.turned)}` }),
    h("span", { class: `suit-${v.trump} trump` }, v.trump ? suit(v.trump) : t(v.phase === "trump" ? "wizard.phase.trump" : "wizard.no_trump"))) : null;
}

export const info = ({ view: v }) => [[t("wizard.field.round"), `${v.round} / ${v.rounds}`]];

export function sheet(ctx) {
  const v = ctx.view;
  const seats = ctx.state.seats.map((s) => s.seat);
  return v.sheet.length ? h("details", { class: "sheet", open, ontoggle: (e) => { open = e.target.open; } },
    h("summary", null, t("wizard.sheet_summary", { n: v.sheet.length })),
    h("div", null, h("table", null, h("caption", null, t("wizard.sheet_legend")),
      h("tr", null, h("th", null, "#"), seats.map((s) => h("th", { scope: "col" }, ctx.name(s)))),
      [...v.sheet].reverse().map((r) => h("tr", null, h("th", { scope: "row" }, String(r.round)),
        seats.map((s) => h("td", null, `${r.bids[s]}/${r.taken[s]} ${r.points[s] > 0 ? "+" : ""}${r.points[s]} `,
          h("strong", null, String(r.totals[s]))))))))) : null;
}

export const label = (ctx, a) => (a.type === "bid" ? String(a.tricks) : a.type === "choose_trump" ? suit(a.suit) : null);

export const hint = (ctx, cards, others) => t(cards.length ? "hand.hint.tap" : others.some((a) => a.type === "choose_trump") ? "wizard.hint.trump" : "wizard.hint.bid", { n: ctx.view.round });
