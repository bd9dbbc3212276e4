// Reconnect delays: exponential, capped, with jitter so that thousands of viewers dropped by
// one server restart do not all knock again in the same millisecond.

export const BASE_MS = 250;
export const CAP_MS = 5000;

/** Delay before retry number `attempt` (0-based): uniform in [ceiling/2, ceiling]. */
export function backoffDelay(attempt, random = Math.random) {
  const ceiling = Math.min(CAP_MS, BASE_MS * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
