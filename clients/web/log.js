// The table's social part on the phone: the game log (in this seat's own words, as the box
// tells it from this seat's views), the score sheet (scores by side after each scored hand),
// and reactions (a fixed set of emotes, shown beside the seat that sent them for a few
// seconds). Owns the log and the sheet between states and the reactions on show.
//
// It never makes up a log line: entries come from the box's `history` answer, and between
// answers from each state's `common.last` (the game's own words for the last move, exactly
// what the box would add); for a game without them, or when the scores move, it asks the box
// again. It never sends free text: a reaction is one of EMOTES by id.

import { button, h } from "./dom.js";
import { cardName, has, list, suitName, t } from "./i18n.js";

export const EMOTES = [
  ["thumbs_up", "👍"], ["clap", "👏"], ["laugh", "😂"], ["wow", "😮"], ["think", "🤔"], ["oops", "😬"],
];
const EMOJI = Object.fromEntries(EMOTES);
const SHOW_MS = 4000; // how long a reaction stays beside its seat
const CARD = /^[A2-9TJQK][SHDC]$/;

const L = {
  table: null, // the table the log is of
  known: false, // a history answer arrived for this table since the last reset
  version: -1, // the table version the log goes up to
  entries: [], // [{version, text: {key, args}}]
  rows: [], // [{version, scores}]
  teams: [],
  scores: null, // common.scores of the last state seen (JSON), to notice a scored hand
  outcome: false,
  asking: false, // a history request is in flight
  again: false, // ask once more when it is answered
  open: null, // "log" | "scores" | "react" | null: the panel shown
  scroll: { top: 0, atEnd: true }, // where the reader left the log
  reactions: new Map(), // seat -> {emote, until}
};

// Forget everything (another table, a reconnect): the next state asks the box afresh.
export function reset() {
  Object.assign(L, { table: null, known: false, version: -1, entries: [], rows: [], teams: [],
    scores: null, outcome: false, asking: false, again: false });
  L.reactions.clear();
}

function ask(send) {
  if (L.asking) {
    L.again = true;
    return;
  }
  L.asking = true;
  send({ type: "history", table: L.table });
}

function captionText(cap) {
  return { key: cap.key, args: Object.fromEntries(cap.args || []) };
}

// A new state: keep the log going from its caption, or ask the box when it cannot.
export function onState(st, send) {
  if (st.table !== L.table) {
    reset();
    L.table = st.table;
  }
  const c = st.common;
  const scores = c ? JSON.stringify(c.scores) : null;
  const rematch = L.outcome && !st.outcome;
  const scored = (L.scores !== null && scores !== L.scores) || (!!st.outcome && !L.outcome);
  L.scores = scores;
  L.outcome = !!st.outcome;
  if (!L.known || rematch || st.version < L.version) {
    ask(send);
    return;
  }
  if (st.version <= L.version) return;
  const last = c && c.last ? captionText(c.last) : null;
  const prev = L.entries.length ? JSON.stringify(L.entries[L.entries.length - 1].text) : null;
  if (last && JSON.stringify(last) !== prev) L.entries.push({ version: st.version, text: last });
  L.version = st.version;
  if (!last || scored) ask(send);
}

export function onHistory(msg, send) {
  L.asking = false;
  if (msg.table !== L.table) return;
  Object.assign(L, { known: true, version: msg.version, entries: msg.entries, rows: msg.rows, teams: msg.teams });
  if (L.again) {
    L.again = false;
    ask(send);
  }
}

export function onHistoryRefused() {
  L.asking = false;
  L.again = false;
}

// A reaction notice: show it beside its seat, then take it away. The seat strip is patched
// in place (a whole redraw would replay the table's animations); the next redraw agrees.
export function onReaction(args) {
  if (!EMOJI[args.emote] || typeof args.seat !== "number") return;
  const until = Date.now() + SHOW_MS;
  L.reactions.set(args.seat, { emote: args.emote, until });
  paint(args.seat);
  setTimeout(() => {
    const r = L.reactions.get(args.seat);
    if (r && r.until === until) {
      L.reactions.delete(args.seat);
      paint(args.seat);
    }
  }, SHOW_MS + 20);
}

function paint(seat) {
  const name = document.querySelector(`.seats .seat[data-seat="${seat}"] .seat-name`);
  if (!name) return;
  name.querySelectorAll(".reaction").forEach((el) => el.remove());
  const shown = seatReaction(seat);
  if (shown) name.append(shown);
}

export const emoteLabel = (emote) => t(`emote.${emote}`);

// The reaction on show beside a seat in the seat strip, if any.
export function seatReaction(seat) {
  const r = L.reactions.get(seat);
  if (!r || r.until < Date.now()) return null;
  return h("span", { class: "reaction", role: "img", "aria-label": emoteLabel(r.emote), "data-emote": r.emote }, EMOJI[r.emote]);
}

// An entry in the reader's language: seats named as the table shows them, cards and the
// game's own keys translated.
export function entryText(ctx, text) {
  const raw = text.args || {};
  const args = {};
  for (const [k, v] of Object.entries(raw)) {
    if (typeof v !== "string") args[k] = v;
    else if (CARD.test(v)) args[k] = cardName(v);
    else if (k === "suit" && /^[SHDC]$/.test(v)) args[k] = suitName(v);
    else if (v.includes(".") && has(v)) args[k] = t(v);
    else args[k] = v;
  }
  if (typeof raw.seat === "number" && args.name == null) args.name = ctx.name(raw.seat);
  if (typeof raw.cards === "string") args.cards = list(raw.cards.split(" ").filter(Boolean).map(cardName));
  if (typeof raw.action === "string") args.action = t(raw.action, args);
  return t(text.key, args);
}

function toggle(which, ctx) {
  L.open = L.open === which ? null : which;
  ctx.rerender();
}

// The three buttons of the top bar: the log, the score sheet, the reactions.
export function bar(ctx) {
  const b = (which, icon, label) => h("button", {
    type: "button", class: ["icon-button", "social-toggle", L.open === which && "on"], "data-key": `social-${which}`,
    "aria-expanded": L.open === which ? "true" : "false", "aria-controls": "social-panel",
    "aria-label": label, title: label, onclick: () => toggle(which, ctx),
  }, h("span", { "aria-hidden": "true" }, icon));
  // Text symbols, not emoji, like the settings gear: every phone's and the box's own fonts
  // draw them the same (an emoji font is not on every device), VS15 asking for text style.
  return h("div", { class: "social-bar" },
    b("log", "☰", t("social.log")), b("scores", "▤", t("social.scores")),
    ctx.seat != null ? b("react", "☺\uFE0E", t("social.reactions")) : null);
}

function sideNames(ctx, side) {
  return list(L.teams.map((team, seat) => (team === side ? ctx.name(seat) : null)).filter((x) => x !== null));
}

// The game's own score sheet (common.sheet, engine/presentation.py Sheet: Wizard's bids,
// tricks and points per round), latest round first so the one just scored is on top.
function gameSheet(ctx, sheet) {
  // Isolated: a cell of numbers ("2/1 +20 40", "-10") reads left to right in Arabic too, a
  // name or a word in its own direction.
  const say = (cap) => {
    const text = entryText(ctx, captionText(cap));
    return h("bdi", { dir: /\p{L}/u.test(text) ? "auto" : "ltr" }, text);
  };
  const row = (cells, tag) => h("tr", null, cells.map((c, i) => h(i ? tag : "th", i ? null : { scope: "row" }, say(c))));
  return h("table", { class: "sheet-table game-sheet" },
    sheet.legend ? h("caption", null, say(sheet.legend)) : null,
    h("thead", null, h("tr", null, sheet.heads.map((c) => h("th", { scope: "col" }, say(c))))),
    h("tbody", null, [...sheet.rows].reverse().map((r) => row(r, "td"))),
    sheet.totals && sheet.totals.length ? h("tfoot", null, row(sheet.totals, "td")) : null);
}

// The score sheet: the game's own when it sends one; else one row per scored hand (the last
// one "End" once the game is over), one column per side, the same table the kiosk draws
// (clients/kiosk/social.py).
export function scoreSheet(ctx) {
  const own = ctx.state.common && ctx.state.common.sheet;
  if (own) return gameSheet(ctx, own);
  if (!L.rows.length) return h("p", { class: "muted" }, t("social.empty_scores"));
  const sides = L.rows[0].scores.map((_, side) => side);
  const mySide = ctx.seat != null ? L.teams[ctx.seat] : null;
  const over = !!ctx.state.outcome;
  return h("table", { class: "sheet-table" },
    h("thead", null, h("tr", null, h("th", { scope: "col" }, t("social.hand")),
      sides.map((side) => h("th", { scope: "col", class: side === mySide ? "mine" : "" }, sideNames(ctx, side))))),
    h("tbody", null, L.rows.map((r, i) => h("tr", null,
      h("th", { scope: "row" }, over && i === L.rows.length - 1 ? t("social.final") : String(i + 1)),
      r.scores.map((sc, side) => h("td", { class: side === mySide ? "mine" : "" }, String(sc)))))));
}

function logList(ctx) {
  if (!L.entries.length) return h("p", { class: "muted" }, t("social.empty_log"));
  const ol = h("ol", { class: "log-list", id: "log-list", tabindex: "0", "aria-label": t("social.log"),
    onscroll: (e) => {
      const el = e.target;
      L.scroll = { top: el.scrollTop, atEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 4 };
    } },
  L.entries.map((e) => h("li", { "data-version": String(e.version) }, entryText(ctx, e.text))));
  return ol;
}

function emoteRow(ctx) {
  return h("div", { class: "emotes", role: "group", "aria-label": t("social.reactions") },
    EMOTES.map(([id, emoji]) => h("button", {
      type: "button", class: "emote", "data-key": `emote-${id}`, "aria-label": t("social.react_as", { emote: emoteLabel(id) }),
      title: emoteLabel(id), disabled: ctx.busy, onclick: () => ctx.send({ type: "react", table: ctx.state.table, emote: id }),
    }, emoji)));
}

// The open panel, over the bottom of the table (so it never moves the hand), or null.
export function panel(ctx) {
  if (!L.open || (L.open === "react" && ctx.seat == null)) return null;
  const title = { log: "social.log", scores: "social.scores", react: "social.reactions" }[L.open];
  return h("section", { class: "social-panel card-panel", id: "social-panel", "data-panel": L.open, "aria-labelledby": "social-title" },
    h("div", { class: "row" }, h("h2", { id: "social-title" }, t(title)),
      button("✕", () => toggle(L.open, ctx), { class: "quiet", "data-key": "social-close", "aria-label": t("settings.close") })),
    L.open === "log" ? logList(ctx) : L.open === "scores" ? scoreSheet(ctx) : emoteRow(ctx));
}

// After the table was drawn: put the log back where the reader left it (at the newest entry
// unless they scrolled up to read).
export function mounted() {
  const el = document.getElementById("log-list");
  if (!el) return;
  el.scrollTop = L.scroll.atEnd ? el.scrollHeight : L.scroll.top;
}
