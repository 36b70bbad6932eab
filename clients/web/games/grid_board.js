// The grid_board family: a grid zone of cells, each tappable when a legal action names it;
// with a hand zone (Sequence), tapping a card selects it and its actions light the cells they
// name; any action no cell enters is a labelled button. Drawn from the descriptor (the grid's
// field and size, the gestures' fields) and the legal list alone: no game id, no rules here.
// The printed faces under the pieces (the zone's `faces` field: a card per cell, "XX" a free
// cell), the marks over them (common.marks: completed lines struck through, locked pieces,
// the last move, a piece just taken) and each side's
// standing (common.side_notes, then the captions) are drawn here for any game. What is one
// game's comes from its hook: `cell(ctx, r, c, occupant)`, `value(ctx, r, c)`, `flip(ctx)`,
// `hint(ctx, sel, acts)`, `footer(ctx)`, `label(ctx, action)`.

import { card } from "../cards.js";
import { button, h, svg } from "../dom.js";
import { SUIT_SYMBOL, cardName, has, rankFace, t } from "../i18n.js";
import { capText } from "./generic.js";
import { MARKS, actionLabel, actionRow, actionsFor, describe, field, gesture, handItems, hint, own, part, sideMark, waitingHint } from "./common.js";

export { describeLast } from "./generic.js";

// A cell tap fills two fields (the row and the column of a grid zone), or one field holding
// the cell's label: algebraic ("e2": files from a, ranks from the last row up) from the zone's
// `labels`, or whatever the game's hook names per cell (`value(ctx, r, c)`: Checkers' 1-32).
export function canDraw(p, hook = {}) {
  const cell = p.gestures.find((g) => g.kind === "cell");
  const grid = cell && p.zones.find((z) => z.name === cell.zone);
  return !!grid && grid.kind === "grid" && (cell.fields.length === 2
    || (cell.fields.length === 1 && (!!hook.value || grid.labels === "algebraic")));
}

function cellValue(ctx, grid, r, c) {
  if (ctx.hook.value) return ctx.hook.value(ctx, r, c);
  return `${"abcdefghijklmnopqrstuvwxyz"[c]}${grid.rows - r}`;
}

function selected(ctx, items) {
  const i = ctx.ui.gridIndex;
  return i != null && i < items.length && items[i].code === ctx.ui.gridCard ? items[i].code : null;
}

// The actions a cell tap sends, by the values of the gesture's fields ("3,4", or "17"): those
// with the fields, of the gesture's types if it names some.
function cellTargets(acts, g) {
  const targets = new Map();
  for (const a of acts) {
    const fits = g.fields.every((f) => f in a) && (!g.types || !g.types.length || g.types.includes(a.type));
    const key = g.fields.map((f) => a[f]).join(",");
    if (fits && !targets.has(key)) targets.set(key, a);
  }
  return targets;
}

const FREE = "XX"; // engine/presentation.py FREE
const cellSet = (cells) => new Set((cells || []).map(([r, c]) => `${r},${c}`));

// A cell as the family draws it: its printed face, its piece and marks, and all of it in words.
function defaultCell(ctx, grid, marks, r, c, occupant) {
  const at = `${r},${c}`;
  const code = grid.faces ? ((ctx.view[grid.faces] || [])[r] || [])[c] : null;
  const side = typeof occupant === "number" && occupant >= 0 ? occupant : -1;
  const locked = marks.locked.has(at);
  const last = marks.last.has(at);
  const removed = marks.removed.has(at);
  const fresh = last && marks.moved;
  const face = code === FREE ? h("span", { class: "corner", "aria-hidden": "true" }, "★")
    : code ? h("span", { class: `face suit-${code[1]}`, "aria-hidden": "true" }, `${rankFace(code[0], ctx.game)}${SUIT_SYMBOL[code[1]] || ""}`) : null;
  const sideName = side >= 0 ? t(own(ctx, "team", "grid.side"), { mark: MARKS[side] ?? "", n: side + 1 }).trim() : "";
  const piece = side >= 0 ? `${sideName}${locked ? `, ${t(own(ctx, "locked", "grid.locked"))}` : ""}`
    : code === FREE ? "" : t(own(ctx, "empty", "grid.empty"));
  const label = [t("grid.square", { row: r + 1, col: c + 1 }), code === FREE ? t(own(ctx, "corner", "grid.free")) : code ? cardName(code) : "",
    piece, last ? t(own(ctx, "last_move", "grid.last_move")) : "",
    removed ? t(own(ctx, "removed", "grid.removed")) : ""].filter(Boolean).join(", ");
  return { face: face ? [face] : [], label, cls: [code === FREE && "corner-sq", last && "last", removed && "removed"], chip: [locked && "locked", fresh && "fresh"] };
}

// The common part's marks as sets of "r,c"; `moved`: the last move is new since the last state
// (its chip arrives animated once, not on every redraw).
function marksOf(ctx) {
  const m = (ctx.state.common && ctx.state.common.marks) || {};
  const before = ctx.prev && ctx.prev.common && ctx.prev.common.marks;
  return { locked: cellSet(m.locked), last: cellSet(m.last), removed: cellSet(m.removed),
    lines: Array.isArray(m.lines) ? m.lines : [],
    moved: JSON.stringify(m.last || []) !== JSON.stringify((before && before.last) || []) };
}

// Each completed line struck through in its side's colour, over the pieces, as the kiosk
// draws it: from the first cell's centre to the last's, in cell units (the board is square
// cells with hairline gaps). Words are on the cells (locked), so the drawing is hidden from
// screen readers.
function strikes(ctx, grid, lines, flip) {
  const drawn = lines.filter((l) => l && Array.isArray(l.cells) && l.cells.length >= 2);
  if (!drawn.length) return null;
  const at = ([r, c]) => [(flip ? grid.cols - 1 - c : c) + 0.5, (flip ? grid.rows - 1 - r : r) + 0.5];
  return svg("svg", { class: "strikes", viewBox: `0 0 ${grid.cols} ${grid.rows}`, preserveAspectRatio: "none", "aria-hidden": "true" },
    drawn.map((l) => {
      const first = l.cells[0];
      const end = l.cells[l.cells.length - 1];
      const [x1, y1] = at(first);
      const [x2, y2] = at(end);
      const colour = ctx.presentation.seat_colours[l.side];
      return svg("line", { x1, y1, x2, y2, class: ["strike", `team-${l.side}`, colour && `colour-${colour}`],
        "data-from": first.join(","), "data-to": end.join(",") });
    }));
}

// Under the hand: each side's standing in words, then the game's status lines.
function footer(ctx) {
  const c = ctx.state.common || {};
  const notes = c.side_notes || [];
  return h("div", { class: "score-bar" },
    notes.length ? h("ul", { class: "team-scores" }, notes.map((cap, side) => h("li", { class: "team-score" }, sideMark(ctx, side),
      h("span", null, `${t(own(ctx, "team", "grid.side"), { mark: "", n: side + 1 }).trim()}: ${capText(ctx, cap)}`)))) : null,
    (c.captions || []).length ? h("p", { class: "muted" }, c.captions.map((cap) => capText(ctx, cap)).join(" · ")) : null);
}

export function render(ctx) {
  const g = gesture(ctx, "cell");
  const grid = ctx.presentation.zones.find((z) => z.name === g.zone);
  const cardG = gesture(ctx, "card");
  const items = handItems(ctx);
  const sel = ctx.myTurn && cardG ? selected(ctx, items) : null;
  // With a hand, a card is chosen first; without one, every action is for the board.
  const acts = !ctx.myTurn ? [] : cardG ? (sel ? actionsFor(ctx.legal, sel, cardG.fields[0]) : []) : ctx.legal;
  const targets = cellTargets(acts, g);
  const occupants = field(ctx, grid) || [];
  const marks = marksOf(ctx);
  const cells = [];
  // Turned round when the hook says so, to put the viewer's side at the bottom (the squares
  // keep their coordinates: only the drawing order changes).
  const flip = !!part(ctx, "flip", false);
  const order = (n) => Array.from({ length: n }, (_, i) => (flip ? n - 1 - i : i));
  for (const r of order(grid.rows)) {
    for (const c of order(grid.cols)) {
      const key = g.fields.length === 2 ? `${r},${c}` : String(cellValue(ctx, grid, r, c));
      const occupant = (occupants[r] || [])[c];
      const x = part(ctx, "cell", null, r, c, occupant) || defaultCell(ctx, grid, marks, r, c, occupant);
      const parts = [...x.face];
      // A chip per side: the occupant's number, or the side the hook reads from the cell.
      const side = x.side ?? (typeof occupant === "number" ? occupant : -1);
      if (side >= 0) {
        const colour = ctx.presentation.seat_colours[side];
        parts.push(h("span", { class: ["chip", `team-${side}`, colour && `colour-${colour}`, ...(x.chip || [])], "aria-hidden": "true" },
          x.glyph || (MARKS[side] ?? "◆")));
      }
      const a = targets.get(key);
      const cls = ["sq", ...(x.cls || []), a && "target", a && `target-${a.type}`];
      const at = { "data-row": String(r), "data-col": String(c) };
      const tap = a ? `${ctx.game}.tap.${a.type}` : "";
      cells.push(a ? button(parts, () => ctx.act(a), {
        class: cls, "aria-label": `${x.label}. ${has(tap) ? t(tap) : describe(ctx, a)}`, disabled: ctx.busy,
        "data-key": `sq-${key}`, "data-action": JSON.stringify(a), ...at,
      }) : h("div", { class: cls, role: "img", "aria-label": x.label, ...at }, parts));
    }
  }
  const board = h("div", { class: "board-wrap" },
    h("div", { class: "board", role: "group", "aria-label": t(own(ctx, grid.name, "grid.board")),
      style: { "--rows": String(grid.rows), "--cols": String(grid.cols) } }, cells,
      strikes(ctx, grid, marks.lines, flip)));

  // The hand: tap to select; the selected card's targets light up on the board.
  const playable = new Set(cardG ? ctx.legal.map((a) => a[cardG.fields[0]]) : []);
  const hand = cardG && ctx.seat != null ? h("div", { class: "hand", role: "group", "aria-label": t("table.your_hand") },
    items.map((it, i) => card(it.code, {
      game: ctx.game, caption: it.caption, key: `hand-${i}`,
      selected: sel !== null && ctx.ui.gridIndex === i, pressable: true, button: true,
      dim: ctx.myTurn && !playable.has(it.code), disabled: ctx.busy && ctx.myTurn,
      onclick: () => {
        if (!ctx.myTurn) return;
        const same = ctx.ui.gridIndex === i && ctx.ui.gridCard === it.code;
        ctx.ui.gridIndex = same ? null : i;
        ctx.ui.gridCard = same ? null : it.code;
        ctx.rerender();
      },
    }))) : null;
  const onBoard = new Set(targets.values());
  const rest = acts.filter((a) => !onBoard.has(a));
  const panel = h("div", { class: "hand-panel" },
    hand,
    hint(ctx.myTurn ? part(ctx, "hint", t(sel || !cardG ? "grid.hint.tap" : "grid.hint.choose"), sel, acts) : waitingHint(ctx)),
    actionRow(ctx, rest, (a) => actionLabel(ctx, a), { prefix: "grid-", primary: (a) => !(g.fields[0] in a) }),
    part(ctx, "footer", footer(ctx)));
  return h("div", { class: "grid-board" }, board, panel);
}
