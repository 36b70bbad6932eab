// Chess's part of the grid_board family: the pieces on the squares (the view's board, rank 8
// first: upper case white, lower case black), the picked piece and its targets, the last
// move, and the hint for the step being entered (pick, land, promote). The squares' names
// come from the descriptor (algebraic labels), so a tap fills the `square` field. With a
// clock, both sides' time as of their last move (the side to move also counts down on its seat).

import { h } from "../../dom.js";
import { t } from "../../i18n.js";

// White's pieces in outline, Black's filled: the sides differ in shape, not colour alone.
const GLYPHS = [{ k: "♔", q: "♕", r: "♖", b: "♗", n: "♘", p: "♙" }, { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" }];
const square = (r, c) => `${"abcdefgh"[c]}${8 - r}`;

export function cell(ctx, r, c) {
  const v = ctx.view;
  const code = v.board[r][c];
  const sq = square(r, c);
  const side = code === "." ? -1 : code === code.toUpperCase() ? 0 : 1;
  const piece = side < 0 ? null : GLYPHS[side][code.toLowerCase()];
  const name = !piece ? t("grid.empty") : `${t(side ? "chess.side.black" : "chess.side.white")} ${piece}`;
  const moved = v.last && v.last.squares.includes(sq);
  const check = v.check === sq; // the king in check, ringed and said
  return { face: [], label: check ? `${sq}, ${name}, ${t("chess.check", { square: sq })}` : `${sq}, ${name}`, side, glyph: piece,
    cls: [(r + c) % 2 ? "dark-sq" : "light-sq", (v.picked === sq || moved) && "last", check && "check"] };
}

export const flip = (ctx) => ctx.view.plays === "black";

export function hint(ctx) {
  const v = ctx.view;
  const h = t(v.promoting ? "chess.hint.promote" : v.picked ? "chess.hint.land" : "chess.hint.pick");
  return v.check ? `${t("chess.check", { square: v.check })} ${h}` : h;
}

const mmss = (ms) => { const s = Math.max(0, Math.ceil(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`; };

export function footer(ctx) {
  const c = ctx.view.clocks;
  return c ? h("p", { class: "clocks" }, [0, 1].map((s) => `${GLYPHS[s].k} ${t(s ? "chess.side.black" : "chess.side.white")} ${mmss(c[s])}`).join(" · ")) : null;
}
