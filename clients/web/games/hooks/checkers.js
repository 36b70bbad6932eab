// Checkers' part of the grid_board family: the standard square numbers 1-32 on the dark
// squares (a cell tap fills the `square` field), the men and kings on them by side, the
// picked piece and its landings so far, and the hint for the step being entered. The sides
// differ in shape (● and ♛ dark, ○ and ♕ light), not in colour alone.

import { t } from "../../i18n.js";

const SIDE = { d: 0, D: 0, l: 1, L: 1 };

// The square number of a cell, or null for a light square (no piece ever stands there).
export function value(ctx, r, c) {
  const board = ctx.view.board;
  if (board[r][c] === "-") return null;
  let n = 0;
  for (let i = 0; i <= r; i++) {
    for (let j = 0; j < (i === r ? c + 1 : board[i].length); j++) n += board[i][j] !== "-";
  }
  return n;
}

export function cell(ctx, r, c, code) {
  const v = ctx.view;
  const n = value(ctx, r, c);
  if (n === null) return { face: [], label: "", cls: ["light-sq"], side: -1 };
  const side = SIDE[code] ?? -1;
  const king = code === "D" || code === "L";
  const who = side < 0 ? t("grid.empty") : `${t(side ? "checkers.side.light" : "checkers.side.dark")}${king ? `, ${t("grid.crowned")}` : ""}`;
  const picked = v.picked === n || v.path.includes(n);
  return { face: [], label: `${t("grid.numbered", { n })}, ${who}`, cls: ["dark-sq", picked && "last"], side, glyph: (side ? ["○", "♕"] : ["●", "♛"])[+king] };
}

// Dark's men start on squares 1-12, at the top of the view: Dark sees the board turned round.
export const flip = (ctx) => ctx.seat != null && ctx.state.common.teams[ctx.seat] === 0;

export function hint(ctx) {
  return t(ctx.view.picked ? "checkers.hint.land" : "checkers.hint.pick");
}
