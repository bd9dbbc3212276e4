// When silence on the WebSocket means the connection is lost. The one place the page's bound
// is set (docs/PROTOCOL.md, `heartbeat`); pure: every time is passed in.
//
// Browsers cannot see WebSocket pings, so a link that silently stopped carrying data (a dead
// NAT, a phone out of signal: no FIN, no RST) would otherwise leave the page showing a live
// draw that everyone else has seen end. The server makes sure a watcher hears something at
// least every heartbeat interval (+1 s); during a draw each step is due one scheduled gap after
// the one before, so a missing step is noticed sooner. Sooner, not at once: in cluster mode a
// draw holds while Redis cannot acknowledge its next step (PROTOCOL.md `round`), and the link is
// fine meanwhile. So an overdue step first makes the page ask (`ping`); an answer proves the link,
// and the draw may then take as long as it needs (hold-notice.js tells the viewers).

/** Longest silence the page ever accepts, whatever the server's heartbeat interval. */
export const MAX_SILENCE_MS = 15000;
/** Heartbeats that may go missing before the link counts as lost. */
export const MISSED_HEARTBEATS = 3;
/** How late a draw's next step may be (network, a busy server, the result's fsync). */
export const STEP_MARGIN_MS = 2500;

/** The bound of silence for the server's heartbeat interval (unknown until the first one). */
export function silenceBoundMs(heartbeatMs) {
  if (!(heartbeatMs > 0)) return MAX_SILENCE_MS;
  return Math.min(MAX_SILENCE_MS, MISSED_HEARTBEATS * heartbeatMs);
}

/** Gap in ms from step `step` (0 = `started`, k = round k) of a draw to the next one. */
export function gapAfterStep(schedule, step) {
  const offsets = schedule?.offsetsMs;
  if (!Array.isArray(offsets) || offsets.length === 0 || step < 0 || step > offsets.length) return null;
  if (step === 0) return offsets[0];
  const next = step < offsets.length ? offsets[step] : schedule.finishOffsetMs;
  return Number.isFinite(next) ? Math.max(0, next - offsets[step - 1]) : null;
}

/**
 * Gap in ms from a revealed winner (docs/PROTOCOL.md `winner`) to the draw's next step: none
 * while the draw waits for the host, the next winner's first flip after `nextStartsAt` when it
 * runs on, the `finished` that follows the last one at once.
 */
export function gapAfterWinner(schedule, m) {
  if (m.next === 'host') return null;
  if (m.next === 'finished') return 0;
  const first = gapAfterStep(schedule, 0);
  if (m.next !== 'auto' || first === null) return null;
  const pause = Number.isFinite(m.nextStartsAt) && Number.isFinite(m.sentAt) ? Math.max(0, m.nextStartsAt - m.sentAt) : 0;
  return pause + first;
}

/**
 * When a draw's next step is due after `message` (`started`, `round`, `winner`, `advance`), on
 * the server's clock: `at` (server ms, the message's own stamp) plus `gap` ms. null: nothing is
 * due (the draw waits for the host, or the schedule does not say).
 */
export function stepAfter(schedule, m) {
  const step = (at, gap) => (Number.isFinite(at) && Number.isFinite(gap) ? { at, gap } : null);
  switch (m.type) {
    case 'started': return step(m.startedAt, gapAfterStep(schedule, 0));
    case 'round': return step(m.sentAt, gapAfterStep(schedule, m.round));
    case 'winner': return step(m.sentAt, gapAfterWinner(schedule, m));
    // The next winner's flips follow `startsAt` as winner 1's follow `startedAt`.
    case 'advance': return step(m.startsAt, gapAfterStep(schedule, 0));
    default: return null;
  }
}

/** The same for a snapshot's running draw (PROTOCOL.md `snapshot`, `progress`). */
export function stepOfSnapshot(draw) {
  const progress = draw.progress ?? null;
  // Between winners, waiting for the host: nothing is due (the heartbeat still is).
  if (progress?.awaitingHost) return null;
  // A pause between winners that run on: its end is not in the snapshot.
  if (progress && (progress.revealed?.length ?? 0) >= progress.winner) return null;
  const rounds = progress ? (draw.rounds ?? []).filter((r) => (r.winner ?? 1) === progress.winner) : (draw.rounds ?? []);
  const shown = rounds.length;
  const lastSent = shown ? rounds[shown - 1].sentAt : (progress?.winnerStartedAt ?? draw.startedAt);
  const gap = gapAfterStep(draw.schedule, shown);
  return Number.isFinite(lastSent) && Number.isFinite(gap) ? { at: lastSent, gap } : null;
}

/**
 * The deadline by which the page must hear something, kept up to date with every message.
 * `expired(now)` says the link is lost.
 */
export class SilenceWatch {
  #heartbeatMs = null;
  #schedule = null;
  #stepDeadline = Infinity; // when the draw's next step is overdue
  #probed = false;          // the page asked whether the link is alive since the last step
  #silenceDeadline = Infinity;
  #deadline = Infinity;

  /** A new socket: it must open and speak within the bound. */
  begin(now) {
    this.#schedule = null;
    this.#stepDeadline = Infinity;
    this.#probed = false;
    this.#silenceDeadline = now + silenceBoundMs(this.#heartbeatMs);
    this.#deadline = this.#silenceDeadline;
  }

  /** A message arrived at `now`. */
  heard(message, now) {
    if (message.type === 'heartbeat' && message.intervalMs > 0) this.#heartbeatMs = message.intervalMs;
    const gap = this.#nextGap(message);
    if (gap !== undefined) {
      this.#stepDeadline = gap === null ? Infinity : now + gap + STEP_MARGIN_MS;
      this.#probed = false;
    } else if (this.#probed) {
      // Heard after asking: the link is alive and the draw holds. The heartbeat's bound stays.
      this.#stepDeadline = Infinity;
    }
    this.#silenceDeadline = now + silenceBoundMs(this.#heartbeatMs);
    this.#deadline = Math.min(this.#silenceDeadline, this.#stepDeadline);
  }

  /**
   * True once per overdue step, when the page should ask whether the link is alive (a `ping`):
   * the step's deadline then waits one margin more, for the answer or the step.
   */
  probe(now) {
    if (this.#probed || !(now > this.#stepDeadline) || now > this.#silenceDeadline) return false;
    this.#probed = true;
    this.#stepDeadline = now + STEP_MARGIN_MS;
    this.#deadline = Math.min(this.#silenceDeadline, this.#stepDeadline);
    return true;
  }

  get deadline() { return this.#deadline; }

  expired(now) { return now > this.#deadline; }

  /** ms until the draw's next step after `message`; null: none due; undefined: no change. */
  #nextGap(m) {
    switch (m.type) {
      case 'started':
        this.#schedule = m.schedule ?? null;
        return gapAfterStep(this.#schedule, 0);
      case 'round':
        return gapAfterStep(this.#schedule, m.round);
      case 'winner':
        return gapAfterWinner(this.#schedule, m);
      case 'advance':
        // The host drew the next winner: its flips follow `startsAt` as winner 1's follow `started`.
        return gapAfterStep(this.#schedule, 0);
      case 'snapshot': {
        const draw = m.draw?.phase === 'running' ? m.draw : null;
        this.#schedule = draw?.schedule ?? null;
        const step = draw ? stepOfSnapshot(draw) : null;
        // Server times on both sides, so the clocks' difference does not matter.
        if (step === null || !Number.isFinite(m.serverTime)) return null;
        return Math.max(0, step.at + step.gap - m.serverTime);
      }
      case 'finished': case 'failed': case 'aborted':
        this.#schedule = null;
        return null;
      default:
        return undefined; // heartbeat, presence, pong, loading: the draw's timing is unchanged
    }
  }
}
