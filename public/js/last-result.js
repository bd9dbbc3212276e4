// The room's last draw, as someone joining between draws should first hear of it: the result
// from the snapshot, unless the room's newest draw (from the recent draws, PROTOCOL.md §5.1) was
// stopped or interrupted after it; then that is the last draw, not the one before it (issue 28,
// item 5: after a crash viewers saw "X won" from the draw before).

import { byId, setText, show } from './dom.js';
import { verifyAndShow } from './verify-panel.js';
import { drawTime, outcomeText, stoppedText, timeText } from './words.js';

const el = {
  card: byId('last-result'), title: byId('last-title'), line: byId('last-line'),
  verify: byId('verify-last'), page: byId('last-page'),
};
const STOPPED = new Set(['aborted', 'interrupted']);
let record = null;
let newest = null;   // the newest line of the room's history, once it has been read
let lastState = null;

export function setUpLastResult() {
  el.verify.addEventListener('click', () => { if (record) verifyAndShow(record); });
}

/** The newest draw the room's history lists (or null for none); the card may now say more. */
export function noteNewestDraw(summary) {
  newest = summary ?? null;
  if (lastState) renderLastResult(lastState);
}

/** The stopped draw that came after the snapshot's result, or null. */
function stoppedSince(result) {
  if (!newest || !STOPPED.has(newest.status) || newest.drawId === result?.drawId) return null;
  // A history read before a draw finished here lists the older draws only: the result is newer.
  if (result && (newest.startedAt ?? newest.createdAt) < result.finishedAt) return null;
  return newest;
}

export function renderLastResult(s) {
  lastState = s;
  record = s.lastResult;
  const stopped = stoppedSince(record);
  // While a result or a stop is on the stage, the card would only repeat it.
  const visible = (record !== null || stopped !== null) && s.phase !== 'result' && s.phase !== 'aborted'
    && s.connection !== 'unknown-room';
  show(el.card, visible);
  if (!visible) return;
  setText(el.title, stopped ? 'Last draw in this room' : 'Last result in this room');
  show(el.verify, !stopped);
  const shown = stopped ?? record;
  el.page.href = `/?draw=${encodeURIComponent(shown.drawId)}`;
  setText(el.line, stopped
    ? `The last draw was stopped before its end · ${timeText(drawTime(stopped))}. ${stoppedText(stopped)}`
    : `${outcomeText(record)} · ${timeText(drawTime(record))}`);
}
