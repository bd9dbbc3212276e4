// The reconnect banner's "in 3 s…", counting down to the next attempt (issue 28, item 8: it stood
// still at the first number). The reason is said once to screen readers (the banner is a status
// region); the ticking seconds are for the eye only, or every second would be read out.

import { setText } from './dom.js';

const RETRY = {
  restart: 'The server is restarting. Reconnecting',
  slow: 'Catching up with the draw',
  lost: 'Connection lost. Reconnecting',
  unreachable: "Can't reach the live-draw server. Retrying",
};
const TICK_MS = 250;

let timer = null;
let shown = null; // the retry being counted down

/** "in 3 s…" at `now` for a retry due at `retry.at` (never below 1: the attempt is due). */
export function secondsLeftText(retry, now = Date.now()) {
  const left = (retry.at ?? now + retry.retryInMs) - now;
  return ` in ${Math.max(1, Math.ceil(left / 1000))}\u00a0s…`; // "5 s" never split
}

/** Shows `retry` in `banner` and keeps its seconds counting down; `null` stops. */
export function showRetry(banner, retry) {
  if (retry === shown) return;
  shown = retry;
  clearInterval(timer);
  timer = null;
  if (retry === null) return;
  const reason = document.createElement('span');
  reason.textContent = RETRY[retry.reason] ?? RETRY.lost;
  const seconds = document.createElement('span');
  seconds.dataset.testid = 'retry-seconds';
  seconds.setAttribute('aria-hidden', 'true');
  seconds.textContent = secondsLeftText(retry);
  banner.replaceChildren(reason, seconds);
  timer = setInterval(() => setText(seconds, secondsLeftText(retry)), TICK_MS);
}
