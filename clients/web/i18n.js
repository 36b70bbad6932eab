// Translation: the shell's catalogues (i18n/<lang>.json) and each game's one catalogue
// (strings/<game>/<lang>.json, the same files the kiosk and the terminal read), `t(key, args)`,
// and card names and faces.
// Server text arrives as {key, args}; error codes as `code.<code>`. A key missing from the
// chosen language falls back to English, then to a readable form of the key itself, so a
// newer server never shows a blank. Never decides anything about a game.

export const LANGS = {
  en: { name: "English", dir: "ltr" },
  fr: { name: "Français", dir: "ltr" },
  ar: { name: "العربية", dir: "rtl" },
};

let lang = "en";
let table = {};
let english = {};
const games = new Set(); // the games whose catalogues are merged in

async function fetchCatalogue(code) {
  const r = await fetch(`i18n/${code}.json`);
  if (!r.ok) throw new Error(`catalogue ${code}: ${r.status}`);
  return r.json();
}

// A game's catalogue in one language; a game without one (yet) has none: its keys then show
// in their readable form.
async function fetchGame(game, code) {
  const r = await fetch(`strings/${encodeURIComponent(game)}/${code}.json`);
  return r.ok ? r.json() : {};
}

export async function setLanguage(code) {
  if (!LANGS[code]) code = "en";
  if (!Object.keys(english).length) english = await fetchCatalogue("en");
  table = code === "en" ? english : await fetchCatalogue(code);
  lang = code;
  for (const game of games) Object.assign(table, await fetchGame(game, code));
  document.documentElement.lang = code;
  document.documentElement.dir = LANGS[code].dir;
}

// Merge in one game's strings (once per game; again for each language change).
export async function loadGame(game) {
  if (games.has(game)) return;
  games.add(game);
  Object.assign(english, await fetchGame(game, "en"));
  if (lang !== "en") Object.assign(table, await fetchGame(game, lang));
}

export function language() {
  return lang;
}

export function defaultLanguage() {
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const code = l.slice(0, 2).toLowerCase();
    if (LANGS[code]) return code;
  }
  return "en";
}

// The English text of a key, to recognise a server default (a table named after its game).
export function inEnglish(key) {
  return english[key];
}

export function has(key) {
  return key in table || key in english;
}

export function t(key, args = {}) {
  let s = table[key] ?? english[key];
  if (s === undefined) {
    // An unknown key (a newer server): its last part, readable, with its arguments.
    const tail = key.split(".").pop().replaceAll("_", " ");
    const extra = Object.values(args).join(", ");
    return extra ? `${tail}: ${extra}` : tail;
  }
  return s.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
}

// A server Text ({key, args}); its string arguments may themselves be message keys.
export function text(msg) {
  if (!msg) return "";
  const args = {};
  for (const [k, v] of Object.entries(msg.args || {})) {
    args[k] = typeof v === "string" && v.includes(".") && has(v) ? t(v) : v;
  }
  return t(msg.key, args);
}

// Cards are two characters: rank A 2-9 T J Q K, suit S H D C.
export const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function rankFace(rank, game) {
  const special = `face.${game}.${rank}`;
  return has(special) ? t(special) : t(`face.${rank}`);
}

export function cardName(code) {
  if (code === "XX") return t("card.corner");
  return t("card.name", { rank: t(`rank.${code[0]}`), suit: t(`suit.${code[1]}`) });
}

export function suitName(suit) {
  return t(`suit.${suit}`);
}

export function list(items) {
  return items.join(t("list.separator"));
}
