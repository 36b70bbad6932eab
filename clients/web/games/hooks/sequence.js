// Sequence's part of the grid_board family: the words of its buttons and the hint for the
// selected card. The printed board, the chips and their marks, and each team's standing are
// the family's, from the descriptor and the view's common part (engine/sequence/rules.py); the
// hint comes from the set of legal action types for the selected card, never from rules here.

import { t } from "../../i18n.js";

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
