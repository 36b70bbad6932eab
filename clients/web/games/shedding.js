// The shedding family: the pile (every play of the trick, the one to beat last and largest,
// or the top of a discard pile), the own hand, and the seat strip's counts. With a `cards`
// gesture a multi-card selection is built by filtering the legal list: a card can be added
// while some legal action holds every selected card and it, and the confirm button is enabled
// when a legal action's cards are exactly the selection, and sends that action. With a `card`
// gesture a tap sends the card's action. Every other legal action is a button. No game id and
// no rules here. Each seat's badges and note (a title, "passed"), the result between rounds and
// the last play in words are the view's common part; one game's own lines (its state line, the
// exchange, totals, labels, hints) come from its hook: `status`, `notes`, `footer`, `confirm`,
// `hint`, `label`.

import { card } from "../cards.js";
import { button, h } from "../dom.js";
import { has, t } from "../i18n.js";
import { actionLabel, actionRow, actionsFor, field, gesture, handItems, hint, own, part, waitingHint, zone } from "./common.js";
import { badgesOf, commonPart, noteOf, result } from "./generic.js";

export { describeLast } from "./generic.js";

export function canDraw(p) {
  return p.zones.some((z) => z.kind === "hand") && p.gestures.some((g) => g.kind === "cards" || g.kind === "card");
}

// The seat strip's badges: what the common part says of the seat, its note last.
export function seatBadges(seat, ctx) {
  const note = noteOf(ctx, seat);
  return [...badgesOf(ctx, seat), note && h("span", { class: "badge note" }, note)].filter(Boolean);
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
    result(ctx),
    h("div", { class: "hand-panel" }, row, hand,
      hint(ctx.myTurn ? part(ctx, "hint", t(candidates.length ? (multi ? "hand.hint.select" : "hand.hint.tap") : "generic.choose"), sel) : waitingHint(ctx))),
    // The scores by seat; the captions too, unless the game's status line says them its way.
    part(ctx, "footer", commonPart(ctx, !ctx.hook.status)));
}

// The results table (the page's own, in seat order), with what the common part last said of
// each seat (a title) when it says anything.
export function scoreTable(ctx) {
  const o = ctx.state.outcome;
  const said = o.scores.map((_, s) => badgesOf(ctx, s));
  const mid = said.some((b) => b.length);
  const head = has(`${ctx.game}.last_title`) ? t(`${ctx.game}.last_title`) : "";
  return h("table", { class: "scores" },
    h("thead", null, h("tr", null, h("th", { scope: "col" }, t("results.player")),
      mid ? h("th", { scope: "col" }, head) : null, h("th", { scope: "col" }, t("results.score")))),
    h("tbody", null, o.scores.map((sc, s) =>
      h("tr", { class: o.winners.includes(s) ? "won" : "" },
        h("th", { scope: "row" }, ctx.name(s), s === ctx.seat ? h("span", { class: "badge you" }, t("table.you")) : null,
          o.winners.includes(s) ? " 🏆" : ""),
        mid ? h("td", null, said[s].length ? said[s] : "–") : null, h("td", null, String(sc))))));
}
