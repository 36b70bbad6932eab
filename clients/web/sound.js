// Short synthesised cues (Web Audio): no sound files to download. Silent until the page has
// had a user gesture (browsers require it) and whenever the setting is off.

let ctx = null;

export function unlock() {
  if (ctx) return;
  const AC = window.AudioContext || window.webkitAudioContext;
  if (AC) ctx = new AC();
}

function tone(freq, at, dur, gain = 0.08) {
  const osc = ctx.createOscillator();
  const g = ctx.createGain();
  osc.frequency.value = freq;
  g.gain.setValueAtTime(gain, at);
  g.gain.exponentialRampToValueAtTime(0.0001, at + dur);
  osc.connect(g).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + dur);
}

export function play(kind, enabled) {
  if (!enabled || !ctx || ctx.state !== "running") return;
  const now = ctx.currentTime;
  if (kind === "turn") {
    tone(660, now, 0.12);
    tone(880, now + 0.13, 0.16);
  } else if (kind === "move") {
    tone(420, now, 0.06, 0.04);
  } else if (kind === "end") {
    tone(523, now, 0.15);
    tone(659, now + 0.15, 0.15);
    tone(784, now + 0.3, 0.3);
  }
}
