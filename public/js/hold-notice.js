// The notice a held draw shows (issue 36; docs/PROTOCOL.md `round`). In cluster mode a step of
// a draw reaches viewers only once Redis acknowledged it; until then the draw holds and no round
// comes. Frozen flips with no word look broken, so once the next step is clearly overdue the
// stage says, calmly, that the draw is waiting and will carry on by itself. It goes as soon as
// anything of the draw arrives (a round, a winner, the end), and is never a guess at the result.

import { byId, setText, show } from './dom.js';
import { serverNow } from './server-clock.js';
import { pausedText } from './words.js';

/** The least lateness shown as a pause: a busy server or a slow link is often that late. */
export const HOLD_MIN_MS = 1500;
/** Lateness as a multiple of the gap to the step: slow draws (long gaps) are allowed more. */
export const HOLD_GAPS = 3;

const el = { notice: byId('hold-notice'), announcer: byId('announcer') };
let state = null;
let step = null;     // the draw's nextStep the page last saw
let heardAt = null;  // when the page heard it, on the server's clock
let timer = 0;

/** How late the step after `gap` ms may be before the page says the draw is paused. */
export function holdAfterMs(gap) {
  return Math.max(HOLD_MIN_MS, HOLD_GAPS * gap);
}

/**
 * Server time from which state `s` shows the notice, null when it never does: only on the
 * room's own page (a stream overlay stays clean), connected (otherwise the reconnect banner
 * speaks), while a draw runs and its next step is due by the schedule (not while it waits for
 * the host, nor before a beacon draw's first flip, which waits for the beacon, not the cluster).
 */
export function pausedFrom(s, view, heard = null) {
  if (view !== 'page' || s.connection !== 'open' || s.phase !== 'live') return null;
  const { nextStep, awaitingHost, beaconRound, seenPicks } = s.draw;
  if (!nextStep || awaitingHost) return null;
  if (beaconRound !== null && beaconRound !== undefined && seenPicks.length === 0) return null;
  const from = nextStep.heard && Number.isFinite(heard) ? Math.max(nextStep.at, heard) : nextStep.at;
  return from + nextStep.gap + holdAfterMs(nextStep.gap);
}

/** Shows or hides the notice for state `s`, and wakes when it is due to show. */
export function renderHoldNotice(s) {
  state = s;
  const next = s.draw?.nextStep ?? null;
  if (next !== step) {
    step = next;
    heardAt = serverNow();
  }
  update();
}

function update() {
  clearTimeout(timer);
  const from = pausedFrom(state, document.body.dataset.view, heardAt);
  const left = from === null ? Infinity : from - serverNow();
  const paused = left <= 0;
  if (paused && el.notice.hidden) {
    setText(el.notice, pausedText);
    // Said once, in the page's one live region; the notice itself is not a live region, so
    // it is not read twice.
    setText(el.announcer, pausedText);
  }
  show(el.notice, paused);
  if (!paused && left !== Infinity) timer = setTimeout(update, left + 1);
}
