// Sequence's part of the grid_board family: what a square shows (its card, the free corners,
// locked chips, the last move), the hint for the selected card and the score line. The hint
// comes from the set of legal action types for the selected card, never from rules in the
// page; the last move in words is the view's common part (engine/sequence/rules.py).

import { h } from "../../dom.js";
import { SUIT_SYMBOL, cardName, rankFace, t } from "../../i18n.js";
import { MARKS, sideMark } from "../common.js";

const keys = (pairs) => new Set(pairs.map(([r, c]) => `${r},${c}`));

function teamName(team, mark = true) {
  return t("sequence.team", { mark: mark ? MARKS[team] ?? "" : "", n: team + 1 }).trim();
}

function squareLabel(row, col) {
  return t("grid.square", { row: row + 1, col: col + 1 });
}

export function cell(ctx, r, c, team) {
  const v = ctx.view;
  const code = v.layout[r][c];
  const corner = code === "XX";
  const locked = keys(v.locked).has(`${r},${c}`);
  const last = v.last && keys(v.last.squares).has(`${r},${c}`);
  const fresh = last && JSON.stringify(v.last) !== JSON.stringify(ctx.prev && ctx.prev.view.last);
  const face = corner ? h("span", { class: "corner", "aria-hidden": "true" }, "★")
    : h("span", { class: `face suit-${code[1]}`, "aria-hidden": "true" }, `${rankFace(code[0], "sequence")}${SUIT_SYMBOL[code[1]]}`);
  const chipText = team >= 0 ? `${teamName(team)}${locked ? `, ${t("sequence.locked")}` : ""}`
    : (corner ? "" : t("sequence.empty"));
  const label = [squareLabel(r, c), corner ? t("sequence.corner") : cardName(code), chipText,
    last ? t("sequence.last_move") : ""].filter(Boolean).join(", ");
  return { face: [face], label, cls: [corner && "corner-sq", last && "last"], chip: [locked && "locked", fresh && "fresh"] };
}

export function label(ctx, a) {
  return t({ exchange_dead: "sequence.action.exchange", discard: "sequence.action.discard",
    double: "sequence.action.double" }[a.type] || `sequence.tap.${a.type}`);
}

const HINTS = ["remove", "wild", "place", "double", "exchange", "discard"];

export function hint(ctx, sel, acts) {
  if (!sel) return t(ctx.view.exchanged ? "sequence.hint.choose_after_exchange" : "sequence.hint.choose");
  const types = new Set(acts.map((a) => (a.type === "exchange_dead" ? "exchange" : a.type)));
  const parts = HINTS.filter((x) => types.has(x)).map((x) => t(`sequence.hint.${x}`));
  return (parts.length ? parts : [t("sequence.hint.none")]).join(" ");
}

export function footer(ctx) {
  const v = ctx.view;
  const goal = v.rules.sequences_to_win;
  const teams = v.score.map((n, team) => h("li", { class: "team-score" }, sideMark(ctx, team),
    h("span", null, `${teamName(team, false)}: ${goal ? t("sequence.sequences_of", { n, goal }) : t("sequence.sequences", { n })}`),
    v.rules.captures ? h("span", { class: "muted" }, ` · ${t("sequence.captures", { n: v.captures[team], goal: v.rules.captures_to_win })}`) : null));
  const top = v.discards.length ? v.discards[v.discards.length - 1] : null;
  return h("div", { class: "score-bar" },
    h("ul", { class: "team-scores" }, teams),
    h("p", { class: "muted" }, t("sequence.draw_pile", { n: v.draw_pile }),
      top ? ` · ${t("sequence.last_discard", { card: cardName(top) })}` : null));
}
