// The result page of a draw whose winner was replaced later (issue 37): the record of a draw never
// changes, so its page alone kept saying "Caleb, Evelyn and Ava won", with no word that Evelyn
// did not show up and Sebastian replaced her. The room's history lines name each redraw's base
// (`redrawOf`, PROTOCOL.md §5.1); this follows them from the draw shown to the latest redraw and
// says who was replaced, by whom, and who stands now, with a link to the latest redraw's page.

import { byId, setText, show } from './dom.js';
import { namesText, slotsOf } from './winners.js';

const el = { note: byId('redrawn-note'), text: byId('redrawn-text'), link: byId('redrawn-link') };
/** History pages read at most (100 lines each): far past any giveaway's redraws. */
const MAX_PAGES = 5;
let found = null; // { drawId, text } for the record shown

/**
 * The finished redraws that follow `drawId`, in order: the one redrawing it, the one redrawing
 * that, and so on. An aborted redraw replaced nobody (the next one redraws the same draw again).
 */
export function redrawChain(drawId, lines) {
  // One finished redraw per base: the server redraws only the room's last finished draw, so the
  // next redraw names the redraw, not its base.
  const byBase = new Map();
  for (const line of lines) {
    if (line.status === 'finished' && line.redrawOf?.drawId) byBase.set(line.redrawOf.drawId, line);
  }
  const chain = [];
  const seen = new Set();
  for (let at = drawId; byBase.has(at) && !seen.has(at); at = chain.at(-1).drawId) {
    seen.add(at);
    chain.push(byBase.get(at));
  }
  return chain;
}

/** The winners a finished record names, in slot order. */
function winnersOf(record) {
  const slots = slotsOf(record);
  if (slots) return slots.filter((p) => !p.void);
  return record.outcome === 'winner' && record.winner ? [record.winner] : [];
}

/**
 * Each replaced winner's mark, by userId: "did not show up: replaced by Sebastian (redraw 1)",
 * for the winner list of the draw shown (its first winners; later redraws' winners are theirs).
 */
export function replacementMarks(chain) {
  const marks = {};
  for (const line of chain) {
    const removed = line.redrawOf.removed;
    if (!removed || marks[removed.userId]) continue;
    const number = Number.isSafeInteger(line.redrawOf.number) && line.redrawOf.number > 0 ? line.redrawOf.number : 1;
    marks[removed.userId] = line.outcome === 'winner' && line.winner
      ? `did not show up: replaced by ${line.winner.name} (redraw ${number})`
      : `did not show up: redraw ${number} drew no winner`;
  }
  return marks;
}

/**
 * "Evelyn did not show up and was replaced by Sebastian (redraw 1 of this giveaway). The winners
 * now: Caleb, Ava and Sebastian." for `record` and its `chain` (redrawChain); '' without one.
 */
export function redrawnText(record, chain) {
  if (chain.length === 0) return '';
  let standing = winnersOf(record);
  const said = chain.map((line) => {
    const removed = line.redrawOf.removed ?? { name: '?' };
    const number = Number.isSafeInteger(line.redrawOf.number) && line.redrawOf.number > 0 ? line.redrawOf.number : 1;
    const replacement = line.outcome === 'winner' ? line.winner : null;
    standing = standing.flatMap((p) => (p.userId === removed.userId ? (replacement ? [replacement] : []) : [p]));
    return replacement
      ? `${removed.name} did not show up and was replaced by ${replacement.name} (redraw ${number} of this giveaway).`
      : `${removed.name} did not show up; redraw ${number} of this giveaway drew a void entry, so that place has no winner.`;
  });
  const now = standing.length === 0 ? 'No winner stands now.'
    : `The ${standing.length === 1 ? 'winner' : 'winners'} now: ${namesText(standing.map((p) => p.name))}.`;
  return `${said.join(' ')} ${now}`;
}

/** What the page said of later redraws of the draw `drawId`, for the copied result; '' if none. */
export function redrawnTextFor(drawId) {
  return found?.drawId === drawId ? found.text : '';
}

/**
 * Reads the room's history after `record` (finished) and shows its later redraws, if any; the
 * winner list marks each replaced winner (`dispatch`: the page's state, a `redrawn` event).
 */
export async function showLaterRedraws(record, dispatch = () => {}) {
  found = null;
  show(el.note, false);
  if (record.status !== 'finished') return;
  const lines = [];
  let cursor = null;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const query = `limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await fetch(`/api/rooms/${encodeURIComponent(record.room)}/draws?${query}`);
      if (!res.ok) return; // the room's history is gone (or away): the record speaks alone
      const body = await res.json();
      lines.push(...body.draws);
      const oldest = body.draws.at(-1);
      cursor = body.nextCursor;
      // Newest first: once a page reaches back to this draw, no redraw of it is older.
      if (!cursor || !oldest || (oldest.startedAt ?? oldest.createdAt) <= (record.startedAt ?? record.createdAt)) break;
    }
  } catch {
    return; // offline: the record speaks alone
  }
  const chain = redrawChain(record.drawId, lines);
  const text = redrawnText(record, chain);
  if (!text) return;
  found = { drawId: record.drawId, text };
  setText(el.text, text);
  el.link.href = `/?draw=${encodeURIComponent(chain.at(-1).drawId)}`;
  show(el.note, true);
  dispatch({ type: 'redrawn', drawId: record.drawId, replaced: replacementMarks(chain) });
}
