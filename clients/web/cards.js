// Card faces shared by every game: the rank in the language's letters, the suit as a symbol
// (so suits never depend on colour alone), and a spoken name for screen readers.

import { h } from "./dom.js";
import { SUIT_SYMBOL, cardName, rankFace, t } from "./i18n.js";

// opts: game, caption (text), selected, disabled, onclick, key, label, fresh, small, action
// (the legal action a tap sends, shown as data-action for assistive tools and the tests)
export function card(code, opts = {}) {
  const rank = code[0];
  const suit = code[1];
  const face = rankFace(rank, opts.game || "");
  const sym = SUIT_SYMBOL[suit] || "";
  const name = opts.label || cardName(code) + (opts.caption ? ` (${opts.caption})` : "");
  const cls = ["card", `suit-${suit}`, opts.small && "small", opts.selected && "selected",
    opts.fresh && "fresh", opts.dim && "dim"];
  const body = [
    h("span", { class: "idx", "aria-hidden": "true" }, h("span", { class: "r" }, face),
      h("span", { class: "s" }, sym)),
    h("span", { class: "pip", "aria-hidden": "true" }, sym),
    opts.caption ? h("span", { class: "caption", "aria-hidden": "true" }, opts.caption) : null,
  ];
  if (opts.onclick || opts.button) {
    return h("button", {
      type: "button", class: cls, "aria-label": name, dataset: { key: opts.key || code },
      "aria-pressed": opts.pressable ? String(!!opts.selected) : undefined,
      disabled: opts.disabled, "aria-disabled": opts.ariaDisabled ? "true" : undefined,
      onclick: opts.onclick, "data-action": opts.action ? JSON.stringify(opts.action) : undefined,
    }, body);
  }
  return h("span", { class: cls, role: "img", "aria-label": name }, body);
}

export function back(opts = {}) {
  return h("span", {
    class: ["card", "back", opts.small && "small"], role: "img",
    "aria-label": opts.label || t("card.back"),
  });
}

// A row of face-down cards standing for a hand size.
export function hiddenHand(n, label) {
  const shown = Math.min(n, 8);
  return h("span", { class: "fan", role: "img", "aria-label": label },
    Array.from({ length: shown }, () => h("span", { class: "card back mini", "aria-hidden": "true" })));
}
