// Player settings kept in this browser: language, sound, animation speed, deck colours, card size.
// Applying a setting only changes classes and CSS variables on <html>; renderers read none.

import { defaultLanguage } from "./i18n.js";

const KEY = "tablebox.settings";
export const ANIMATION = { off: 0, slow: 1.6, normal: 1, fast: 0.5 };

const defaults = () => ({
  lang: defaultLanguage(), sound: true, animation: "normal", fourColour: false, largeCards: false,
});

export function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { ...defaults(), ...saved };
  } catch {
    return defaults();
  }
}

export function save(s) {
  localStorage.setItem(KEY, JSON.stringify(s));
}

// aiSpeed scales animations with the host's pacing (0 in tests: nothing moves).
export function apply(s, aiSpeed = 1) {
  const root = document.documentElement;
  root.classList.toggle("four-colour", !!s.fourColour);
  root.classList.toggle("large-cards", !!s.largeCards);
  const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  const scale = reduce ? 0 : (ANIMATION[s.animation] ?? 1) * Math.min(1, Math.max(0, aiSpeed));
  root.style.setProperty("--anim", `${Math.round(300 * scale)}ms`);
  root.classList.toggle("no-anim", scale === 0);
}
