// One live connection to a room: opens the WebSocket, parses frames, and reconnects by itself.
// It reports what happened as plain events; deciding what to show is state.js's job.

import { backoffDelay } from './backoff.js';

export const SUBPROTOCOL = 'live-draw.v1';
// The server pings at the WebSocket level, but a browser cannot see those; our own ping makes
// a silently dead link (sleeping laptop, dropped Wi-Fi) show up within SILENCE_MS.
const PING_EVERY_MS = 15000;
const SILENCE_MS = 40000;

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
  #socket = null; #attempt = 0; #retryTimer = 0; #pingTimer = 0; #lastHeard = 0;

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
    socket.onopen = () => { opened = true; this.#attempt = 0; this.#heard(); this.#startPinging(); };
    socket.onmessage = (ev) => { this.#heard(); this.#deliver(ev.data); };
    socket.onclose = (ev) => this.#closed(socket, ev.code, opened);
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
    if (message && typeof message.type === 'string') this.#onMessage(message);
  }

  #closed(socket, code, opened) {
    if (socket !== this.#socket) return; // an abandoned socket closing late
    clearInterval(this.#pingTimer);
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

  #heard() { this.#lastHeard = Date.now(); }

  #startPinging() {
    clearInterval(this.#pingTimer);
    this.#pingTimer = setInterval(() => {
      const socket = this.#socket;
      if (!socket) return;
      if (Date.now() - this.#lastHeard > SILENCE_MS) {
        // A dead link may never finish a closing handshake, so give up on it right away.
        socket.onclose = null;
        socket.close();
        this.#closed(socket, 1006, true);
      } else {
        this.send({ type: 'ping' });
      }
    }, PING_EVERY_MS);
  }
}
