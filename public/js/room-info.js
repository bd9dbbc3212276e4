// What a room says about its next draw (issue 15, PROTOCOL.md `snapshot`): its settings and its
// own list summed up, as the view state keeps them. Pure, like state.js, which calls it.

import { warningCounts } from './room-words.js';

/**
 * The snapshot's `entrants` (null: the operator's lists, whose size is only known once a draw
 * fetched them), `warnings` and `allVoid`, and the settings in effect (null from an older server).
 */
export function roomInfoFrom(m) {
  return {
    entrants: typeof m.entrants === 'number'
      ? { count: m.entrants, allVoid: m.allVoid === true, warnings: warningCounts(m.warnings) } : null,
    settings: m.settings && typeof m.settings === 'object' ? m.settings : null,
    // A draw scheduled for later, its commitment public (PROTOCOL.md §5.8); null: none.
    scheduled: m.scheduled && typeof m.scheduled === 'object' && Number.isFinite(m.scheduled.at) ? m.scheduled : null,
  };
}

/**
 * The host changed the room from this page: the answers of PUT/DELETE .../entrants, PUT
 * .../settings and PUT/DELETE .../schedule (viewers learn it from the `room` message, read by
 * roomInfoFrom too).
 */
export function withRoomChange(s, ev) {
  switch (ev.what) {
    case 'entrants': return { ...s, entrants: roomInfoFrom(ev.answer).entrants };
    case 'no-entrants': return { ...s, entrants: null };
    case 'settings': return { ...s, settings: ev.answer.settings ?? s.settings };
    case 'scheduled': return { ...s, scheduled: ev.answer }; // null once cancelled
    default: return s;
  }
}
