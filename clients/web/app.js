// The shell of the web client: lobby, join, seats, turn and timer, connection state, settings,
// results and rematch, reconnection, announcements. Each game's board is drawn by its
// family's renderer (games/<family>.js), which gets the view, the legal actions and the
// game's presentation descriptor the host sent.
//
// The client never decides what is legal: every intent it sends is one of the `legal`
// actions of the latest state, sent back exactly as received, with that state's version.

import { button, h, replace } from "./dom.js";
import { LANGS, inEnglish, language, list, loadGame, setLanguage, t, text } from "./i18n.js";
import * as social from "./log.js";
import { Link } from "./net.js";
import { Follower } from "./patch.js";
import * as settingsStore from "./settings.js";
import * as sound from "./sound.js";

// One renderer per family (engine/presentation.py), chosen by the descriptor the host sends
// with each state, never by game id; a family renderer that cannot draw a descriptor, and a
// family with no renderer, fall back to the generic one (the view shown readably, every legal
// action a button: games/generic.js).
const FAMILIES = {
  trick_taking: () => import("./games/trick_taking.js"),
  shedding: () => import("./games/shedding.js"),
  grid_board: () => import("./games/grid_board.js"),
};
const GENERIC = () => import("./games/generic.js");
// A game's own small part of its family's drawing (games/hooks/<id>.js), where it has one.
const HOOKS = {
  checkers: () => import("./games/hooks/checkers.js"),
  chess: () => import("./games/hooks/chess.js"),
  sequence: () => import("./games/hooks/sequence.js"),
  euchre: () => import("./games/hooks/euchre.js"),
  president: () => import("./games/hooks/president.js"),
  kaiser: () => import("./games/hooks/kaiser.js"),
  wizard: () => import("./games/hooks/wizard.js"),
};
const NO_PRESENTATION = { family: "generic", zones: [], gestures: [], seat_colours: [] };
const renderers = {}; // game -> {family, hook, presentation}

const SEATS_KEY = "tablebox.seats"; // {tableId: {token, code, name, seat}}
const CURRENT_KEY = "tablebox.current"; // the table this browser is seated at
const WATCH_KEY = "tablebox.watching"; // the table this browser is watching
const NAME_KEY = "tablebox.name";
// Bye reasons after which reconnecting by ourselves cannot help: the page must be reloaded.
const FINAL_BYE = /unsupported_protocol/;

let follower = new Follower(); // the latest state of each table, from states and patches

const S = {
  settings: settingsStore.load(),
  conn: "connecting",
  welcome: null,
  reloadWanted: false, // the box runs a newer release than this page
  tables: null,
  table: null, // the table id shown
  seat: null,
  state: null,
  prev: null,
  pending: false,
  requests: new Map(), // id -> what it was for
  takenOver: null, // the notice Text when another tab took the seat
  fatal: null, // a bye after which only a reload helps
  rematchAsked: false,
  deadlineAt: null,
  ui: {}, // per-game scratch state (selections), reset on each intent and table change
  announced: "",
  lobbyError: null,
  screen: "", // what render() drew last: "lobby" or "table-<id>"; a new one starts at the top
  pendingJoin: null,
  // A reload with a seat shows "Connecting…", not the lobby, until the seat is back.
  resuming: !!localStorage.getItem(CURRENT_KEY),
  joinName: null, // what is typed in the join form (null: not shown yet)
  joinSeat: "",
  joinCode: new URLSearchParams(location.search).get("code") || "",
  catalogue: null, // the box's `catalogue`: what a player may open here (null: nothing)
  inviteOnState: null, // the table just opened: show its invite once its state arrives
};

const $ = (id) => document.getElementById(id);

// -- storage -------------------------------------------------------------------------------------
function seats() {
  try { return JSON.parse(localStorage.getItem(SEATS_KEY) || "{}"); } catch { return {}; }
}
function remember(table, entry) {
  const all = seats();
  all[table] = { ...(all[table] || {}), ...entry };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  localStorage.setItem(CURRENT_KEY, table);
  localStorage.removeItem(WATCH_KEY);
}
function forget(table) {
  const all = seats();
  delete all[table];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
  if (localStorage.getItem(CURRENT_KEY) === table) localStorage.removeItem(CURRENT_KEY);
}

// -- the link -------------------------------------------------------------------------------------
const link = new Link({
  onOpen: () => {
    follower = new Follower(); // a new link starts with full states
    request({ type: "hello", protocol: 2, client: "web", lang: language() }, "hello");
  },
  onMessage: (msg) => receive(msg),
  onStatus: (status) => {
    S.conn = status;
    renderConn();
    renderOverlay();
  },
});

function request(msg, purpose) {
  const id = link.send(msg);
  if (id !== null) S.requests.set(id, purpose);
  return id;
}

function afterWelcome() {
  if (S.takenOver) return; // the seat is played elsewhere: only "Play here" takes it back
  const all = seats();
  const code = S.joinCode.trim().toUpperCase();
  // A join link for a table we already sit at returns to that seat; a link for another table
  // shows its join form (the other seats stay remembered); no link returns to the last seat.
  const byCode = code ? Object.keys(all).find((id) => all[id].token && (all[id].code || "").toUpperCase() === code) : null;
  const current = code ? byCode : localStorage.getItem(CURRENT_KEY);
  const entry = current ? all[current] : null;
  if (entry && entry.token) {
    S.resuming = true;
    request({ type: "resume", token: entry.token }, { resume: current });
    return;
  }
  S.resuming = false;
  const watching = localStorage.getItem(WATCH_KEY);
  if (watching && !code) {
    request({ type: "spectate", table: watching }, { watch: watching });
    return;
  }
  request({ type: "list_tables" }, "tables");
}

function receive(msg) {
  const purpose = msg.re != null ? S.requests.get(msg.re) : undefined;
  if (msg.re != null) S.requests.delete(msg.re);
  switch (msg.type) {
    case "welcome":
      // The box came back as another release: this page is the old one's.
      if (S.welcome && S.welcome.release && msg.release && msg.release !== S.welcome.release) {
        S.reloadWanted = true;
      }
      S.welcome = msg;
      social.reset(); // a new link: the log is asked for again with the next state
      link.pingAfter = (msg.ping_after || 5) * 1000;
      link.deadAfter = (msg.dead_after || 25) * 1000;
      afterWelcome();
      reloadWhenIdle();
      break;
    case "catalogue":
      S.catalogue = msg;
      if (!S.table) render();
      break;
    case "tables":
      S.tables = msg.tables;
      // Whether a table may be opened changes with the number open: ask again with each list.
      if (![...S.requests.values()].includes("games")) request({ type: "games" }, "games");
      // Each game's title is in its own catalogue: fetch those the list names, then draw.
      Promise.all([...new Set(msg.tables.map((tb) => tb.game))].map(loadGame))
        .catch(() => {}).then(() => { if (!S.table) render(); });
      break;
    case "joined":
      if (purpose && purpose.open) S.inviteOnState = msg.table;
      // A resume is answered without the token (it is never echoed): keep the one we have.
      remember(msg.table, { seat: msg.seat, ...(msg.token ? { token: msg.token } : {}), ...(S.pendingJoin || {}) });
      S.pendingJoin = null;
      if (S.table !== msg.table) S.ui = {};
      S.table = msg.table;
      S.seat = msg.seat;
      break;
    case "state":
      onState(follower.state(msg));
      break;
    case "history":
      social.onHistory(msg, askSocial);
      // Only the social parts: redrawing the table would replay its card animations.
      if (S.state && S.table === msg.table) renderSocial();
      break;
    case "patch": {
      // Protocol 2: what changed since the state this link was sent last (patch.js).
      const { state, sync } = follower.patch(msg);
      if (sync) request({ type: "sync", table: msg.table }, purpose);
      if (state) onState(state);
      break;
    }
    case "rejected":
      onRejected(msg, purpose);
      break;
    case "notice":
      onNotice(msg);
      break;
    case "bye":
      onBye(msg);
      break;
    default:
      break;
  }
}

// After an update of the box, reload the page at its next idle moment: never while this page
// holds a seat in a game still being played, nor with an intent in flight. The seat survives
// the reload (its token is in localStorage), so a finished game or the lobby is a safe moment.
function reloadWhenIdle() {
  if (!S.reloadWanted) return;
  const st = S.state;
  const midGame = S.seat != null && st && st.status === "playing" && !st.outcome;
  if (midGame || S.pending) return;
  S.reloadWanted = false;
  location.reload();
}

function onState(msg) {
  if (S.table && msg.table !== S.table) return;
  S.resuming = false;
  if (!S.table) {
    S.table = msg.table;
    S.ui = {};
  }
  S.prev = S.state;
  S.state = msg;
  S.seat = msg.seat;
  S.pending = false;
  S.deadlineAt = msg.deadline != null ? Date.now() + msg.deadline * 1000 : null;
  if (!msg.outcome) S.rematchAsked = false;
  settingsStore.apply(S.settings, msg.ai_speed ?? 1);
  const entry = seats()[msg.table];
  if (entry && msg.code && entry.code !== msg.code) remember(msg.table, { code: msg.code });
  social.onState(msg, askSocial);
  loadRenderer(msg.game, msg.presentation).then(() => {
    render();
    if (S.inviteOnState === msg.table) {
      // Just opened: the sheet gives way to the table's QR code, to show the others.
      S.inviteOnState = null;
      import("./opener.js").then((o) => o.close());
      if (msg.code) invite(msg);
    }
    announceState();
    reloadWhenIdle();
  });
}

// The log's own requests (history); a refusal just means "not at that table any more".
function askSocial(msg) {
  request(msg, "social");
}

function onRejected(msg, purpose) {
  if (purpose === "social") {
    social.onHistoryRefused();
    return;
  }
  if (purpose !== "react") S.pending = false; // a refused emote says nothing of a move in flight
  const lost = ["bad_token", "unknown_table", "table_closed", "not_seated"];
  if (purpose && purpose.resume) S.resuming = false;
  if (purpose && purpose.resume && lost.includes(msg.code)) {
    forget(purpose.resume);
    S.table = null;
    S.state = null;
    // Say why the seat is gone (released after seat_release_after, or the table archived).
    S.lobbyError = msg.code === "bad_token" ? t("lobby.seat_gone") : t(`error.${msg.code}`);
    request({ type: "list_tables" }, "tables");
    render();
    return;
  }
  if (purpose && purpose.resume && msg.code === "table_damaged") {
    // Not lost: the box keeps the table and this seat's token (a later version may replay
    // it), so the seat stays remembered; the lobby shows meanwhile, with the reason.
    S.table = null;
    S.state = null;
    request({ type: "list_tables" }, "tables");
  }
  if (purpose && purpose.watch) {
    localStorage.removeItem(WATCH_KEY);
    S.table = null;
    request({ type: "list_tables" }, "tables");
  }
  const message = msg.message ? serverText(msg.message) : t(`error.${msg.code}`);
  if (purpose === "games") {
    S.catalogue = null; // an older box, which cannot open tables for players
    return;
  }
  if (purpose && purpose.open) {
    S.pendingJoin = null;
    import("./opener.js").then((o) => o.showError(message));
    return;
  }
  if (purpose && purpose.join) {
    S.lobbyError = message;
    render();
    return;
  }
  if (msg.code === "stale_version") return; // the newer state is on its way
  toast(message, "error");
  announce(message, true);
  render();
}

// Server text names seats by number; say the name the table shows instead.
function serverText(msg) {
  const args = { ...(msg.args || {}) };
  if (typeof args.seat === "number" && !args.name) args.name = seatName(args.seat);
  return text({ key: msg.key, args });
}

function onNotice(msg) {
  if (msg.table != null && msg.table !== S.table) return;
  const key = msg.text.key;
  const mine = msg.text.args && msg.text.args.seat === S.seat && S.seat != null;
  if (key === "notice.reaction") {
    // Shown beside the seat for a few seconds, not as a message; said to screen readers.
    social.onReaction(msg.text.args || {});
    announce(t("social.reacted", { name: seatName(msg.text.args.seat), emote: social.emoteLabel(msg.text.args.emote) }));
    return;
  }
  const message = serverText(msg.text);
  if (key === "notice.taken_over" && mine) {
    // Another tab (or device) resumed this seat: stay put until the player asks to play here.
    S.takenOver = msg.text;
    renderOverlay();
    return;
  }
  if ((key === "notice.kicked" || key === "notice.left") && mine) {
    forget(S.table);
    S.table = null;
    S.state = null;
    S.prev = null;
    S.lobbyError = key === "notice.kicked" ? message : null;
    request({ type: "list_tables" }, "tables");
    render();
    return;
  }
  toast(message, "info");
  announce(message);
}

function onBye(msg) {
  const reason = msg.reason || { key: "bye.unknown", args: {} };
  if (FINAL_BYE.test(reason.key)) {
    S.fatal = reason;
    link.stop();
  } else {
    toast(serverText(reason), "info");
  }
  renderOverlay();
}

// -- actions --------------------------------------------------------------------------------------
function act(action) {
  if (!S.state || S.pending || !link.open) return;
  sound.unlock();
  S.pending = true;
  S.ui = {}; // selections belong to the state they were made in
  request({ type: "intent", table: S.state.table, version: S.state.version, action }, "intent");
  render();
}

function join(code, name, seat) {
  code = code.trim().toUpperCase();
  name = name.trim();
  if (!code || !name) {
    S.lobbyError = t(!code ? "lobby.need_code" : "lobby.need_name");
    render();
    return;
  }
  sound.unlock();
  localStorage.setItem(NAME_KEY, name);
  S.lobbyError = null;
  const msg = { type: "join", code, name };
  if (seat !== "" && seat != null) msg.seat = Number(seat);
  S.pendingJoin = { code, name };
  request(msg, { join: code });
}

// The "Open a table" sheet (opener.js, loaded on first use): the box answers an `open` as a
// join, so what follows (joined, the state) is the join's path; the QR invite then shows.
async function openSheet() {
  sound.unlock();
  const opener = await import("./opener.js");
  const player = S.joinName || localStorage.getItem(NAME_KEY) || "";
  await opener.show(S.catalogue, player, (msg) => {
    localStorage.setItem(NAME_KEY, msg.player);
    S.joinName = msg.player;
    S.pendingJoin = { name: msg.player };
    request(msg, { open: msg.game });
  });
}

function watch(tableId) {
  localStorage.setItem(WATCH_KEY, tableId);
  localStorage.removeItem(CURRENT_KEY);
  S.ui = {};
  S.table = tableId;
  request({ type: "spectate", table: tableId }, { watch: tableId });
}

function leave() {
  if (!S.state) return;
  if (S.seat != null) request({ type: "leave", table: S.state.table }, "leave");
  forget(S.state.table);
  localStorage.removeItem(WATCH_KEY);
  S.table = null;
  S.state = null;
  S.prev = null;
  S.ui = {};
  history.replaceState(null, "", location.pathname);
  S.joinCode = "";
  if (link.open) request({ type: "list_tables" }, "tables");
  render();
}

function rematch() {
  if (!S.state) return;
  S.rematchAsked = true;
  request({ type: "rematch", table: S.state.table }, "rematch");
  render();
}

// -- rendering: chrome ------------------------------------------------------------------------
function renderConn() {
  const el = $("conn");
  el.dataset.state = S.conn;
  const key = { open: "conn.online", connecting: "conn.connecting", reconnecting: "conn.reconnecting",
    closed: "conn.offline" }[S.conn];
  el.querySelector(".label").textContent = t(key);
}

function renderOverlay() {
  const el = $("overlay");
  let body = null;
  if (S.fatal) {
    body = [
      h("p", { id: "overlay-text" }, serverText(S.fatal)),
      button(t("overlay.reload"), () => location.reload(), { class: "primary", "data-key": "reload" }),
    ];
  } else if (S.takenOver) {
    body = [
      h("p", { id: "overlay-text" }, serverText(S.takenOver)),
      button(t("overlay.play_here"), playHere,
        { class: "primary", "data-key": "play-here" }),
    ];
  } else if (S.conn !== "open" && S.table) {
    body = [h("div", { class: "spinner", "aria-hidden": "true" }),
      h("p", { id: "overlay-text" }, t("overlay.reconnecting"))];
  }
  if (!body) {
    el.hidden = true;
    el.replaceChildren();
    return;
  }
  el.hidden = false;
  el.setAttribute("role", S.takenOver || S.fatal ? "alertdialog" : "status");
  el.setAttribute("aria-labelledby", "overlay-text");
  replace(el, h("div", { class: "overlay-box" }, body));
  const b = el.querySelector("button");
  if (b) b.focus();
}

function playHere() {
  S.takenOver = null;
  if (link.open) afterWelcome();
  else link.resume();
  renderOverlay();
}

let toastTimer = null;
function toast(message, kind = "info") {
  const el = $("toast");
  el.textContent = message;
  el.dataset.kind = kind;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 4000);
}

function announce(message, urgent = false) {
  const el = $(urgent ? "live-assertive" : "live-polite");
  el.textContent = "";
  // A fresh text node in a later frame makes screen readers speak a repeated phrase too.
  requestAnimationFrame(() => { el.textContent = message; });
}

function seatName(i) {
  const s = S.state && S.state.seats.find((x) => x.seat === i);
  if (!s) return t("table.seat_n", { n: i + 1 });
  return s.name || t("table.seat_n", { n: i + 1 });
}

function myTurn() {
  return !!(S.state && S.seat != null && S.state.to_act.includes(S.seat) && S.state.legal.length);
}

function announceState() {
  const st = S.state;
  const describeLast = drawer(st.game, "describeLast");
  const last = describeLast ? describeLast(context()) : "";
  const wasMine = S.prev && S.prev.table === st.table && S.seat != null && S.prev.to_act.includes(S.seat);
  if (last && last !== S.announced) {
    S.announced = last;
    announce(last);
  }
  if (st.outcome && !(S.prev && S.prev.outcome)) {
    announce(`${t("results.heading")}. ${verdict(st.outcome)}`, true);
    sound.play("end", S.settings.sound);
  } else if (myTurn() && !wasMine) {
    announce(t("table.your_turn"), true);
    sound.play("turn", S.settings.sound);
  } else if (S.prev && S.prev.version !== st.version) {
    sound.play("move", S.settings.sound);
  }
}

function context() {
  const st = S.state;
  return {
    state: st, view: st.view, legal: st.legal, seat: S.seat, game: st.game,
    myTurn: myTurn(), busy: S.pending || S.conn !== "open", seats: st.seats,
    prev: S.prev && S.prev.table === st.table ? S.prev : null,
    name: seatName, act, ui: S.ui, rerender: render,
    presentation: renderers[st.game] ? renderers[st.game].presentation : NO_PRESENTATION,
    hook: renderers[st.game] ? renderers[st.game].hook : {},
  };
}

async function loadRenderer(game, presentation) {
  await loadGame(game);
  // Chosen once per game; a state without a descriptor (an older box) keeps what is known.
  const known = renderers[game];
  if (known && (known.presentation !== NO_PRESENTATION || !presentation)) return;
  const p = presentation || NO_PRESENTATION;
  const load = FAMILIES[p.family];
  let family = load ? await load() : null;
  let hook = family && HOOKS[game] ? await HOOKS[game]() : {};
  if (!family || !family.canDraw(p, hook)) [family, hook] = [await GENERIC(), {}];
  renderers[game] = { family, hook, presentation: p, drawn: family.canDraw ? p.family : "generic" };
}

// A drawing part (describeLast, teamMark, seatBadges, scoreTable): the game's hook's if it
// has one, else its family's; null when neither draws it.
function drawer(game, name) {
  const r = renderers[game];
  if (!r) return null;
  return r.hook[name] || r.family[name] || null;
}

// -- rendering: screens -----------------------------------------------------------------------
function render() {
  $("title").textContent = S.state ? tableTitle(S.state.name, S.state.game) : t("app.title");
  document.title = S.state ? `${$("title").textContent} · tablebox` : "tablebox";
  $("settings-open").querySelector(".label").textContent = t("settings.heading");
  renderConn();
  renderOverlay();
  const main = $("main");
  const screen = S.state && S.table ? `table-${S.table}` : S.table || S.resuming ? "loading" : "lobby";
  if (screen === "loading") replace(main, h("p", { class: "loading" }, t("conn.connecting")));
  else replace(main, screen === "lobby" ? lobbyScreen() : tableScreen());
  // Another screen starts at its top: the lobby scrolled down to its Join button must not
  // leave the table's status line above the fold.
  if (screen !== S.screen && screen !== "loading") {
    main.scrollTop = 0; // #main scrolls by itself on a phone on its side
    window.scrollTo(0, 0);
  }
  if (screen !== "loading") S.screen = screen;
  renderSocial();
}

// A table named after its game (the host's default, in English) shows the game's name in the
// reader's language; a table someone named keeps its name.
function tableTitle(name, game) {
  const title = t(`${game}.name`);
  if (!name || name === inEnglish(`${game}.name`) || name === title) return title;
  return `${name} · ${title}`;
}

function lobbyScreen() {
  // The form is rebuilt whenever the table list changes: what the player typed lives in S.
  if (S.joinName === null) S.joinName = localStorage.getItem(NAME_KEY) || "";
  const name = S.joinName;
  const codeInput = h("input", {
    id: "join-code", name: "code", value: S.joinCode, autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", maxlength: "16", required: true, "data-key": "join-code",
    "aria-describedby": S.lobbyError ? "join-error" : undefined,
  });
  const nameInput = h("input", {
    id: "join-name", name: "name", value: name, autocomplete: "nickname", maxlength: "24",
    required: true, "data-key": "join-name",
  });
  nameInput.addEventListener("input", () => { S.joinName = nameInput.value; });
  const known = (S.tables || []).find((x) => x.code.toUpperCase() === S.joinCode.toUpperCase());
  const seatSelect = known ? h("select", { id: "join-seat", name: "seat", "data-key": "join-seat",
    onchange: (e) => { S.joinSeat = e.target.value; } },
    h("option", { value: "" }, t("lobby.any_seat")),
    known.seats.filter((s) => s.controller === "ai").map((s) =>
      h("option", { value: String(s.seat), selected: S.joinSeat === String(s.seat) },
        t("lobby.seat_option", { n: s.seat + 1, name: s.name || t("table.ai") })))) : null;
  const form = h("form", {
    class: "join card-panel", onsubmit: (e) => {
      e.preventDefault();
      S.joinCode = codeInput.value;
      join(codeInput.value, nameInput.value, seatSelect ? seatSelect.value : "");
    },
  },
  h("h2", null, S.joinCode ? t("lobby.join_code", { code: S.joinCode.toUpperCase() }) : t("lobby.heading")),
  h("label", { for: "join-code" }, t("lobby.code")), codeInput,
  h("label", { for: "join-name" }, t("lobby.name")), nameInput,
  seatSelect ? [h("label", { for: "join-seat" }, t("lobby.choose_seat")), seatSelect] : null,
  S.lobbyError ? h("p", { id: "join-error", class: "error", role: "alert" }, S.lobbyError) : null,
  h("button", { type: "submit", class: "primary", "data-key": "join-submit", disabled: S.conn !== "open" },
    t("lobby.join")));
  codeInput.addEventListener("input", () => {
    const before = !!known;
    S.joinCode = codeInput.value;
    const now = (S.tables || []).some((x) => x.code.toUpperCase() === S.joinCode.toUpperCase());
    if (now !== before) render();
  });
  if (S.joinCode && !name) queueMicrotask(() => nameInput.focus());

  const tables = S.tables;
  const listing = h("section", { class: "tables card-panel", "aria-labelledby": "tables-title" },
    h("div", { class: "row" },
      h("h2", { id: "tables-title" }, t("lobby.tables")),
      button(t("lobby.refresh"), () => request({ type: "list_tables" }, "tables"),
        { class: "quiet", "data-key": "refresh", disabled: S.conn !== "open" })),
    tables === null ? h("p", null, t("conn.connecting"))
      : tables.length === 0 ? h("p", null, t(S.catalogue && S.catalogue.open ? "lobby.no_tables_open" : "lobby.no_tables"))
        : h("ul", { class: "table-list" }, sortedTables(tables).map(tableItem)));
  const opening = S.catalogue && S.catalogue.open
    ? h("div", { class: "open-table card-panel" },
      button(t("lobby.open"), openSheet, { class: "primary", "data-key": "open-table", disabled: S.conn !== "open" }))
    : null;
  // data-opening says what the page knows (tests and screenshots wait for it): "open" with
  // the action shown, "closed" when the box said no, "unknown" before it answered.
  const opens = S.catalogue ? (S.catalogue.open ? "open" : "closed") : "unknown";
  return h("div", { class: "lobby", "data-opening": opens }, opening, form, listing);
}

// Tables with a free seat first, then games in play, then finished ones; closed ones not at all.
function sortedTables(tables) {
  const rank = (tb) => (tb.status === "playing" ? (tb.free_seats > 0 ? 0 : 1) : 2);
  return tables.filter((tb) => tb.status !== "closed").sort((a, b) => rank(a) - rank(b));
}

function tableItem(tb) {
  const free = tb.free_seats;
  return h("li", { class: "table-item" },
    h("div", { class: "table-head" },
      h("strong", null, tableTitle(tb.name, tb.game)),
      h("span", { class: "muted" }, ` · ${t("lobby.code_is", { code: tb.code })}`)),
    h("div", { class: "muted" }, tb.status === "playing"
      ? `${t(`lobby.status.${tb.status}`)} · ${t("lobby.free_seats", { n: free })}` : t(`lobby.status.${tb.status}`)),
    h("div", { class: "row" },
      tb.status === "playing" && free > 0 ? button(t("lobby.take_seat"), () => {
        S.joinCode = tb.code;
        render();
        const n = $("join-name");
        if (n.value.trim()) join(tb.code, n.value, "");
        else n.focus();
      }, { class: "primary", "data-key": `join-${tb.id}` }) : null,
      button(t("lobby.watch"), () => watch(tb.id), { "data-key": `watch-${tb.id}` })));
}

function seatStrip(st) {
  const teamMark = drawer(st.game, "teamMark");
  const seatBadges = drawer(st.game, "seatBadges");
  return h("ol", { class: "seats", "aria-label": t("table.seats") }, st.seats.map((s) => {
    const acting = st.to_act.includes(s.seat) && !st.outcome;
    const badges = [];
    if (s.seat === S.seat) badges.push(h("span", { class: "badge you" }, t("table.you")));
    if (s.controller === "ai") {
      const level = t("table.ai_level", { level: t(`level.${s.level}`) });
      badges.push(h("span", { class: "badge ai", title: level, "aria-label": level }, t("table.ai")));
    }
    else if (s.covered) badges.push(h("span", { class: "badge covered" }, t("table.covering")));
    if (s.controller === "human" && !s.connected) badges.push(h("span", { class: "badge offline" }, `⚠ ${t("table.offline")}`));
    const team = teamMark ? teamMark(s.team, context()) : null;
    if (seatBadges) badges.push(...seatBadges(s.seat, context()));
    const count = st.view.hand_counts ? st.view.hand_counts[s.seat] : null;
    return h("li", { class: ["seat", acting && "acting", s.seat === S.seat && "mine"], "data-seat": String(s.seat) },
      h("span", { class: "seat-name" }, acting ? h("span", { class: "turn-mark", "aria-label": t("table.to_play") }, "▶ ") : null,
        team, s.name || t("table.seat_n", { n: s.seat + 1 }), social.seatReaction(s.seat)),
      h("span", { class: "seat-info" }, badges,
        count != null ? h("span", { class: "count" }, t("table.cards", { n: count })) : null,
        acting && S.deadlineAt ? h("span", { class: "timer", "data-timer": "1" }, timerText()) : null));
  }));
}

function timerText() {
  const left = Math.max(0, Math.ceil((S.deadlineAt - Date.now()) / 1000));
  return `⏱ ${t("table.seconds", { s: left })}`;
}

// Who won, said to this seat: "You won", "You lost: Ana won.", or the winners to a watcher.
function verdict(o) {
  const winners = o.winners.map(seatName);
  if (o.draw || !winners.length) return t("results.draw");
  return t(o.winners.includes(S.seat) ? "results.you_won"
    : S.seat != null ? "results.you_lost" : "results.winners", { names: list(winners) });
}

function statusLine(st) {
  // "Game over" is the results panel's heading; the status line says who won instead.
  if (st.outcome) return verdict(st.outcome);
  if (st.paused) return t("table.paused");
  if (S.seat == null) return t("table.spectating");
  if (myTurn()) return t("table.your_turn");
  if (st.to_act.length) return t("table.waiting", { name: list(st.to_act.map(seatName)) });
  return t("table.between");
}

function tableScreen() {
  const st = S.state;
  const r = renderers[st.game];
  const header = h("div", { class: "table-bar" },
    h("p", { class: ["status", myTurn() && "mine"], id: "status" }, statusLine(st)),
    h("div", { class: "row" },
      st.code ? button(t("table.invite"), () => invite(st), { class: "quiet", "data-key": "invite" }) : null,
      button(S.seat == null ? t("table.stop_watching") : t("table.leave"), () => {
        if (S.seat == null || confirm(t("table.leave_confirm"))) leave();
      }, { class: "quiet", "data-key": "leave" })));
  const family = r ? r.family : null;
  const area = h("div", { class: ["game", `game-${st.game}`, r && `family-${r.drawn}`, S.pending && "busy"],
    id: "game", "data-version": String(st.version) },
  family ? family.render(context()) : h("p", null, t("table.unknown_game", { game: st.game })));
  return h("div", { class: "table-screen" }, header, seatStrip(st), area,
    st.outcome ? results(st) : null);
}

// The log, scores and reactions buttons live in the top bar, which every screen has anyway:
// there they cost the table no height, so the hand stays where it was.
// The open panel lies over the table in a root of its own, so opening it, or a log line
// arriving, never redraws (or moves) the table.
function renderSocial() {
  let slot = $("social-slot");
  if (!slot) {
    slot = h("span", { id: "social-slot", class: "social-slot" });
    $("settings-open").before(slot);
  }
  let root = $("social-root");
  if (!root) {
    root = h("div", { id: "social-root" });
    $("main").after(root);
  }
  const at = S.state && S.table ? socialContext() : null;
  replace(slot, at ? social.bar(at) : null);
  replace(root, at ? social.panel(at) : null);
  social.mounted();
}

// What the log, the sheet and the reactions need of the shell (clients/web/log.js).
function socialContext() {
  return { state: S.state, seat: S.seat, name: seatName, rerender: renderSocial, busy: S.conn !== "open",
    send: (msg) => request(msg, "react") };
}

function results(st) {
  const o = st.outcome;
  const scoreTable = drawer(st.game, "scoreTable");
  const reason = o.reason ? t(o.reason) : "";
  return h("section", { class: "results card-panel", role: "region", "aria-labelledby": "results-title" },
    h("h2", { id: "results-title" }, t("results.heading")),
    h("p", { class: "winners" }, verdict(o)),
    reason ? h("p", { class: "muted" }, reason) : null,
    scoreTable ? scoreTable(context()) : h("table", { class: "scores" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, t("results.player")), h("th", { scope: "col" }, t("results.score")))),
      h("tbody", null, o.scores.map((sc, i) => h("tr", { class: o.winners.includes(i) ? "won" : "" },
        h("th", { scope: "row" }, seatName(i), i === S.seat ? h("span", { class: "badge you" }, t("table.you")) : null,
          o.winners.includes(i) ? ` 🏆` : ""), h("td", null, String(sc)))))),
    h("div", { class: "row" },
      S.seat != null ? button(S.rematchAsked ? t("results.rematch_asked") : t("results.rematch"), rematch,
        { class: "primary", "data-key": "rematch", disabled: S.rematchAsked }) : null,
      button(t("results.back"), leave, { "data-key": "back" })));
}

function invite(st) {
  const dlg = h("dialog", { class: "invite", "aria-labelledby": "invite-title" },
    h("h2", { id: "invite-title" }, t("table.invite_title", { code: st.code })),
    h("img", { src: `qr.svg?code=${encodeURIComponent(st.code)}`, alt: t("table.qr_alt", { code: st.code }), width: "240", height: "240" }),
    h("p", null, t("table.invite_text", { code: st.code })),
    (S.welcome && S.welcome.join_urls && S.welcome.join_urls.length)
      ? h("p", { class: "url", dir: "ltr" }, `${S.welcome.join_urls[0].replace(/\/$/, "")}/?code=${st.code}`) : null,
    h("form", { method: "dialog" }, h("button", { class: "primary", "data-key": "invite-close" }, t("settings.close"))));
  dlg.addEventListener("close", () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
}

// -- settings ------------------------------------------------------------------------------------
function renderSettings() {
  const s = S.settings;
  const dlg = $("settings");
  const check = (key, label) => h("label", { class: "check" },
    h("input", { type: "checkbox", checked: !!s[key], "data-key": `set-${key}`, onchange: (e) => update({ [key]: e.target.checked }) }),
    h("span", null, label));
  replace(dlg,
    h("h2", { id: "settings-title" }, t("settings.heading")),
    h("label", { for: "set-lang" }, t("settings.language")),
    h("select", { id: "set-lang", "data-key": "set-lang", onchange: (e) => update({ lang: e.target.value }) },
      Object.entries(LANGS).map(([code, l]) => h("option", { value: code, selected: code === s.lang, lang: code }, l.name))),
    check("sound", t("settings.sound")),
    h("label", { for: "set-anim" }, t("settings.animation")),
    h("select", { id: "set-anim", "data-key": "set-anim", onchange: (e) => update({ animation: e.target.value }) },
      Object.keys(settingsStore.ANIMATION).map((k) => h("option", { value: k, selected: k === s.animation }, t(`settings.anim.${k}`)))),
    check("fourColour", t("settings.four_colour")),
    check("largeCards", t("settings.large_cards")),
    h("form", { method: "dialog" }, h("button", { class: "primary", "data-key": "settings-close" }, t("settings.close"))));
}

async function update(change) {
  const langChanged = change.lang && change.lang !== S.settings.lang;
  S.settings = { ...S.settings, ...change };
  settingsStore.save(S.settings);
  settingsStore.apply(S.settings, S.state ? S.state.ai_speed ?? 1 : 1);
  if (langChanged) {
    await setLanguage(S.settings.lang);
  }
  renderSettings();
  render();
}

// -- start ---------------------------------------------------------------------------------------
async function start() {
  // The button is in the page before its strings arrive: a tap that early still opens the
  // settings, once the language is loaded (a listener added after the fetch missed it).
  const strings = setLanguage(S.settings.lang);
  $("settings-open").addEventListener("click", async () => {
    sound.unlock();
    await strings;
    renderSettings();
    $("settings").showModal();
  });
  await strings;
  settingsStore.apply(S.settings);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") link.check();
  });
  window.addEventListener("online", () => link.check());
  window.addEventListener("pageshow", (e) => { if (e.persisted) link.check(); });
  // The turn timer ticks between states without redrawing the table.
  setInterval(() => {
    document.querySelectorAll("[data-timer]").forEach((el) => { el.textContent = timerText(); });
  }, 1000);
  render();
  link.connect();
}

start();
