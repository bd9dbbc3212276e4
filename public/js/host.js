// The host's controls: the Start button, the answers to it, and the merge warnings of the
// running draw. Only shown on the host link (`#key=` in the fragment).

import { byId, setText, show } from './dom.js';

const el = {
  panel: byId('host-panel'), start: byId('start-button'), error: byId('host-error'),
  hint: byId('host-hint'), revoked: byId('host-revoked'),
  warningsBox: byId('warnings-box'), warnings: byId('warnings'),
  entrantCount: byId('entrant-count'), allVoid: byId('all-void'),
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
    if (connection.send({ type: 'start', hostKey })) return;
    const error = await startOverHttp(room, hostKey);
    if (error) dispatch({ type: 'host-error', error });
  });
}

/** POST /api/rooms/ROOM/draws; null on success, else {code, message}. */
async function startOverHttp(room, hostKey) {
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(room)}/draws`, {
      // Every API POST must say it is JSON (415 otherwise), even with no body.
      method: 'POST', headers: { Authorization: `Bearer ${hostKey}`, 'Content-Type': 'application/json' },
    });
    if (res.ok) return null;
    const body = await res.json().catch(() => null);
    return body?.error ?? { code: `http_${res.status}`, message: `The server answered ${res.status}.` };
  } catch {
    return { code: 'unreachable', message: "Can't reach the live-draw server." };
  }
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
  setText(el.start, s.startPending ? 'Starting…' : cutOff ? 'Reconnecting…'
    : busy ? 'Draw in progress' : 'Start the draw');
  show(el.error, s.hostError !== null);
  if (s.hostError) {
    setText(el.error, s.hostError.message);
    el.error.dataset.code = s.hostError.code;
  }
  show(el.warningsBox, s.warnings.length > 0);
  renderWarnings(s);
  renderEntrants(s);
}

/** The room's own list before a draw: its size, and a warning when no entry can win. */
function renderEntrants(s) {
  const list = s.entrants;
  show(el.entrantCount, list !== null);
  if (list) setText(el.entrantCount, `${list.count.toLocaleString('en')} entrant${list.count === 1 ? '' : 's'} in this room's list.`);
  show(el.allVoid, list !== null && list.allVoid && !BUSY.has(s.phase));
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

function renderWarnings(s) {
  el.warnings.replaceChildren(...s.warnings.map((w) => {
    const li = document.createElement('li');
    li.textContent = w.message;
    li.dataset.code = w.code;
    return li;
  }));
}
