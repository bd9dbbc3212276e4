// One live connection to a room: opens the WebSocket, parses frames, and reconnects by itself.
// It reports what happened as plain events; deciding what to show is state.js's job.

import { backoffDelay } from './backoff.js';
import { SilenceWatch } from './liveness.js';

// v2: `started`, `finished` and snapshots carry the entrants' count and hash; the list itself
// is fetched over HTTP when someone opens it (entrants.js).
export const SUBPROTOCOL = 'live-draw.v2';
// How often the page looks at the silence deadline (liveness.js sets the deadline itself).
const CHECK_EVERY_MS = 250;

export function roomSocketUrl(location, room) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  return `${scheme}://${location.host}/ws/${encodeURIComponent(room)}`;
}

/** Why a socket closed, in the words the page uses; null means "do not reconnect". */
export function closeReason(code, opened) {
  switch (code) {
    case 4404: return null;        // unknown room: retrying cannot help
    case 1001: return 'restart';   // the server is shutting down, probably restarting
    case 4408: return 'slow';      // we fell behind; a fresh snapshot catches us up
    default: return opened ? 'lost' : 'unreachable';
  }
}

export class Connection {
  #url; #onMessage; #onStatus;
  #socket = null; #attempt = 0; #retryTimer = 0; #checkTimer = 0;
  #watch = new SilenceWatch();

  /** onMessage(msg) for every server message; onStatus({status, retry?}) for the link itself. */
  constructor(url, { onMessage, onStatus }) {
    this.#url = url;
    this.#onMessage = onMessage;
    this.#onStatus = onStatus;
    // Coming back online is a better moment to retry than whatever the backoff said.
    addEventListener('online', () => { if (this.#retryTimer) this.#retryNow(); });
  }

  open() {
    const socket = new WebSocket(this.#url, SUBPROTOCOL);
    let opened = false;
    this.#socket = socket;
    socket.onopen = () => { opened = true; this.#attempt = 0; };
    socket.onmessage = (ev) => this.#deliver(ev.data);
    socket.onclose = (ev) => this.#closed(socket, ev.code, opened);
    // From here on, silence past the bound (a socket that never opens included) is a lost link.
    this.#watch.begin(Date.now());
    clearInterval(this.#checkTimer);
    this.#checkTimer = setInterval(() => {
      if (this.#socket !== socket) return;
      const now = Date.now();
      // A step overdue on a live link is a held draw; its `pong` tells (liveness.js).
      if (this.#watch.probe(now)) this.send({ type: 'ping' });
      if (this.#watch.expired(now)) this.#giveUp(socket, opened);
    }, CHECK_EVERY_MS);
  }

  /** Sends a message if the link is up; false tells the caller to use HTTP instead. */
  send(message) {
    if (this.#socket?.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  #deliver(data) {
    let message;
    try { message = JSON.parse(data); } catch { return; } // not ours to fix; the server sends JSON
    if (!message || typeof message.type !== 'string') return;
    this.#watch.heard(message, Date.now());
    this.#onMessage(message);
  }

  /** A dead link may never finish a closing handshake, so give up on it right away. */
  #giveUp(socket, opened) {
    socket.onclose = null;
    socket.onmessage = null;
    socket.close();
    this.#closed(socket, 1006, opened);
  }

  #closed(socket, code, opened) {
    if (socket !== this.#socket) return; // an abandoned socket closing late
    clearInterval(this.#checkTimer);
    this.#socket = null;
    const reason = closeReason(code, opened);
    if (reason === null) {
      this.#onStatus({ status: 'unknown-room' });
      return;
    }
    const retryInMs = backoffDelay(this.#attempt++);
    this.#onStatus({ status: 'retrying', retry: { reason, retryInMs, at: Date.now() + retryInMs } });
    this.#retryTimer = setTimeout(() => this.#retryNow(), retryInMs);
  }

  #retryNow() {
    clearTimeout(this.#retryTimer);
    this.#retryTimer = 0;
    this.open();
  }
}
