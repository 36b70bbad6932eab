// Pieces every renderer uses: reading the descriptor (zones, gestures), the hand, the hint
// line, rows of action buttons, switches over legal variants, seats around a table. Nothing
// here knows any game's rules or any game's id.

import { button, h } from "../dom.js";
import { cardName, has, list, t } from "../i18n.js";

export const CARD = /^[A2-9TJQK][SHDC]$/;
export const MARKS = ["●", "■", "▲", "◆", "★", "✚"]; // one shape per side: never colour alone

// The descriptor's first zone (or gesture) of a kind, and the view field a zone draws.
export function zone(ctx, kind) {
  return ctx.presentation.zones.find((z) => z.kind === kind) || null;
}
export function gesture(ctx, kind) {
  return ctx.presentation.gestures.find((g) => g.kind === kind) || null;
}
export function field(ctx, z) {
  return z ? ctx.view[z.field] : undefined;
}

// The own hand as {code, caption}: a view hand holds codes, or cards with a caption key.
export function handItems(ctx) {
  const items = field(ctx, zone(ctx, "hand"));
  if (!Array.isArray(items) || ctx.seat == null) return [];
  return items.map((x) => (typeof x === "string" ? { code: x, caption: null }
    : { code: x.card, caption: x.caption ? t(x.caption) : null }));
}

// A side's chip mark, coloured from the descriptor's seat colours (by side) when it has them.
export function sideMark(ctx, side, cls = "chip-mark") {
  const colour = ctx.presentation.seat_colours[side];
  return h("span", { class: [cls, `team-${side}`, colour && `colour-${colour}`], "aria-hidden": "true" },
    `${MARKS[side] ?? "◆"} `);
}

export function hint(message, extra = null) {
  return h("p", { class: "hint", id: "hint" }, message, extra);
}

// One button per action; `label(action)` names it. Every button sends its action unchanged.
export function actionRow(ctx, actions, label, opts = {}) {
  if (!actions.length && !opts.extra) return null;
  return h("div", { class: "actions", role: "group", "aria-label": opts.label || t("table.actions") },
    actions.map((a, i) => button(label(a), () => ctx.act(a), {
      class: opts.primary && opts.primary(a) ? "primary" : "",
      disabled: ctx.busy, "data-key": opts.key ? opts.key(a, i) : `act-${opts.prefix || ""}${i}-${JSON.stringify(a)}`,
      // The action itself, for tests' generic driver and assistive tools: what the tap sends.
      "data-action": JSON.stringify(a),
    })), opts.extra);
}

// A boolean field that splits otherwise alike actions ("alone": true or false) becomes one
// switch that picks between the legal variants: it never offers what the list does not hold.
// Returns the actions to show and the switches' elements.
export function switched(ctx, actions, labelOf) {
  const names = new Set(actions.flatMap((a) => Object.keys(a).filter((k) => typeof a[k] === "boolean")));
  let shown = actions;
  const toggles = [];
  for (const f of names) {
    const both = shown.some((a) => a[f] === true) && shown.some((a) => a[f] === false);
    const key = `switch-${f}`;
    const on = both ? !!ctx.ui[key] : shown.some((a) => a[f] === true);
    shown = shown.filter((a) => !(f in a) || a[f] === on);
    if (both) {
      toggles.push(h("label", { class: "check" },
        h("input", { type: "checkbox", checked: on, "data-key": f,
          onchange: (e) => { ctx.ui[key] = e.target.checked; ctx.rerender(); } }),
        h("span", null, labelOf(f))));
    }
  }
  return { shown, toggles };
}

// The legal actions whose `name` field is this card.
export function actionsFor(legal, code, name = "card") {
  return legal.filter((a) => a[name] === code);
}

// Seats around a table of n, from `me` (at the bottom) going round in play order.
export function around(n, me) {
  const base = me ?? 0;
  return Array.from({ length: n }, (_, k) => (base + k) % n);
}

export function waitingHint(ctx) {
  const st = ctx.state;
  if (ctx.seat == null) return t("table.spectating");
  if (st.outcome) return ""; // the results panel says it, once
  if (!st.to_act.length) return t("table.between");
  const names = st.to_act.map(ctx.name).join(t("list.separator"));
  return t("table.waiting", { name: names });
}

// A hook's part when the game has one, else the family's default.
export function part(ctx, name, fallback, ...args) {
  const f = ctx.hook[name];
  return f ? f(ctx, ...args) : fallback;
}

// -- words for what the host sends ------------------------------------------------------------
function readable(name) {
  return String(name).replaceAll("_", " ");
}

export function label(ctx, kind, name) {
  const key = `${ctx.game}.${kind}.${name}`;
  return has(key) ? t(key) : readable(name);
}

// A scalar as text: message keys the game sends are translated, cards are named.
export function scalar(ctx, v) {
  if (v === null || v === undefined) return "–";
  if (typeof v === "boolean") return v ? "✓" : "–";
  if (typeof v === "string" && CARD.test(v)) return cardName(v);
  if (typeof v === "string" && v.startsWith(`${ctx.game}.`) && has(v)) return t(v);
  return String(v);
}

// An action's button text: the game's own string, else its type and its fields' values.
export function describe(ctx, action) {
  const { type, ...fields } = action;
  const key = `${ctx.game}.action.${type}`;
  const args = Object.fromEntries(Object.entries(fields).map(([k, v]) =>
    [k, Array.isArray(v) ? list(v.map((x) => scalar(ctx, x))) : scalar(ctx, v)]));
  if (has(key)) return t(key, args);
  const parts = Object.values(args);
  return parts.length ? `${readable(type)}: ${parts.join(", ")}` : readable(type);
}

// A button's text: the hook's, else the generic description (`<game>.action.<type>`).
export function actionLabel(ctx, a) {
  return part(ctx, "label", null, a) || describe(ctx, a);
}

// The game's own word for something when its catalogue has one, else the shell's.
export function own(ctx, name, shellKey) {
  return has(`${ctx.game}.${name}`) ? `${ctx.game}.${name}` : shellKey;
}
