// The page's view state as a pure function of what happened: server messages (docs/PROTOCOL.md)
// and a few local events. No DOM, no timers, so every transition is easy to reason about.
//
// Phases: idle | loading | live | result | failed | aborted.
// Connection: connecting | open | retrying | unknown-room.

import { stepAfter, stepOfSnapshot } from './liveness.js';
import { roomInfoFrom, withRoomChange } from './room-info.js';

export function initialState(room, isHost) {
  return {
    room, isHost,
    connection: 'connecting',
    retry: null,            // {reason, retryInMs} while retrying
    viewers: null,
    phase: 'idle',
    draw: null,             // the running draw: {drawId, entrantCount, entrantsHash, commitment, total, rounds, nextStep, …}
    warnings: [],           // merge warnings of the current or last draw, for the host
    result: null,           // {record, seen, announcedCommitment} for the result phase
    lastResult: null,       // the room's last finished record, from the snapshot
    failure: null,          // {code, message}
    aborted: null,          // {drawId, roundsShown, reason}
    hostError: null,        // {code, message}
    hostRevoked: false,     // the server refused this page's host key: it is a viewer now
    startPending: false,
    nextPending: false,     // the host asked for the next winner; cleared by `advance` or a refusal
    entrants: null,         // the room's own list from the snapshot: {count, allVoid, warnings}; null: the operator's lists
    settings: null,         // the settings the room's next draw follows, from the snapshot (room-info.js)
    scheduled: null,        // the draw scheduled for later, from the snapshot: {drawId, at, commitment, …}
  };
}

export function reduce(s, ev) {
  switch (ev.type) {
    case 'snapshot': return fromSnapshot(s, ev);
    case 'record': return fromRecord(s, ev.record);
    // The result page learned that winners of its draw were replaced later (redrawn-by.js).
    case 'redrawn': return s.result?.record?.drawId === ev.drawId ? { ...s, result: { ...s.result, replaced: ev.replaced } } : s;
    case 'presence': return { ...s, viewers: ev.viewers };
    case 'room': return { ...s, ...roomInfoFrom(ev) }; // the host changed the list or settings
    case 'loading': return { ...cleared(s), phase: 'loading', warnings: [] };
    case 'started': return {
      ...cleared(s), phase: 'live', draw: { ...drawFrom(ev, []), nextStep: heardStep(null, ev) }, warnings: ev.warnings ?? [],
      scheduled: s.scheduled?.drawId === ev.drawId ? null : s.scheduled, // it is this draw
    };
    case 'round': return withRound(s, ev);
    case 'winner': return withWinner(s, ev);   // one winner of several revealed (winners.js)
    case 'advance': return withAdvance(s, ev); // the host drew the next winner
    case 'finished': return {
      ...cleared(s), phase: 'result', result: resultFrom(ev, s.draw), lastResult: recordOf(ev),
    };
    case 'failed': return {
      ...cleared(s), phase: 'failed',
      failure: { code: ev.code, message: ev.message }, warnings: ev.warnings ?? [],
    };
    case 'aborted': return {
      ...cleared(s), phase: 'aborted',
      aborted: { drawId: ev.drawId, roundsShown: ev.roundsShown, reason: ev.reason },
    };
    case 'error':
      if (ev.code === 'unknown_room') return { ...s, connection: 'unknown-room', retry: null };
      return hostRefused(s, ev);
    // Local events: the connection's fate, and the host's own start request.
    case 'connection':
      return { ...s, connection: ev.status, retry: ev.status === 'retrying' ? ev.retry : null };
    case 'start-requested': return { ...s, startPending: true, hostError: null };
    case 'next-requested': return { ...s, nextPending: true, hostError: null };
    case 'host-error': return hostRefused(s, ev.error);
    case 'room-changed': return withRoomChange(s, ev);
    default: return s; // pong and message types added later to v1
  }
}

/**
 * An answer to the host's start. `forbidden` means the server does not know this page's key
 * (it was changed, or the room was deleted): the page stops pretending to be the host.
 */
function hostRefused(s, { code, message }) {
  if (code === 'forbidden' && s.isHost) {
    return { ...s, isHost: false, hostRevoked: true, hostError: null, startPending: false, nextPending: false };
  }
  return { ...s, hostError: { code, message }, startPending: false, nextPending: false };
}

/** Forgets the previous phase's details (warnings stay: they explain the result too). */
function cleared(s) {
  return { ...s, draw: null, result: null, failure: null, aborted: null, hostError: null, startPending: false, nextPending: false };
}

function drawFrom(m, rounds, progress = null) {
  // A draw revealing each winner (FAIRNESS.md §5a) shows only the current winner's flips.
  const slot = progress?.winner ?? 1;
  const each = m.reveal === 'each';
  const shown = each ? rounds.filter((r) => (r.winner ?? 1) === slot) : rounds;
  return {
    // v2 names how many entrants and their hash; a v1 message (a pasted one) has the list.
    drawId: m.drawId, entrantCount: m.entrantCount ?? m.entrants?.length ?? null, entrantsHash: m.entrantsHash,
    commitment: m.commitment,
    total: m.schedule?.rounds ?? 10, rounds: shown.map(roundOf),
    // Every flip this page saw, by its number in the whole draw (the verify panel's evidence).
    seenPicks: rounds.map((r) => [stepOf(r, m.schedule?.rounds ?? 10), r.index]),
    winners: Number.isInteger(m.winners) ? m.winners : 1, each, slot,
    revealed: (progress?.revealed ?? []).map((p, i) => revealedOf({ ...p, winner: p.winner ?? i + 1 })),
    awaitingHost: Boolean(progress?.awaitingHost), next: progress?.awaitingHost ? 'host' : null,
    // Round 1 is due at startedAt + firstOffsetMs on the server's clock; a countdown leads to it.
    startedAt: m.startedAt, firstOffsetMs: m.schedule?.offsetsMs?.[0] ?? 0, countdownMs: m.schedule?.countdownMs ?? 0,
    // A beacon draw (FAIRNESS.md §9): the drand round its picks wait for; its countdown lasts until then.
    beaconRound: Number.isInteger(m.beacon?.round) ? m.beacon.round : null,
    schedule: m.schedule ?? null, // when each next step is due (liveness.js)
  };
}

/**
 * When the draw's next step is due after message `m` ({at, gap} on the server's clock, or null),
 * heard as it happened: hold-notice.js counts from whichever is later, the stamp or the moment
 * the page heard it, so one node's clock ahead of another's cannot make a normal draw look held.
 */
function heardStep(draw, m) {
  const step = stepAfter(draw?.schedule ?? m.schedule ?? null, m);
  return step && { ...step, heard: true };
}

function roundOf(m) {
  return { round: m.round, index: m.index, name: m.name, username: m.username };
}

function withRound(s, m) {
  // While a draw runs, its rounds carry the viewer count instead of `presence` messages.
  const viewers = Number.isInteger(m.viewers) ? m.viewers : s.viewers;
  if (!s.draw || s.draw.drawId !== m.drawId) return { ...s, viewers };
  // The first flip of the next winner (FAIRNESS.md §5a) starts that winner's own run of flips.
  const slot = Number.isInteger(m.winner) ? m.winner : s.draw.slot;
  if (slot < s.draw.slot) return { ...s, viewers };
  const rounds = slot === s.draw.slot ? s.draw.rounds : [];
  // A round of another draw, or one already shown, is stale: one connection cannot miss
  // `started`, because the snapshot that opens it carries the running draw.
  if (rounds.some((r) => r.round === m.round)) return { ...s, viewers };
  return {
    ...s, viewers, phase: 'live',
    draw: {
      ...s.draw, slot, awaitingHost: false, next: null, total: m.of, rounds: [...rounds, roundOf(m)],
      seenPicks: [...s.draw.seenPicks, [stepOf(m, m.of), m.index]], nextStep: heardStep(s.draw, m),
    },
  };
}

/** A flip's number in the whole draw: winner s's flip r of `perWinner` is (s-1)·perWinner + r. */
function stepOf(m, perWinner) {
  return Number.isInteger(m.winner) ? (m.winner - 1) * perWinner + m.round : m.round;
}

/** One revealed winner as the page keeps it. */
function revealedOf(m) {
  return { winner: m.winner, index: m.index, userId: m.userId, name: m.name, username: m.username, void: Boolean(m.void) };
}

/** A `winner` message: that winner joins the ones so far; `next` says what the draw waits for. */
function withWinner(s, m) {
  if (!s.draw || s.draw.drawId !== m.drawId || s.draw.revealed.some((w) => w.winner === m.winner)) return s;
  return {
    ...s,
    draw: {
      ...s.draw, slot: m.winner, winners: m.of ?? s.draw.winners, each: true,
      revealed: [...s.draw.revealed, revealedOf(m)], awaitingHost: m.next === 'host', next: m.next ?? null,
      nextStep: heardStep(s.draw, m),
    },
  };
}

/** An `advance` message: the host drew the next winner, whose flips follow. */
function withAdvance(s, m) {
  if (!s.draw || s.draw.drawId !== m.drawId || m.winner <= s.draw.slot) return { ...s, nextPending: false };
  return {
    ...s, nextPending: false,
    draw: { ...s.draw, slot: m.winner, rounds: [], awaitingHost: false, next: null, nextStep: heardStep(s.draw, m) },
  };
}

function recordOf(m) {
  const { type, ...record } = m;
  return record;
}

/** The result plus what this page saw live, which the verify panel checks too. */
function resultFrom(m, draw) {
  const watched = draw && draw.drawId === m.drawId;
  return {
    record: recordOf(m),
    seen: watched ? new Map(draw.seenPicks) : null,
    announcedCommitment: watched ? draw.commitment : null,
    announcedBeaconRound: watched ? draw.beaconRound : null,
  };
}

/**
 * One stored draw (PROTOCOL.md §5.2) as the stage shows it when it ended: the result page
 * (`/?draw=ID`). A running one shows as waiting: its rounds are on the room's own page.
 */
function fromRecord(s, record) {
  const base = { ...cleared(s), room: record.room, connection: 'record', retry: null, warnings: record.warnings ?? [] };
  switch (record.status) {
    case 'finished':
      return { ...base, phase: 'result', result: { record, seen: null, announcedCommitment: null }, lastResult: record };
    case 'failed':
      return { ...base, phase: 'failed', failure: { code: record.failureCode ?? record.failure?.code, message: record.failure?.message ?? '' } };
    case 'aborted': case 'interrupted':
      return { ...base, phase: 'aborted', aborted: { drawId: record.drawId, roundsShown: record.roundsShown, reason: record.abortReason ?? record.status } };
    default:
      return { ...base, phase: 'idle' };
  }
}

/**
 * A snapshot replaces everything it covers, so nothing stale survives a reconnect. It cannot
 * express a draw that ended while we were away, nor a failure or abort, so those are derived:
 * - we were watching draw D and lastResult is D: D finished meanwhile, show its result;
 * - we showed a failure/abort and the room's last result did not change: keep showing it.
 */
function fromSnapshot(s, m) {
  const base = {
    ...cleared(s), room: m.room, viewers: m.viewers, lastResult: m.lastResult ?? null,
    connection: 'open', retry: null, phase: 'idle', warnings: [],
    ...roomInfoFrom(m),
  };
  if (m.draw?.phase === 'loading') return { ...base, phase: 'loading' };
  if (m.draw?.phase === 'running') {
    const draw = drawFrom(m.draw, m.draw.rounds ?? [], m.draw.progress);
    // The stamps alone: the snapshot tells how long ago the last step went out, not just now.
    const step = stepOfSnapshot(m.draw);
    return { ...base, phase: 'live', draw: { ...draw, nextStep: step && { ...step, heard: false } }, warnings: m.draw.warnings ?? [] };
  }
  const watched = s.result?.record.drawId ?? s.draw?.drawId;
  if (m.lastResult && m.lastResult.drawId === watched) {
    const seen = s.result ? s.result : resultFrom(m.lastResult, s.draw);
    return { ...base, phase: 'result', result: { ...seen, record: m.lastResult }, warnings: s.warnings };
  }
  const sameLast = (s.lastResult?.drawId ?? null) === (m.lastResult?.drawId ?? null);
  if (sameLast && (s.phase === 'failed' || s.phase === 'aborted')) {
    return { ...base, phase: s.phase, failure: s.failure, aborted: s.aborted, warnings: s.warnings };
  }
  return base;
}
