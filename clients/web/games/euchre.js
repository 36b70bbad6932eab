// Euchre: bidding (order up, name a suit, alone), the turned card, the trick in front of each
// seat, bowers captioned once trump is named, tricks and score by side, each hand's result.
//
// Buttons are the legal non-card actions; a card in hand is tappable exactly when a legal
// `play` or `discard` names it. The "alone" switch only picks between legal variants.

import { back, card, hiddenHand } from "../cards.js";
import { button, h } from "../dom.js";
import { SUIT_SYMBOL, cardName, suitName, t } from "../i18n.js";
import { actionsFor, around, hint, waitingHint } from "./common.js";

const POSITIONS = ["south", "west", "north", "east"];

function sideOf(seat) {
  return seat % 2;
}

// Our side first.
function sides(ctx) {
  return ctx.view.side === 1 ? [1, 0] : [0, 1];
}

function sideName(ctx, side) {
  const mine = ctx.view.side;
  if (mine == null) return t("euchre.side", { names: [side, side + 2].map(ctx.name).join(" & ") });
  return t(side === mine ? "euchre.us" : "euchre.them");
}

function bidText(ctx, b) {
  const args = { name: ctx.name(b.seat), suit: b.suit ? `${SUIT_SYMBOL[b.suit]} ${suitName(b.suit)}` : "" };
  const key = b.call === "order_up" && b.seat === ctx.view.dealer ? "pick_up" : b.call;
  return t(`euchre.bid.${key}${b.alone ? "_alone" : ""}`, args);
}

function actionLabel(ctx, a) {
  const v = ctx.view;
  switch (a.type) {
    case "pass": return t("euchre.pass");
    case "order_up": return t(ctx.seat === v.dealer ? (a.alone ? "euchre.pick_up_alone" : "euchre.pick_up") : (a.alone ? "euchre.order_up_alone" : "euchre.order_up"));
    case "name_trump": return `${SUIT_SYMBOL[a.suit]} ${suitName(a.suit)}`;
    case "defend_alone": return t("euchre.defend_alone");
    case "defend_with_partner": return t("euchre.defend_with_partner");
    default: return t(`euchre.action.${a.type}`);
  }
}

export function render(ctx) {
  const v = ctx.view;
  const seats = around(4, ctx.seat);
  const trickBy = new Map(v.trick.map((p) => [p.seat, p.card]));
  // Between tricks, keep the trick just won on the table until the next card is played.
  const lastTrick = !v.trick.length && v.tricks.length && v.phase === "play" ? v.tricks[v.tricks.length - 1] : null;
  const shown = lastTrick ? new Map(lastTrick.plays.map((p) => [p.seat, p.card])) : trickBy;
  const prevTrick = ctx.prev ? ctx.prev.view.trick.length : 0;
  const lastBid = new Map();
  for (const b of v.bids) lastBid.set(b.seat, b);

  const spots = seats.map((s, i) => {
    const pos = POSITIONS[i];
    const played = shown.get(s);
    const out = v.sitting_out.includes(s);
    const labels = [];
    if (s === v.dealer) labels.push(h("span", { class: "badge dealer" }, t("euchre.dealer")));
    if (s === v.maker) labels.push(h("span", { class: "badge maker" }, v.alone ? t("euchre.maker_alone") : t("euchre.maker")));
    if (s === v.lone_defender) labels.push(h("span", { class: "badge" }, t("euchre.lone_defender")));
    if (out) labels.push(h("span", { class: "badge" }, t("euchre.sitting_out")));
    const bid = lastBid.get(s);
    return h("div", { class: ["spot", pos, v.to_act.includes(s) && "acting"], "data-seat": String(s) },
      h("div", { class: "who" }, ctx.name(s), labels),
      s !== ctx.seat ? hiddenHand(v.hand_counts[s], t("table.cards", { n: v.hand_counts[s] })) : null,
      bid && (v.phase === "round_one" || v.phase === "round_two" || v.phase === "discard" || v.phase === "defend_alone")
        ? h("div", { class: "bid" }, bidText(ctx, bid)) : null,
      played ? card(played, { game: "euchre", small: true, dim: !!lastTrick,
        fresh: !lastTrick && trickBy.size > prevTrick && v.trick[v.trick.length - 1].seat === s,
        label: `${ctx.name(s)}: ${cardName(played)}` }) : null);
  });

  let middle = null;
  if (v.turned && (v.phase === "round_one" || v.phase === "round_two" || v.phase === "discard")) {
    middle = h("div", { class: "turned" },
      v.turned_status === "turned_down" ? back({ small: true, label: t("euchre.turned_down_card", { card: cardName(v.turned) }) })
        : card(v.turned, { game: "euchre", small: true }),
      h("span", { class: "muted" }, t(`euchre.turned.${v.turned_status}`)));
  } else if (lastTrick) {
    middle = h("div", { class: "trick-note" }, t("euchre.won_trick", { name: ctx.name(lastTrick.winner) }));
  }
  const compass = h("div", { class: "compass", dir: "ltr" }, spots, h("div", { class: "middle" }, middle));

  const info = h("dl", { class: "info" },
    h("dt", null, t("euchre.trump")),
    h("dd", null, v.trump ? h("span", { class: `suit-${v.trump} trump` }, `${SUIT_SYMBOL[v.trump]} ${suitName(v.trump)}`) : t("euchre.no_trump_yet")),
    h("dt", null, t("euchre.tricks")),
    h("dd", null, sides(ctx).map((side) => `${sideName(ctx, side)} ${v.tricks_won[side]}`).join(" · ")),
    h("dt", null, t("euchre.score", { target: v.target })),
    h("dd", null, sides(ctx).map((side) => `${sideName(ctx, side)} ${v.score[side]}`).join(" · ")));

  const banner = v.last_hand && (v.phase === "deal" || (v.phase === "round_one" && !v.bids.length))
    ? handResult(ctx, v.last_hand) : null;

  return h("div", { class: "euchre" }, compass, info, banner, handPanel(ctx));
}

function handResult(ctx, r) {
  const makerSide = r.maker != null ? sideOf(r.maker) : null;
  return h("div", { class: "banner", role: "status" },
    h("strong", null, t(r.result, { name: r.maker != null ? ctx.name(r.maker) : "" })),
    makerSide != null ? h("span", null, ` ${t("euchre.result.line", {
      maker: ctx.name(r.maker), suit: r.trump ? `${SUIT_SYMBOL[r.trump]}` : "",
      tricks: r.tricks[makerSide], points: Math.max(...r.points),
      side: sideName(ctx, r.points[0] >= r.points[1] ? 0 : 1),
    })}`) : null);
}

function handPanel(ctx) {
  const v = ctx.view;
  if (ctx.seat == null) return hint(t("table.spectating"));
  const cardActs = ctx.myTurn ? ctx.legal.filter((a) => a.card) : [];
  const others = ctx.myTurn ? ctx.legal.filter((a) => !a.card) : [];
  const hand = h("div", { class: "hand", role: "group", "aria-label": t("table.your_hand") },
    v.hand.map((hc) => {
      const acts = actionsFor(cardActs, hc.card);
      return card(hc.card, {
        game: "euchre", caption: hc.caption ? t(hc.caption) : null, key: `hand-${hc.card}`,
        button: true, disabled: !acts.length || ctx.busy, dim: ctx.myTurn && cardActs.length > 0 && !acts.length,
        onclick: acts.length ? () => ctx.act(acts[0]) : null,
      });
    }));

  // Alone is a switch over the legal variants: it never offers what the list does not hold.
  const hasAlone = others.some((a) => a.alone === true);
  const hasPartner = others.some((a) => a.alone === false);
  const alone = hasAlone && (ctx.ui.alone || !hasPartner);
  const named = others.filter((a) => a.type === "name_trump" && a.alone === alone);
  const orders = others.filter((a) => a.type === "order_up" && a.alone === alone);
  const rest = others.filter((a) => a.type !== "name_trump" && a.type !== "order_up");
  const buttons = [...orders, ...named, ...rest].map((a) => button(actionLabel(ctx, a), () => ctx.act(a), {
    class: a.type === "pass" || a.type === "defend_with_partner" ? "" : "primary", disabled: ctx.busy,
    "data-key": `act-${JSON.stringify(a)}`,
  }));
  const toggle = hasAlone && hasPartner ? h("label", { class: "check" },
    h("input", { type: "checkbox", checked: alone, "data-key": "alone", onchange: (e) => { ctx.ui.alone = e.target.checked; ctx.rerender(); } }),
    h("span", null, t("euchre.alone_switch"))) : null;

  return h("div", { class: "hand-panel" },
    buttons.length || toggle ? h("div", { class: "actions", role: "group", "aria-label": t("table.actions") }, buttons, toggle) : null,
    hand,
    hint(hintText(ctx, cardActs, others)));
}

function hintText(ctx, cardActs, others) {
  const v = ctx.view;
  if (!ctx.myTurn) return waitingHint(ctx);
  if (cardActs.some((a) => a.type === "discard")) return t("euchre.hint.discard");
  if (cardActs.length) {
    if (v.trick.length && cardActs.length < v.hand.length) return t("euchre.hint.follow");
    return t(v.trick.length ? "euchre.hint.play" : "euchre.hint.lead");
  }
  if (others.some((a) => a.type === "defend_alone")) return t("euchre.hint.defend");
  if (others.some((a) => a.type === "order_up")) return t(ctx.seat === v.dealer ? "euchre.hint.round_one_dealer" : "euchre.hint.round_one");
  if (others.some((a) => a.type === "name_trump")) {
    return t(others.some((a) => a.type === "pass") ? "euchre.hint.round_two" : "euchre.hint.stuck");
  }
  return t("euchre.hint.other");
}

export function describeLast(ctx) {
  const v = ctx.view;
  const p = ctx.prev ? ctx.prev.view : null;
  if (!p || p.hand_number !== v.hand_number) {
    return v.last_hand && (!p || JSON.stringify(p.last_hand) !== JSON.stringify(v.last_hand)) ? t(v.last_hand.result) : "";
  }
  if (v.trick.length > p.trick.length) {
    const last = v.trick[v.trick.length - 1];
    return t("euchre.last.play", { name: ctx.name(last.seat), card: cardName(last.card) });
  }
  if (v.tricks.length > p.tricks.length) {
    const tr = v.tricks[v.tricks.length - 1];
    const lastPlay = tr.plays[tr.plays.length - 1];
    return `${t("euchre.last.play", { name: ctx.name(lastPlay.seat), card: cardName(lastPlay.card) })} ${t("euchre.won_trick", { name: ctx.name(tr.winner) })}`;
  }
  if (v.bids.length > p.bids.length) return bidText(ctx, v.bids[v.bids.length - 1]);
  return "";
}

export function teamMark(team, ctx) {
  const mine = ctx.view.side;
  if (mine == null) return null;
  return h("span", { class: "side-mark", "aria-hidden": "true" }, team === mine ? "◆ " : "◇ ");
}
