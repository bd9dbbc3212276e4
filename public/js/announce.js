// What the screen-reader live region says. Flips come every few hundred milliseconds, so
// reading each name would drown the result: only the start, the last round and the outcome
// are announced. The visible round counter carries the rest.

import { handleOf, slotsAnnouncement, slotsOf } from './winners.js';
import { failureText } from './words.js';

export function announcement(prev, s) {
  if (s.phase === 'loading' && prev.phase !== 'loading') return 'A draw is starting.';
  if (s.phase === 'live') {
    const { drawId, rounds, total, entrantCount } = s.draw;
    const isNew = prev.draw?.drawId !== drawId;
    if (isNew && rounds.length < total) return `The draw started: ${total} flips among ${entrantCount} entrants.`;
    const last = rounds[rounds.length - 1];
    if (last?.round === total && prev.draw?.rounds.length !== rounds.length) return `Final flip: ${last.name}.`;
  }
  if (s.phase === 'result' && prev.result?.record.drawId !== s.result.record.drawId) {
    const r = s.result.record, slots = slotsOf(r);
    if (slots) return slotsAnnouncement(slots);
    return r.outcome === 'void' ? 'No winner this time: the drawn entry was void.'
      : `The winner is ${[r.winner.name, handleOf(r.winner)].filter(Boolean).join(', ')}.`;
  }
  if (s.phase === 'failed' && prev.phase !== 'failed') return `The draw could not start. ${failureText(s.failure.code, s.warnings)}`;
  if (s.phase === 'aborted' && prev.phase !== 'aborted') return 'The draw was stopped before its end.';
  if (s.connection === 'unknown-room' && prev.connection !== 'unknown-room') return 'This room does not exist.';
  return null;
}
