// Kaiser's part of the trick_taking family: each call on its seat while bidding, the contract
// and trump, the points each side took this hand, the score (ours ◆ first), bids as numbers
// with a no-trump switch.

import { SUIT_SYMBOL, suitName, t } from "../../i18n.js";

export const variants = { bid_no_trump: ["bid", "no_trump"] };
const nt = (n) => t("kaiser.bid_nt", { value: n });
const sides = (v, xs) => `◆ ${xs[v.side ?? 0]} · ◇ ${xs[1 - (v.side ?? 0)]}`;

export const heldTrick = (ctx) => (ctx.view.phase === "play" && ctx.view.tricks.at(-1)) || null;

export function seatNote(ctx, s) {
  const b = ["bidding", "trump"].includes(ctx.view.phase) && ctx.view.bids.find((x) => x.seat === s);
  return b ? (b.value == null ? t("kaiser.action.pass") : b.no_trump ? nt(b.value) : String(b.value)) : null;
}

export function info(ctx) {
  const v = ctx.view;
  return [v.bid != null && [t("kaiser.field.bid"), `${ctx.name(v.bidder)}: ${v.no_trump ? nt(v.bid) : v.bid} · ${
    v.no_trump ? t("kaiser.no_trump") : v.trump ? SUIT_SYMBOL[v.trump] + " " + suitName(v.trump) : t("kaiser.trump.unnamed")}`],
  v.phase === "play" && [t("kaiser.field.taken"), sides(v, v.taken)],
  [t("kaiser.score_to", { target: v.target }), sides(v, v.score)]].filter(Boolean);
}

export const label = (ctx, a) => (a.type === "bid" ? String(a.value) : a.type === "bid_no_trump" ? nt(a.value)
  : a.type === "name_trump" ? `${SUIT_SYMBOL[a.suit]} ${suitName(a.suit)}` : null);

export function hint(ctx, cardActs, others) {
  const has = (x) => others.some((a) => a.type === x);
  return t(cardActs.length ? "hand.hint.tap" : has("name_trump") ? "kaiser.hint.trump" : has("pass") ? "kaiser.hint.bid" : "kaiser.hint.dealer");
}
