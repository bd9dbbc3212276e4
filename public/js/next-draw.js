// Before a draw (issue 15): how many entrants and winners the room's next draw has, on the
// stage for everyone, and for the host a warning when no entry of the list can win.

import { byId, setText, show } from './dom.js';
import { entrantsText } from './room-words.js';

const el = { count: byId('entrant-count'), allVoid: byId('all-void') };
const BUSY_PHASES = new Set(['loading', 'live']);

/** "42 entrants · 3 winners"; only the winners when the room draws from the operator's lists. */
export function nextDrawText(s) {
  const winners = s.settings?.winners ?? 1;
  const parts = [];
  if (s.entrants) parts.push(entrantsText(s.entrants.count));
  if (winners > 1) parts.push(`${winners} winners`);
  return parts.join(' · ');
}

export function renderNextDraw(s) {
  const text = s.connection === 'record' ? '' : nextDrawText(s);
  show(el.count, text !== '');
  setText(el.count, text);
  show(el.allVoid, s.isHost && s.entrants !== null && s.entrants.allVoid && !BUSY_PHASES.has(s.phase));
}
