// Euchre's part of the trick_taking family: bids on the seats, the turned card, trump, tricks and
// score by side ("us", "them"), each hand's result, the bidding's labels and hints.

import { back, card } from "../../cards.js";
import { h } from "../../dom.js";
import { SUIT_SYMBOL, cardName, suitName, t } from "../../i18n.js";

const BIDDING = ["round_one", "round_two", "discard", "defend_alone"];
export const quiet = ["pass", "defend_with_partner"];

const suit = (s) => `${SUIT_SYMBOL[s]} ${suitName(s)}`;

function sideName(ctx, side) {
  const mine = ctx.view.side;
  if (mine == null) return t("euchre.side", { names: ctx.state.common.teams.map((x, s) => (x === side ? ctx.name(s) : null)).filter(Boolean).join(" & ") });
  return t(side === mine ? "euchre.us" : "euchre.them");
}

function bidText(ctx, b) {
  const key = b.call === "order_up" && b.seat === ctx.view.dealer ? "pick_up" : b.call;
  return t(`euchre.bid.${key}${b.alone ? "_alone" : ""}`, { name: ctx.name(b.seat), suit: b.suit ? suit(b.suit) : "" });
}

// The trick just won stays on the table until the next card is played.
export const heldTrick = (ctx) => (ctx.view.tricks.length && ctx.view.phase === "play" ? ctx.view.tricks.at(-1) : null);

export function badges(ctx, s) {
  const v = ctx.view;
  return [s === v.dealer && "euchre.dealer", s === v.maker && (v.alone ? "euchre.maker_alone" : "euchre.maker"),
    s === v.lone_defender && "euchre.lone_defender", v.sitting_out.includes(s) && "euchre.sitting_out"]
    .filter(Boolean).map((k) => h("span", { class: ["badge", k === "euchre.dealer" && "dealer", k.includes("maker") && "maker"] }, t(k)));
}

export function seatNote(ctx, s) {
  const bid = [...ctx.view.bids].reverse().find((b) => b.seat === s);
  return bid && BIDDING.includes(ctx.view.phase) ? bidText(ctx, bid) : null;
}

// The turned card while bidding (the family says who won the trick otherwise).
export function middle(ctx) {
  const v = ctx.view;
  return v.turned && BIDDING.slice(0, 3).includes(v.phase) ? h("div", { class: "turned" },
    v.turned_status === "turned_down" ? back({ small: true, label: t("euchre.turned_down_card", { card: cardName(v.turned) }) })
      : card(v.turned, { game: "euchre", small: true }),
    h("span", { class: "muted" }, t(`euchre.turned.${v.turned_status}`))) : null;
}

// Trump, then tricks and score by side, ours first.
export function info(ctx) {
  const v = ctx.view;
  const line = (xs) => (v.side === 1 ? [1, 0] : [0, 1]).map((side) => `${sideName(ctx, side)} ${xs[side]}`).join(" · ");
  return [[t("euchre.trump"), v.trump ? h("span", { class: `suit-${v.trump} trump` }, suit(v.trump)) : t("euchre.no_trump_yet")],
    [t("euchre.tricks"), line(v.tricks_won)], [t("euchre.score", { target: v.target }), line(v.score)]];
}

export function banner(ctx) {
  const v = ctx.view, r = v.last_hand;
  if (!r || !(v.phase === "deal" || (v.phase === "round_one" && !v.bids.length))) return null;
  const side = r.maker != null ? ctx.state.common.teams[r.maker] : null;
  return h("div", { class: "banner", role: "status" },
    h("strong", null, t(r.result, { name: r.maker != null ? ctx.name(r.maker) : "" })),
    side != null ? h("span", null, ` ${t("euchre.result.line", {
      maker: ctx.name(r.maker), suit: r.trump ? SUIT_SYMBOL[r.trump] : "", tricks: r.tricks[side],
      points: Math.max(...r.points), side: sideName(ctx, r.points[0] >= r.points[1] ? 0 : 1),
    })}`) : null);
}

export function label(ctx, a) {
  if (a.type === "order_up") return t(`euchre.${ctx.seat === ctx.view.dealer ? "pick_up" : "order_up"}${a.alone ? "_alone" : ""}`);
  if (a.type === "name_trump") return suit(a.suit);
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

export function describeLast(ctx) {
  const v = ctx.view;
  const p = ctx.prev ? ctx.prev.view : null;
  const play = (x) => t("euchre.last.play", { name: ctx.name(x.seat), card: cardName(x.card) });
  if (!p || p.hand_number !== v.hand_number) {
    return v.last_hand && (!p || JSON.stringify(p.last_hand) !== JSON.stringify(v.last_hand)) ? t(v.last_hand.result) : "";
  }
  if (v.trick.length > p.trick.length) return play(v.trick.at(-1));
  const tr = v.tricks.length > p.tricks.length ? v.tricks.at(-1) : null;
  if (tr) return `${play(tr.plays.at(-1))} ${t("euchre.won_trick", { name: ctx.name(tr.winner) })}`;
  return v.bids.length > p.bids.length ? bidText(ctx, v.bids.at(-1)) : "";
}
