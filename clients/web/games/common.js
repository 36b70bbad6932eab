// Pieces every game renderer uses: the hint line, a row of action buttons, and matching a
// hand card to the legal actions that play it. Nothing here knows any game's rules.

import { button, h } from "../dom.js";
import { t } from "../i18n.js";

export function hint(message, extra = null) {
  return h("p", { class: "hint", id: "hint" }, message, extra);
}

// One button per action; `label(action)` names it. Every button sends its action unchanged.
export function actionRow(ctx, actions, label, opts = {}) {
  if (!actions.length) return null;
  return h("div", { class: "actions", role: "group", "aria-label": opts.label || t("table.actions") },
    actions.map((a, i) => button(label(a), () => ctx.act(a), {
      class: opts.primary && opts.primary(a) ? "primary" : "",
      disabled: ctx.busy, "data-key": `act-${opts.prefix || ""}${i}-${JSON.stringify(a)}`,
      // The action itself, for tests' generic driver and assistive tools: what the tap sends.
      "data-action": JSON.stringify(a),
    })));
}

// The legal actions whose `card` field is this card.
export function actionsFor(legal, code) {
  return legal.filter((a) => a.card === code);
}

// Seats around a table of n, from `me` (at the bottom) going round in play order.
export function around(n, me) {
  const base = me ?? 0;
  return Array.from({ length: n }, (_, k) => (base + k) % n);
}

export function waitingHint(ctx) {
  const st = ctx.state;
  if (st.outcome) return ""; // the results panel says it, once
  if (!st.to_act.length) return t("table.between");
  const names = st.to_act.map(ctx.name).join(t("list.separator"));
  return t("table.waiting", { name: names });
}
