// The trick_taking family: the seats around the table (you at the bottom, the next player to
// your left, in every language), each seat's card of the trick in front of it, other hands as
// counts, and the own hand, a card tappable exactly when a legal action names it (the `card`
// gesture). Other actions are buttons; a boolean field splitting alike actions is a switch.
// No game id, no rules here: each seat's badges and note, the status lines, the result between
// hands and the last action in words are the view's common part (engine/presentation.py); a
// game's own lines come from its hook (`heldTrick`, `badges`, `seatNote`, `middle`, `info`,
// `sheet`, `banner`, `label`, `hint`, `quiet`, `cardLabel`: a card's spoken name, `variants`).

import { card, hiddenHand } from "../cards.js";
import { h } from "../dom.js";
import { cardName, t } from "../i18n.js";
import { actionLabel, actionRow, actionsFor, around, field, gesture, handItems, hint, own, part, switched, waitingHint, zone } from "./common.js";
import { badgesOf, capText, commonPart, noteOf, result } from "./generic.js";

export { describeLast } from "./generic.js";

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
      h("div", { class: "who" }, ctx.name(s), part(ctx, "badges", badgesOf(ctx, s), s)),
      s !== ctx.seat && counts[s] != null ? hiddenHand(counts[s], t("table.cards", { n: counts[s] })) : null,
      seatLine(ctx, s),
      played ? card(played, { game: ctx.game, small: true, dim: !!held,
        fresh: !held && trickBy.size > prevTrick && trick[trick.length - 1].seat === s,
        label: `${ctx.name(s)}: ${part(ctx, "cardLabel", cardName(played), played)}` }) : null);
  });
  const table = h("div", { class: ["compass", n !== 4 && "ring"], dir: "ltr" }, spots,
    h("div", { class: "middle" }, part(ctx, "middle", null, held) || (held && held.winner != null
      ? h("div", { class: "trick-note" }, t(own(ctx, "won_trick", "trick.won"), { name: ctx.name(held.winner) })) : null)));
  // The game's info rows as a sheet; else its status lines (trump, tricks and score told from
  // this seat's side), else the common part.
  const rows = part(ctx, "info", null);
  const lines = (st.common && st.common.captions) || [];
  const info = rows ? h("dl", { class: "info" }, rows.map(([k, x]) => [h("dt", null, k), h("dd", null, x)]))
    : lines.length ? h("div", { class: "common" }, lines.map((cap) => h("p", { class: "caption-line" }, capText(ctx, cap))))
      : commonPart(ctx);
  return h("div", { class: "trick-taking" }, table, info, part(ctx, "sheet", null),
    part(ctx, "banner", result(ctx)), handPanel(ctx));
}

// A line under a seat's name (its bid).
function seatLine(ctx, seat) {
  const note = part(ctx, "seatNote", noteOf(ctx, seat), seat);
  return note ? h("div", { class: "note" }, note) : null;
}

function handPanel(ctx) {
  if (ctx.seat == null) return hint(t("table.spectating"));
  const name = gesture(ctx, "card").fields[0];
  const cardActs = ctx.myTurn ? ctx.legal.filter((a) => name in a) : [];
  const items = handItems(ctx);
  const hand = h("div", { class: "hand", role: "group", "aria-label": t("table.your_hand"), style: { "--n": String(items.length || 1) } },
    items.map((it) => {
      const acts = actionsFor(cardActs, it.code, name);
      return card(it.code, {
        game: ctx.game, caption: it.caption, key: `hand-${it.code}`, button: true,
        label: part(ctx, "cardLabel", undefined, it.code),
        disabled: !acts.length || ctx.busy, dim: ctx.myTurn && cardActs.length > 0 && !acts.length,
        onclick: acts.length ? () => ctx.act(acts[0]) : null, action: acts[0],
      });
    }));
  const others = ctx.myTurn ? ctx.legal.filter((a) => !(name in a)) : [];
  const { shown, toggles } = folded(ctx, others);
  const quiet = new Set(ctx.hook.quiet || ["pass"]);
  const ordered = [...shown.filter((a) => !quiet.has(a.type)), ...shown.filter((a) => quiet.has(a.type))];
  return h("div", { class: "hand-panel" },
    actionRow(ctx, ordered, (a) => actionLabel(ctx, a), { prefix: "trick-", primary: (a) => !quiet.has(a.type), extra: toggles.length ? toggles : null }),
    hand,
    hint(ctx.myTurn ? part(ctx, "hint", t(cardActs.length ? "hand.hint.tap" : "generic.choose"), cardActs, others) : waitingHint(ctx)));
}

// A hook's `variants` ({type: [base, flag]}): a type read as its base with `flag` set, so one
// switch picks between them (a no-trump bid); a tap still sends the action as received.
function folded(ctx, acts) {
  const v = ctx.hook.variants || {}, flag = Object.fromEntries(Object.values(v)), orig = new Map();
  const read = acts.map((a) => {
    const [b, f] = v[a.type] || [a.type, flag[a.type]], x = f ? { ...a, type: b, [f]: a.type !== b } : a;
    orig.set(x, a);
    return x;
  });
  const { shown, toggles } = switched(ctx, read, (f) => t(`${ctx.game}.${f}_switch`));
  return { shown: shown.map((x) => orig.get(x)), toggles };
}
