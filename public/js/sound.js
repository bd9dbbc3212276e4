// Optional sound (off by default): a tick per flip and a chord on the result, synthesised with
// the Web Audio API, so there is nothing to download. The choice is remembered per browser.
// Browsers start audio only after a user gesture, and so does this page: the AudioContext is
// made on the first click or key press after sound was switched on, never before. The one
// exception is asked for in the address: `sound=on` (the stream overlay's opt-in, issue 28 item
// 4) arms it at once, because a streaming tool's browser source never gets a click and allows
// audio without one (OBS does). `body[data-sound]` says where it stands: off, waiting, armed.

import { byId, setText } from './dom.js';

const KEY = 'live-draw.sound';
const el = { toggle: byId('sound-toggle') };
let on = false;
let audio = null; // the AudioContext, once a gesture allowed it

export function setUpSound() {
  const asked = new URLSearchParams(location.search).get('sound') === 'on';
  on = asked || readChoice();
  renderToggle();
  if (asked) wake(); // no gesture to wait for in a browser source; where audio is not allowed, it stays waiting
  el.toggle.addEventListener('click', () => {
    on = !on;
    try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch { /* private mode: this visit only */ }
    renderToggle();
    if (on) wake();
  });
  // Sound switched on in an earlier visit starts with the first gesture of this one.
  for (const type of ['pointerdown', 'keydown']) addEventListener(type, () => { if (on) wake(); }, { passive: true });
}

/** Plays what a state change calls for: a tick on a new round, a chord on a result. */
export function playFor(prev, s) {
  if (!on || audio === null) return;
  // Every flip of the draw counts (each winner's own flips start again at 1, FAIRNESS.md §5a).
  const same = prev.phase === 'live' && prev.draw?.drawId === s.draw?.drawId;
  const rounds = s.phase === 'live' ? s.draw.seenPicks.length : 0;
  const before = same ? prev.draw.seenPicks.length : 0;
  if (rounds > before) tick();
  // A winner of several revealed: the chord, as for a result.
  if (same && s.phase === 'live' && s.draw.revealed.length > prev.draw.revealed.length
      && s.draw.next !== 'finished') chord([523.25, 659.25, 783.99]);
  if (s.phase === 'result' && prev.result?.record.drawId !== s.result.record.drawId) {
    chord(s.result.record.outcome === 'void' ? [220, 261.63, 311.13] : [523.25, 659.25, 783.99]);
  }
}

function readChoice() {
  try { return localStorage.getItem(KEY) === 'on'; } catch { return false; }
}

function renderToggle() {
  el.toggle.setAttribute('aria-pressed', String(on));
  setText(el.toggle, on ? 'Sound on' : 'Sound off');
  renderArmed();
}

/** Called from a user gesture only: that is when browsers let audio start. */
function wake() {
  const Context = globalThis.AudioContext ?? globalThis.webkitAudioContext;
  if (!Context) return;
  if (audio === null) {
    audio = new Context();
    audio.addEventListener('statechange', renderArmed);
  }
  if (audio.state === 'suspended') audio.resume().catch(() => {});
  renderArmed();
}

function renderArmed() {
  document.body.dataset.sound = !on ? 'off' : audio?.state === 'running' ? 'armed' : 'waiting';
}

function tone(frequency, start, duration, volume, type = 'sine') {
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  oscillator.type = type;
  oscillator.frequency.value = frequency;
  // A quick attack and an exponential fade: no click at either end.
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
  oscillator.connect(gain).connect(audio.destination);
  oscillator.start(start);
  oscillator.stop(start + duration + 0.02);
}

function tick() {
  tone(1200, audio.currentTime, 0.05, 0.15, 'square');
}

function chord(frequencies) {
  const t = audio.currentTime;
  frequencies.forEach((f, i) => tone(f, t + i * 0.06, 1.2, 0.2, 'triangle'));
}
