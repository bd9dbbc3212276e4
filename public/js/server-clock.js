// The server's clock, as this page estimates it: every viewer counts down to the same instant
// of the server's schedule (`startedAt` + offsets), whatever its own clock says.
//
// Each message stamped by the server (`serverTime` of snapshot, heartbeat and pong; `startedAt`
// of `started`) gives serverTime - localNow, the true difference less the message's delay. The
// largest such value seen since the connection opened is the least delayed, so it is kept.

let offset = null;

/** A server time stamp just received; `fresh` (a snapshot: a new connection) forgets the old ones. */
export function noteServerTime(serverTime, { fresh = false, now = Date.now() } = {}) {
  if (!Number.isFinite(serverTime)) return;
  const seen = serverTime - now;
  offset = fresh || offset === null ? seen : Math.max(offset, seen);
}

/** Now, on the server's clock (the page's own clock until a stamp arrived). */
export function serverNow(now = Date.now()) {
  return now + (offset ?? 0);
}

/** What a server message says about the server's clock. */
export function noteMessage(message) {
  if (message.type === 'snapshot') noteServerTime(message.serverTime, { fresh: true });
  else if (message.type === 'started') noteServerTime(message.startedAt);
  else if (Number.isFinite(message.serverTime)) noteServerTime(message.serverTime);
}
