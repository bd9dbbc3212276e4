// The 3-2-1 before round 1: the seconds left until `startedAt + offsetsMs[0]` on the server's
// clock, so every viewer (and one who joins during the countdown) shows the same second.

import { byId, setText, show } from './dom.js';
import { serverNow } from './server-clock.js';

const el = { countdown: byId('countdown') };
let dueAt = null; // server time of round 1 while counting down, else null
let timer = null;

/** Counts down for a running draw that has a countdown and no round yet; stops otherwise. */
export function renderCountdown(draw) {
  // Only before the draw's very first flip, not before each next winner's (FAIRNESS.md §5a).
  const counting = draw !== null && draw.countdownMs > 0 && draw.seenPicks.length === 0;
  const due = counting ? draw.startedAt + draw.firstOffsetMs : null;
  if (due === dueAt) return;
  dueAt = due;
  clearTimeout(timer);
  tick();
}

function tick() {
  const left = dueAt === null ? 0 : dueAt - serverNow();
  show(el.countdown, left > 0);
  if (left <= 0) {
    setText(el.countdown, '');
    return;
  }
  setText(el.countdown, String(Math.ceil(left / 1000)));
  // Wake at the next whole second before round 1 (a millisecond late, so it has passed).
  timer = setTimeout(tick, ((left - 1) % 1000) + 1);
}
