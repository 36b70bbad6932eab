// The shedding family: the pile (every play of the trick, the one to beat last and largest,
// or the top of a discard pile), the own hand, and the seat strip's counts. With a `cards`
// gesture a multi-card selection is built by filtering the legal list: a card can be added
// while some legal action holds every selected card and it, and the confirm button is enabled
// when a legal action's cards are exactly the selection, and sends that action. With a `card`
// gesture a tap sends the card's action. Every other legal action is a button. No game id and
// no rules here; one game's own lines (its state line, the exchange, places, totals, labels,
// hints) come from its hook: `status`, `notes`, `footer`, `confirm`, `hint`, `label`.

import { card } from "../cards.js";
import { button, h } from "../dom.js";
import { t } from "../i18n.js";
import { actionLabel, actionRow, actionsFor, field, gesture, handItems, hint, own, part, waitingHint, zone } from "./common.js";
import { commonPart } from "./generic.js";

export function canDraw(p) {
  return p.zones.some((z) => z.kind === "hand") && p.gestures.some((g) => g.kind === "cards" || g.kind === "card");
}

export function sameSet(a, b) {
  return a.length === b.length && a.every((x) => b.includes(x));
}

// The plays to show: a trick's entries ({seat, cards}), else the top of the first pile.
function plays(ctx, view) {
  const trick = field({ ...ctx, view }, zone(ctx, "trick"));
  if (Array.isArray(trick)) return trick.map((p) => ({ seat: p.seat, cards: p.cards || [p.card] }));
  const pile = field({ ...ctx, view }, zone(ctx, "piles"));
  return Array.isArray(pile) && pile.length && typeof pile[0] === "string" ? [{ seat: null, cards: [pile[pile.length - 1]] }] : [];
}

function pileOf(ctx) {
  const shown = plays(ctx, ctx.view);
  const prevLen = ctx.prev ? plays(ctx, ctx.prev.view).length : 0;
  return h("div", { class: "pile", role: "group", "aria-label": t(own(ctx, "pile", "shedding.pile")) },
    shown.length ? shown.map((p, i) => {
      const top = i === shown.length - 1;
      return h("div", { class: ["play", top && "top"] },
        p.seat != null ? h("span", { class: "who" }, ctx.name(p.seat)) : null,
        h("span", { class: "cards" }, p.cards.map((c) => card(c, { game: ctx.game, small: !top, fresh: top && shown.length > prevLen }))));
    }) : h("p", { class: "muted" }, t(own(ctx, "pile_empty", "shedding.pile_empty"))));
}

export function render(ctx) {
  const multi = gesture(ctx, "cards");
  const name = (multi || gesture(ctx, "card")).fields[0];
  const items = handItems(ctx);
  const codes = items.map((x) => x.code);
  const mine = ctx.myTurn ? ctx.legal : [];
  const candidates = mine.filter((a) => name in a);
  const others = mine.filter((a) => !(name in a));
  const selected = multi ? (ctx.ui.sel || []).filter((c) => codes.includes(c)) : [];
  const compatible = candidates.filter((a) => selected.every((c) => a[name].includes(c)));
  const usable = new Set(compatible.flatMap((a) => a[name]));
  const exact = multi ? compatible.find((a) => sameSet(a[name], selected)) : null;
  ctx.ui.sel = selected;
  const sel = { selected, candidates, exact, top: plays(ctx, ctx.view).at(-1) || null };

  const hand = ctx.seat == null ? null : h("div", { class: "hand fan-hand", role: "group", "aria-label": t("table.your_hand") },
    items.map((it) => {
      const c = it.code;
      if (!multi) {
        const acts = actionsFor(candidates, c, name);
        return card(c, { game: ctx.game, caption: it.caption, key: `hand-${c}`, button: true,
          disabled: ctx.busy || !acts.length, dim: ctx.myTurn && !acts.length, action: acts[0],
          onclick: acts.length ? () => ctx.act(acts[0]) : null });
      }
      const on = selected.includes(c);
      const can = on || usable.has(c);
      return card(c, {
        game: ctx.game, caption: it.caption, key: `hand-${c}`, button: true, pressable: true, selected: on,
        disabled: ctx.busy || !ctx.myTurn || !can, dim: ctx.myTurn && !can,
        onclick: () => {
          ctx.ui.sel = on ? selected.filter((x) => x !== c) : [...selected, c];
          ctx.rerender();
        },
      });
    }));

  const confirm = multi && candidates.length ? button(part(ctx, "confirm", t("shedding.play"), exact, candidates), () => { ctx.ui.sel = []; ctx.act(exact); }, {
    class: "primary", disabled: ctx.busy || !exact, "data-key": "play", "data-confirm": "1",
    "data-action": exact ? JSON.stringify(exact) : undefined,
  }) : null;
  const clear = selected.length ? button(t(own(ctx, "clear", "shedding.clear")), () => { ctx.ui.sel = []; ctx.rerender(); }, { class: "quiet", "data-key": "clear" }) : null;
  const single = (a) => others.filter((x) => x.type === a.type).length === 1;
  const row = actionRow(ctx, others, (a) => actionLabel(ctx, a), {
    prefix: "shed-", key: (a, i) => (single(a) ? a.type : `act-shed-${i}-${JSON.stringify(a)}`), extra: confirm || clear ? [clear] : null,
  });
  if (row && confirm) row.prepend(confirm);
  return h("div", { class: "shedding" },
    part(ctx, "status", null),
    pileOf(ctx),
    part(ctx, "notes", null),
    h("div", { class: "hand-panel" }, row, hand,
      hint(ctx.myTurn ? part(ctx, "hint", t(candidates.length ? (multi ? "hand.hint.select" : "hand.hint.tap") : "generic.choose"), sel) : waitingHint(ctx))),
    part(ctx, "footer", commonPart(ctx)));
}

export function describeLast() {
  return "";
}
