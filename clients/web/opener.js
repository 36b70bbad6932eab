// The "Open a table" sheet: choose a game and its options, name the table, choose a turn
// timer, and send one `open` (docs/protocol.md, "Opening a table"). Loaded only when a person
// taps "Open a table", so the lobby a joining phone loads stays as small as it was.
//
// Owns the sheet's form and nothing else: the catalogue (games, option specs, timers) is the
// box's `catalogue` answer, every word comes from the string catalogues (`<game>.name`,
// `<game>.option.<name>[.<choice>]`, the shell's `opener.*`), and the box checks every value:
// this never decides what is allowed beyond offering what the box listed.

import { button, h, replace } from "./dom.js";
import { has, loadGame, t } from "./i18n.js";

let dialog = null;
let form = null; // {game, players, options: {name: value}, name, nameEdited, timer, player}
let redrawSheet = () => {};

// Show the sheet. `submit(msg)` sends the `open` message; the page calls `showError` with a
// refusal's text and `close` once the table is joined.
export async function show(catalogue, player, submit) {
  await Promise.all(catalogue.games.map((g) => loadGame(g.id).catch(() => {})));
  const first = catalogue.games[0];
  form = {
    game: first.id, players: first.default_players, options: {}, name: t(`${first.id}.name`),
    nameEdited: false, timer: catalogue.turn_timer, player, error: null,
  };
  close();
  dialog = h("dialog", { class: "opener", "aria-labelledby": "opener-title" });
  const mine = dialog;
  mine.addEventListener("close", () => { mine.remove(); if (dialog === mine) dialog = null; });
  document.body.append(dialog);
  draw(catalogue, submit);
  dialog.showModal();
  dialog.querySelector("#open-game").focus({ preventScroll: true });
}

export function showError(message) {
  if (!dialog || !form) return;
  form.error = message;
  form.busy = false;
  redrawSheet();
}

export function close() {
  if (dialog) dialog.close();
}

export function isOpen() {
  return !!dialog;
}

function optionLabel(game, name) {
  const key = `${game}.option.${name}`;
  return has(key) ? t(key) : name.replaceAll("_", " ");
}

function choiceLabel(game, name, choice) {
  const key = `${game}.option.${name}.${choice}`;
  return has(key) ? t(key) : choice;
}

function timerLabel(s) {
  if (!s) return t("opener.timer_off");
  return s % 60 === 0 ? t("opener.minutes", { m: s / 60 }) : t("table.seconds", { s });
}

// One control per option, labelled from the game's catalogue: a switch for a yes/no, a list
// for a choice, a number field for a count (empty where the rules may decide).
function optionControl(game, spec) {
  const id = `opt-${spec.name}`;
  const value = spec.name in form.options ? form.options[spec.name] : spec.default;
  const set = (v) => {
    if (v === spec.default) delete form.options[spec.name];
    else form.options[spec.name] = v;
  };
  const label = optionLabel(game, spec.name);
  if (spec.kind === "bool") {
    return h("label", { class: "check" },
      h("input", { type: "checkbox", id, checked: !!value, "data-key": id, "data-option": spec.name,
        onchange: (e) => set(e.target.checked) }), h("span", null, label));
  }
  if (spec.kind === "choice") {
    return [h("label", { for: id }, label),
      h("select", { id, "data-key": id, "data-option": spec.name, onchange: (e) => set(e.target.value) },
        spec.choices.map((c) => h("option", { value: c, selected: c === value }, choiceLabel(game, spec.name, c))))];
  }
  return [h("label", { for: id }, label),
    h("input", { type: "number", id, inputmode: "numeric", "data-key": id, "data-option": spec.name,
      min: spec.minimum ?? undefined, max: spec.maximum ?? undefined,
      value: value == null ? "" : String(value), placeholder: spec.nullable ? t("opener.auto") : undefined,
      oninput: (e) => {
        const raw = e.target.value.trim();
        set(raw === "" ? (spec.nullable ? null : spec.default) : Number(raw));
      } })];
}

function draw(catalogue, submit) {
  const redraw = () => draw(catalogue, submit);
  redrawSheet = redraw;
  const game = catalogue.games.find((g) => g.id === form.game) || catalogue.games[0];
  const nameInput = h("input", { id: "open-name", "data-key": "open-name", maxlength: "24",
    value: form.name, autocomplete: "off",
    oninput: (e) => { form.name = e.target.value; form.nameEdited = true; } });
  const playerInput = h("input", { id: "open-player", "data-key": "open-player", maxlength: "24",
    value: form.player, autocomplete: "nickname", required: true,
    oninput: (e) => { form.player = e.target.value; } });
  const send = (e) => {
    e.preventDefault();
    if (form.busy) return;
    if (!form.player.trim()) {
      form.error = t("lobby.need_name");
      redraw();
      return;
    }
    form.error = null;
    form.busy = true;
    const msg = { type: "open", game: game.id, player: form.player.trim(), options: { ...form.options },
      name: form.name.trim(), turn_timer: form.timer };
    if (form.players !== game.default_players) msg.players = form.players;
    submit(msg);
    redraw();
  };
  replace(dialog,
    h("form", { class: "opener-form", onsubmit: send },
      h("h2", { id: "opener-title" }, t("opener.title")),
      h("label", { for: "open-game" }, t("opener.game")),
      h("select", { id: "open-game", "data-key": "open-game", onchange: (e) => {
        const next = catalogue.games.find((g) => g.id === e.target.value);
        form.game = next.id;
        form.options = {};
        form.players = next.default_players;
        if (!form.nameEdited) form.name = t(`${next.id}.name`);
        redraw();
      } }, catalogue.games.map((g) => h("option", { value: g.id, selected: g.id === game.id },
        has(`${g.id}.name`) ? t(`${g.id}.name`) : g.title))),
      h("label", { for: "open-name" }, t("opener.name")), nameInput,
      h("label", { for: "open-player" }, t("lobby.name")), playerInput,
      game.players.length > 1 ? [h("label", { for: "open-players" }, t("opener.players")),
        h("select", { id: "open-players", "data-key": "open-players",
          onchange: (e) => { form.players = Number(e.target.value); } },
        game.players.map((n) => h("option", { value: String(n), selected: n === form.players }, String(n))))] : null,
      h("label", { for: "open-timer" }, t("opener.timer")),
      h("select", { id: "open-timer", "data-key": "open-timer",
        onchange: (e) => { form.timer = Number(e.target.value); } },
      catalogue.turn_timers.map((s) => h("option", { value: String(s), selected: s === form.timer }, timerLabel(s)))),
      game.options.length ? h("fieldset", { class: "options" },
        h("legend", null, t("opener.options")),
        game.options.map((spec) => h("div", { class: "option" }, optionControl(game.id, spec)))) : null,
      form.error ? h("p", { id: "open-error", class: "error", role: "alert" }, form.error) : null,
      h("div", { class: "row sheet-actions" },
        button(t("opener.cancel"), () => close(), { "data-key": "open-cancel" }),
        h("button", { type: "submit", class: "primary", "data-key": "open-submit", disabled: !!form.busy },
          t("opener.open")))));
}
