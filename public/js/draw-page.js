// The shareable result page, `/?draw=ID`: one recorded draw (PROTOCOL.md §5.2) on the stage as
// it ended, with when, where and among how many, and its verify panel; for posting the result
// after the event. No WebSocket: the record does not change any more.

import { byId, setText, show } from './dom.js';
import { showLaterRedraws } from './redrawn-by.js';
import { verifyAndShow } from './verify-panel.js';
import { drawTime, flipCountText, requestProblemText, timeText } from './words.js';

const DRAW_ID = /^[0-9a-f]{32}$/;
const el = { summary: byId('draw-summary'), text: byId('draw-summary-text'), live: byId('draw-summary-live') };

/** The draw id of a `?draw=ID` address, or null. */
export function drawIdOf(location) {
  const id = new URLSearchParams(location.search).get('draw');
  return id !== null && DRAW_ID.test(id) ? id : null;
}

/** Loads the record and hands it to the page as a `record` event; says why when it cannot. */
export async function openDrawPage(drawId, dispatch) {
  document.body.dataset.view = 'draw';
  setText(byId('stage-title'), 'Draw result');
  show(el.summary, true);
  setText(el.text, 'Loading the draw…');
  let record;
  try {
    const res = await fetch(`/api/draws/${drawId}`);
    record = await res.json().catch(() => null);
    if (!res.ok) throw Object.assign(new Error(record?.error?.message ?? 'No such draw.'), { status: res.status });
  } catch (error) {
    setText(el.text, error.status === 404 ? 'There is no recorded draw with this link.'
      : `The draw could not be loaded: ${requestProblemText(error)}`);
    return;
  }
  setText(el.text, summaryText(record));
  el.live.href = `/?room=${encodeURIComponent(record.room)}`;
  setText(el.live, `Watch room “${record.room}” live`);
  dispatch({ type: 'record', record });
  // A winner replaced later is said on this page too, not only on the redraw's (issue 37).
  showLaterRedraws(record, dispatch);
  // A finished draw is checked as the stage shows it (main.js); a stopped one here.
  if (record.seed !== null && record.status !== 'finished') verifyAndShow(record);
}

function summaryText(record) {
  const parts = [timeText(drawTime(record)), `${record.entrants.length} entrants`];
  if (record.status !== 'failed') parts.push(flipsText(record));
  if (record.winners > 1) parts.push(`${record.winners} winners`);
  if (record.status === 'running') parts.push('still running');
  return parts.join(' · ');
}

/**
 * A draw that revealed each winner with its own flips says how many each had ("10 flips per
 * winner"): its total ("30 flips") would read as one long draw. Any other draw says its flips.
 */
function flipsText(record) {
  const each = record.reveal === 'each' && record.winners > 1;
  const perWinner = record.schedule?.rounds ?? Math.round(record.rounds.length / record.winners);
  if (!each || !Number.isInteger(perWinner) || perWinner < 1) return flipCountText(record.rounds.length);
  return `${flipCountText(perWinner)} per winner`;
}
