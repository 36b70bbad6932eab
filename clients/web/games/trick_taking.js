// The trick_taking family: the seats around the table (you at the bottom, the next player to
// your left, in every language), each seat's card of the trick in front of it, the other
// hands as counts, the captions and scores, and the own hand, where a card is tappable
// exactly when a legal action names it (the descriptor's `card` gesture). Every other legal
// action is a button; a boolean field that splits alike actions ("alone") is a switch.
// Drawn from the descriptor, the common part and the legal list: no game id, no rules here.
// One game's own lines (bids, the turned card, its info panel) come from its hook:
// `heldTrick`, `badges`, `seatNote`, `middle`, `info`, `banner`, `label`, `hint`, `quiet`.

import { card, hiddenHand } from "../cards.js";
import { h } from "../dom.js";
import { cardName, t } from "../i18n.js";
import { actionLabel, actionRow, actionsFor, around, field, gesture, handItems, hint, own, part, switched, waitingHint, zone } from "./common.js";
import { commonPart } from "./generic.js";

const COMPASS = ["south", "west", "north", "east"];

export function canDraw(p) {
  return p.zones.some((z) => z.kind === "trick") && p.gestures.some((g) => g.kind === "card");
}

// Partnerships: a filled mark on your side's seats, a hollow one on the others' (no mark to a
// spectator, nor in a game where each plays alone).
export function teamMark(team, ctx) {
  const teams = ctx.state.common ? ctx.state.common.teams : [];
  const mine = ctx.seat == null ? null : teams[ctx.seat];
  if (mine == null || new Set(teams).size === teams.length) return null;
  return h("span", { class: "side-mark", "aria-hidden": "true" }, team === mine ? "◆ " : "◇ ");
}

export function render(ctx) {
  const st = ctx.state;
  const n = st.seats.length;
  const trick = field(ctx, zone(ctx, "trick")) || [];
  const trickBy = new Map(trick.map((p) => [p.seat, p.card]));
  // Between tricks the game may keep the trick just won on the table (its hook says which).
  const held = trick.length ? null : part(ctx, "heldTrick", null);
  const shown = held ? new Map(held.plays.map((p) => [p.seat, p.card])) : trickBy;
  const prevTrick = ctx.prev ? (field({ ...ctx, view: ctx.prev.view }, zone(ctx, "trick")) || []).length : 0;
  const counts = st.common ? st.common.hand_counts : [];
  const spots = around(n, ctx.seat).map((s, i) => {
    const played = shown.get(s);
    return h("div", { class: ["spot", n === 4 ? COMPASS[i] : i ? "top" : "south", st.to_act.includes(s) && "acting"], "data-seat": String(s) },
      h("div", { class: "who" }, ctx.name(s), part(ctx, "badges", [], s)),
      s !== ctx.seat && counts[s] != null ? hiddenHand(counts[s], t("table.cards", { n: counts[s] })) : null,
      noteOf(ctx, s),
      played ? card(played, { game: ctx.game, small: true, dim: !!held,
        fresh: !held && trickBy.size > prevTrick && trick[trick.length - 1].seat === s,
        label: `${ctx.name(s)}: ${cardName(played)}` }) : null);
  });
  const table = h("div", { class: ["compass", n !== 4 && "ring"], dir: "ltr" }, spots,
    h("div", { class: "middle" }, part(ctx, "middle", null, held) || (held && held.winner != null
      ? h("div", { class: "trick-note" }, t(own(ctx, "won_trick", "trick.won"), { name: ctx.name(held.winner) })) : null)));
  // The game's info rows (trump, bids, tricks, score) as a sheet; else the common part.
  const rows = part(ctx, "info", null);
  const info = rows ? h("dl", { class: "info" }, rows.map(([k, x]) => [h("dt", null, k), h("dd", null, x)])) : commonPart(ctx);
  return h("div", { class: "trick-taking" }, table, info,
    part(ctx, "banner", null), handPanel(ctx));
}

// A line under a seat's name (its bid): text from the hook.
function noteOf(ctx, seat) {
  const note = part(ctx, "seatNote", null, seat);
  return note ? h("div", { class: "note" }, note) : null;
}

function handPanel(ctx) {
  if (ctx.seat == null) return hint(t("table.spectating"));
  const name = gesture(ctx, "card").fields[0];
  const cardActs = ctx.myTurn ? ctx.legal.filter((a) => name in a) : [];
  const others = ctx.myTurn ? ctx.legal.filter((a) => !(name in a)) : [];
  const items = handItems(ctx);
  const hand = h("div", { class: "hand", role: "group", "aria-label": t("table.your_hand") },
    items.map((it) => {
      const acts = actionsFor(cardActs, it.code, name);
      return card(it.code, {
        game: ctx.game, caption: it.caption, key: `hand-${it.code}`, button: true,
        disabled: !acts.length || ctx.busy, dim: ctx.myTurn && cardActs.length > 0 && !acts.length,
        onclick: acts.length ? () => ctx.act(acts[0]) : null, action: acts[0],
      });
    }));
  const { shown, toggles } = switched(ctx, others, (f) => t(`${ctx.game}.${f}_switch`));
  const quiet = new Set(ctx.hook.quiet || ["pass"]);
  const ordered = [...shown.filter((a) => !quiet.has(a.type)), ...shown.filter((a) => quiet.has(a.type))];
  return h("div", { class: "hand-panel" },
    actionRow(ctx, ordered, (a) => actionLabel(ctx, a), { prefix: "trick-", primary: (a) => !quiet.has(a.type), extra: toggles.length ? toggles : null }),
    hand,
    hint(ctx.myTurn ? part(ctx, "hint", t(cardActs.length ? "hand.hint.tap" : "generic.choose"), cardActs, others) : waitingHint(ctx)));
}

export function describeLast() {
  return "";
}
