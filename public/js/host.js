// The host's controls: the Start button, the answers to it, and the merge warnings of the
// running draw. Only shown on the host link (`#key=` in the fragment).

import { byId, setText, show } from './dom.js';
import { hostRequest } from './host-api.js';
import { chosenReveal } from './reveals.js';

const el = {
  panel: byId('host-panel'), start: byId('start-button'), error: byId('host-error'),
  hint: byId('host-hint'), revoked: byId('host-revoked'),
  warningsBox: byId('warnings-box'), warnings: byId('warnings'),
};

const BUSY = new Set(['loading', 'live']);
// aria-disabled rather than disabled: a disabled button drops keyboard focus to <body>.
let busy = false;

/**
 * Wires the Start button. The start goes over the open WebSocket (its `error` answers arrive
 * as messages); when the socket is down it falls back to the HTTP API.
 */
export function setUpHost({ room, hostKey, connection, dispatch }) {
  el.start.addEventListener('click', async () => {
    if (busy) return;
    dispatch({ type: 'start-requested' });
    // How several winners are revealed (PROTOCOL.md `start`); a one-winner draw ignores it.
    const reveal = chosenReveal();
    if (connection.send({ type: 'start', hostKey, reveal })) return;
    const error = await startOverHttp(room, hostKey, reveal);
    if (error) dispatch({ type: 'host-error', error });
  });
}

/** POST /api/rooms/ROOM/draws; null on success, else {code, message}. */
async function startOverHttp(room, hostKey, reveal) {
  const answer = await hostRequest(room, '/draws', hostKey, { method: 'POST', body: JSON.stringify({ reveal }) });
  return answer.ok ? null : answer.error;
}

export function renderHost(s) {
  show(el.panel, s.isHost || s.hostRevoked);
  renderRevoked(s);
  if (!s.isHost) {
    busy = true; // a revoked key starts nothing
    return;
  }
  // A lost connection disables Start too: the page cannot tell what the room is doing.
  const cutOff = s.connection === 'retrying';
  busy = BUSY.has(s.phase) || s.startPending || s.connection === 'unknown-room' || cutOff;
  el.start.setAttribute('aria-disabled', String(busy));
  // The lobby draws from the server's sample names; a host's own giveaway is a room of its own.
  setText(el.hint, s.room === 'lobby'
    ? "This is the lobby's host link: Start draws from the server's sample names. For your own names, make a giveaway room."
    : 'You opened the private host link of this room.');
  setText(el.start, s.startPending ? 'Starting…' : cutOff ? 'Reconnecting…'
    : busy ? 'Draw in progress' : 'Start the draw');
  show(el.error, s.hostError !== null);
  if (s.hostError) {
    setText(el.error, s.hostError.message);
    el.error.dataset.code = s.hostError.code;
  }
  // Not while the draw runs: a box of "void entry" and "unknown user" lines there would tell the
  // audience on a projected page which names cannot win. The Entrants panel sums them up before.
  show(el.warningsBox, s.warnings.length > 0 && !BUSY.has(s.phase));
  renderWarnings(s);
}

/**
 * The server refused the key: say so where the host's controls were, and move focus there
 * (the Start button that had it is gone).
 */
function renderRevoked(s) {
  const wasShown = !el.revoked.hidden;
  show(el.revoked, s.hostRevoked);
  for (const part of [el.hint, el.start]) show(part, !s.hostRevoked);
  if (s.hostRevoked) {
    show(el.error, false);
    show(el.warningsBox, false);
    if (!wasShown) el.revoked.focus();
  }
}

// A big list may bring thousands of warnings; the first few say what kind, the Entrants panel
// sums them all up by kind.
const SHOWN_WARNINGS = 10;

function renderWarnings(s) {
  const items = s.warnings.slice(0, SHOWN_WARNINGS).map((w) => {
    const li = document.createElement('li');
    li.textContent = w.message;
    li.dataset.code = w.code;
    return li;
  });
  const more = s.warnings.length - items.length;
  if (more > 0) items.push(Object.assign(document.createElement('li'), { textContent: `…and ${more.toLocaleString('en')} more.` }));
  el.warnings.replaceChildren(...items);
}
