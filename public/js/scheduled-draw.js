// Scheduled draws (issue 30, PROTOCOL.md §5.8): everyone sees "Draw at 18:00" with a countdown
// to it while a draw waits for its time, and its commitment (published when it was scheduled);
// the host schedules one for a time picked in their own time zone, or cancels it.

import { byId, setText, show } from './dom.js';
import { hostRequest } from './host-api.js';
import { showOutcome } from './panel-lines.js';
import { serverNow } from './server-clock.js';

const el = {
  stage: byId('scheduled-draw'), when: byId('scheduled-when'), left: byId('scheduled-left'),
  proof: byId('scheduled-proof'),
  form: byId('schedule-form'), at: byId('schedule-at'), atLabel: byId('schedule-at-label'), submit: byId('schedule-button'),
  cancel: byId('schedule-cancel'), status: byId('schedule-status'), error: byId('schedule-error'),
  detail: byId('schedule-error-detail'),
};
const lines = { status: el.status, error: el.error, detail: el.detail };
const BUSY_PHASES = new Set(['loading', 'live']);

let shown = null; // the scheduled draw on the stage: {drawId, at}
let ticking = null;
let sending = false;

/** "18:00" (with the day when it is not today), in the viewer's own time zone. */
export function scheduledTimeText(at, now = Date.now()) {
  const when = new Date(at);
  const time = when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (when.toDateString() === new Date(now).toDateString()) return time;
  return `${when.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' })}, ${time}`;
}

/** "in 4:05", "in 2 h 05 min", "in 3 days"; "any moment now" once its time came. */
export function timeLeftText(ms) {
  if (ms <= 0) return 'any moment now';
  const s = Math.ceil(ms / 1000);
  if (s < 3600) return `in ${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  const h = Math.floor(s / 3600);
  if (h < 48) return `in ${h} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
  return `in ${Math.floor(h / 24)} days`;
}

export function setUpScheduledDraw({ room, hostKey, dispatch }) {
  el.form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (sending) return;
    // A datetime-local value is the host's own local time; the server takes RFC 3339 (UTC here).
    const at = el.at.value ? new Date(el.at.value) : null;
    if (!at || Number.isNaN(at.getTime())) return showOutcome(lines, '', 'Pick a day and a time first.');
    await send(room, hostKey, dispatch, 'PUT', JSON.stringify({ at: at.toISOString() }), 'Scheduled.');
  });
  el.cancel.addEventListener('click', async () => {
    if (sending) return;
    await send(room, hostKey, dispatch, 'DELETE', undefined, 'Cancelled: its seed is revealed in the draw history.');
  });
}

async function send(room, hostKey, dispatch, method, body, done) {
  sending = true;
  showOutcome(lines, method === 'PUT' ? 'Scheduling…' : 'Cancelling…');
  const answer = await hostRequest(room, '/schedule', hostKey, { method, body });
  sending = false;
  if (!answer.ok) {
    showOutcome(lines, '', answer.error.message, answer.error);
    if (answer.error.code === 'forbidden') dispatch({ type: 'host-error', error: answer.error });
    return;
  }
  showOutcome(lines, done);
  dispatch({ type: 'room-changed', what: 'scheduled', answer: method === 'PUT' ? answer.body : null });
}

export function renderScheduledDraw(s) {
  const scheduled = s.connection === 'record' ? null : s.scheduled;
  const onStage = scheduled !== null && !BUSY_PHASES.has(s.phase);
  show(el.stage, onStage);
  if (onStage) {
    setText(el.when, `Draw at ${scheduledTimeText(scheduled.at)}`);
    setText(el.proof, `The ${scheduled.entrants === 1 ? 'entrant is' : `${scheduled.entrants} entrants are`} fixed. `
      + `Commitment ${scheduled.commitment.slice(0, 12)}…, list ${scheduled.entrantsHash.slice(0, 12)}…`
      // With a beacon (FAIRNESS.md §10.1) the round is committed now too: nobody knows it until then.
      + (Number.isInteger(scheduled.beacon?.round) ? `, beacon round ${scheduled.beacon.round}` : ''));
  }
  const next = onStage ? { drawId: scheduled.drawId, at: scheduled.at } : null;
  if (next?.drawId !== shown?.drawId) {
    shown = next;
    clearTimeout(ticking);
    tick();
  }
  // The host's control: schedule one when none waits, cancel the one that does.
  show(el.form, s.isHost);
  if (!s.isHost) return;
  for (const part of [el.at, el.atLabel, el.submit]) show(part, scheduled === null);
  show(el.cancel, scheduled !== null);
  if (!el.at.min) el.at.min = localInputValue(new Date(Date.now() + 60_000));
}

/** The countdown line, once a second while a draw waits. */
function tick() {
  if (!shown) return setText(el.left, '');
  const left = shown.at - serverNow();
  setText(el.left, timeLeftText(left));
  if (left > 0) ticking = setTimeout(tick, ((left - 1) % 1000) + 1);
}

/** `yyyy-MM-ddTHH:mm` in local time, the form a datetime-local input takes. */
function localInputValue(d) {
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}
