// Sequence: the 10x10 board with chips, locked sequences and free corners; the hand with its
// captions (wild, remove, dead); and a hint saying what tapping will do.
//
// What a tap does comes only from the legal actions' types: with a card selected, its `place`
// and `wild` actions mark empty squares, its `remove` actions mark opponents' chips, and
// `exchange_dead` / `discard` / `double` become buttons. No rule of Sequence is coded here.

import { card } from "../cards.js";
import { button, h } from "../dom.js";
import { SUIT_SYMBOL, cardName, rankFace, t } from "../i18n.js";
import { actionsFor, hint, waitingHint } from "./common.js";

const MARKS = ["●", "■", "▲"];

export function teamMark(team) {
  return h("span", { class: `chip-mark team-${team}`, "aria-hidden": "true" }, `${MARKS[team] ?? "◆"} `);
}

function teamName(team, mark = true) {
  return t("sequence.team", { mark: mark ? MARKS[team] ?? "" : "", n: team + 1 }).trim();
}

function squareLabel(row, col) {
  return t("sequence.square", { row: row + 1, col: col + 1 });
}

function selectedCard(ctx) {
  const hand = ctx.view.hand;
  const i = ctx.ui.seqIndex;
  if (i == null || i >= hand.length || hand[i].card !== ctx.ui.seqCard) return null;
  return hand[i].card;
}

export function render(ctx) {
  const v = ctx.view;
  const sel = ctx.myTurn ? selectedCard(ctx) : null;
  const acts = sel ? actionsFor(ctx.legal, sel) : [];
  const targets = new Map(); // "r,c" -> action
  for (const a of acts) {
    if ((a.type === "place" || a.type === "wild" || a.type === "remove") && !targets.has(`${a.row},${a.col}`)) {
      targets.set(`${a.row},${a.col}`, a);
    }
  }
  const locked = new Set(v.locked.map(([r, c]) => `${r},${c}`));
  const last = new Set(v.last ? v.last.squares.map(([r, c]) => `${r},${c}`) : []);
  const prevLast = ctx.prev && ctx.prev.view.last;
  const fresh = v.last && JSON.stringify(v.last) !== JSON.stringify(prevLast);

  const cells = [];
  v.layout.forEach((row, r) => row.forEach((code, c) => {
    const key = `${r},${c}`;
    const team = v.chips[r][c];
    const a = targets.get(key);
    const corner = code === "XX";
    const parts = [];
    if (corner) parts.push(h("span", { class: "corner", "aria-hidden": "true" }, "★"));
    else parts.push(h("span", { class: `face suit-${code[1]}`, "aria-hidden": "true" }, faceText(code)));
    if (team >= 0) {
      parts.push(h("span", { class: ["chip", `team-${team}`, locked.has(key) && "locked", fresh && last.has(key) && "fresh"], "aria-hidden": "true" },
        MARKS[team] ?? "◆"));
    }
    const what = corner ? t("sequence.corner") : cardName(code);
    const chipText = team >= 0
      ? `${teamName(team)}${locked.has(key) ? `, ${t("sequence.locked")}` : ""}`
      : (corner ? "" : t("sequence.empty"));
    const label = [squareLabel(r, c), what, chipText, last.has(key) ? t("sequence.last_move") : ""].filter(Boolean).join(", ");
    const cls = ["sq", corner && "corner-sq", last.has(key) && "last", a && "target", a && `target-${a.type}`];
    if (a) {
      cells.push(button(parts, () => ctx.act(a), {
        class: cls, "aria-label": `${label}. ${t(`sequence.tap.${a.type}`)}`, disabled: ctx.busy,
        "data-key": `sq-${key}`, "data-row": String(r), "data-col": String(c),
      }));
    } else {
      cells.push(h("div", { class: cls, role: "img", "aria-label": label, "data-row": String(r), "data-col": String(c) }, parts));
    }
  }));
  const board = h("div", { class: "board-wrap" },
    h("div", { class: "board", role: "group", "aria-label": t("sequence.board") }, cells));

  // The hand: tap to select; the selected card's targets light up on the board.
  const playable = new Set(ctx.legal.map((a) => a.card));
  const hand = h("div", { class: "hand", role: "group", "aria-label": t("table.your_hand") },
    v.hand.map((hc, i) => card(hc.card, {
      game: "sequence", caption: hc.caption ? t(hc.caption) : null, key: `hand-${i}`,
      selected: sel !== null && ctx.ui.seqIndex === i, pressable: true, button: true,
      dim: ctx.myTurn && !playable.has(hc.card), disabled: ctx.busy && ctx.myTurn,
      onclick: () => {
        if (!ctx.myTurn) return;
        const same = ctx.ui.seqIndex === i && ctx.ui.seqCard === hc.card;
        ctx.ui.seqIndex = same ? null : i;
        ctx.ui.seqCard = same ? null : hc.card;
        ctx.rerender();
      },
    })));

  const extra = [];
  for (const a of acts) {
    if (a.type === "exchange_dead") extra.push(button(t("sequence.action.exchange"), () => ctx.act(a), { class: "primary", disabled: ctx.busy, "data-key": "exchange" }));
    if (a.type === "discard") extra.push(button(t("sequence.action.discard"), () => ctx.act(a), { class: "primary", disabled: ctx.busy, "data-key": "discard" }));
    if (a.type === "double") extra.push(button(t("sequence.action.double"), () => ctx.act(a), { disabled: ctx.busy, "data-key": `double-${a.row}-${a.col}` }));
  }

  const panel = h("div", { class: "hand-panel" },
    hand,
    hint(hintText(ctx, sel, acts)),
    extra.length ? h("div", { class: "actions" }, extra) : null,
    scoreBar(ctx));
  return h("div", { class: "seq" }, board, panel);
}

function faceText(code) {
  // Board squares are small: rank letter and suit symbol only.
  return `${rankFace(code[0], "sequence")}${SUIT_SYMBOL[code[1]]}`;
}

// What tapping will do, from the types of the legal actions for the selected card.
function hintText(ctx, sel, acts) {
  if (ctx.seat == null) return t("table.spectating");
  if (!ctx.myTurn) return waitingHint(ctx);
  if (!sel) return t(ctx.view.exchanged ? "sequence.hint.choose_after_exchange" : "sequence.hint.choose");
  const types = new Set(acts.map((a) => a.type));
  const parts = [];
  if (types.has("remove")) parts.push(t("sequence.hint.remove"));
  if (types.has("wild")) parts.push(t("sequence.hint.wild"));
  if (types.has("place")) parts.push(t("sequence.hint.place"));
  if (types.has("double")) parts.push(t("sequence.hint.double"));
  if (types.has("exchange_dead")) parts.push(t("sequence.hint.exchange"));
  if (types.has("discard")) parts.push(t("sequence.hint.discard"));
  if (!parts.length) parts.push(t("sequence.hint.none"));
  return parts.join(" ");
}

function scoreBar(ctx) {
  const v = ctx.view;
  const goal = v.rules.sequences_to_win;
  const teams = v.score.map((n, team) => h("li", { class: "team-score" }, teamMark(team),
    h("span", null, `${teamName(team, false)}: ${goal ? t("sequence.sequences_of", { n, goal }) : t("sequence.sequences", { n })}`),
    v.rules.captures ? h("span", { class: "muted" }, ` · ${t("sequence.captures", { n: v.captures[team], goal: v.rules.captures_to_win })}`) : null));
  const top = v.discards.length ? v.discards[v.discards.length - 1] : null;
  return h("div", { class: "score-bar" },
    h("ul", { class: "team-scores" }, teams),
    h("p", { class: "muted" }, t("sequence.draw_pile", { n: v.draw_pile }),
      top ? ` · ${t("sequence.last_discard", { card: cardName(top) })}` : null));
}

export function describeLast(ctx) {
  const last = ctx.view.last;
  if (!last) return "";
  const [r, c] = last.squares[0] || [0, 0];
  let s = t(`sequence.last.${last.type}`, {
    name: ctx.name(last.seat), card: cardName(last.card), square: squareLabel(r, c),
  });
  if (last.new_sequences) s += ` ${t("sequence.last.made", { n: last.new_sequences })}`;
  return s;
}
