// The room's recent draws (PROTOCOL.md §5.1), newest first; each ended one is checked in the
// verify panel from its stored record (§5.2). Fetched only when something changed, never
// polled: main.js calls refreshRecentDraws when the connection opens and when a draw starts or
// ends.

import { byId, setText, show } from './dom.js';
import { showVerifyError, verifyAndShow } from './verify-panel.js';
import { drawTime, failureText, outcomeText, requestProblemText, stoppedText, timeText } from './words.js';

const PAGE = 10;
const MAX_LIMIT = 100; // the server's largest page
const STATUS = { running: 'live now', finished: 'finished', failed: 'failed', aborted: 'stopped', interrupted: 'interrupted' };
const VERIFIABLE = new Set(['finished', 'aborted', 'interrupted']); // their seed is revealed

const el = {
  section: byId('recent-draws'), list: byId('recent-list'), status: byId('recent-status'),
  more: byId('recent-more'), verifyPanel: byId('verify-panel'),
};
let room = null;
let listed = [];        // summaries, newest first
let nextCursor = null;
let generation = 0;     // a refresh outdates pages still on their way
let loadingMore = false; // one "Load more" at a time, or the same page would be listed twice
let verifyId = 0;       // the last Verify clicked wins over a slower earlier fetch
let onNewest = () => {}; // told the newest line after each refresh (the last-result card)
// Draws this page saw end (by id): the stored record may still say `running` for a moment,
// and the list must not call live a draw the stage already shows as ended.
const endedHere = new Map();

export function setUpRecentDraws(roomName, { newest = () => {} } = {}) {
  room = roomName;
  onNewest = newest;
  el.more.addEventListener('click', loadMore);
  el.list.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-draw-id]');
    if (button) verifyDraw(button.dataset.drawId);
  });
}

export async function refreshRecentDraws() {
  const gen = ++generation;
  let page;
  try {
    // As many as are listed, so a refresh does not fold away what "Load more" opened.
    page = await fetchPage(Math.min(MAX_LIMIT, Math.max(PAGE, listed.length)), null);
  } catch (error) {
    if (gen === generation) showProblem(error);
    return;
  }
  if (gen !== generation) return;
  if (page === null) {
    show(el.section, false);
    onNewest(null);
    return;
  }
  listed = page.draws;
  onNewest(listed[0] ?? null);
  nextCursor = page.nextCursor;
  render();
}

/** The stage saw a draw end (`finished` record, or `{drawId, status: 'aborted', …}`). */
export function noteDrawEnded(summary) {
  endedHere.set(summary.drawId, summary);
  if (listed.some((d) => d.drawId === summary.drawId && d.status === 'running')) render();
}

async function loadMore() {
  if (loadingMore || nextCursor === null) return;
  loadingMore = true;
  const gen = generation;
  const firstNew = listed.length;
  try {
    const page = await fetchPage(PAGE, nextCursor);
    if (gen !== generation || page === null) return;
    listed = [...listed, ...page.draws];
    nextCursor = page.nextCursor;
    render();
    // The button may be gone now; keyboard users continue at the first row just added.
    el.list.children[firstNew]?.focus();
  } catch (error) {
    if (gen === generation) showProblem(error);
  } finally {
    loadingMore = false;
  }
}

/** One page, or null when the server keeps no history here (no data directory, no such room). */
async function fetchPage(limit, cursor) {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor !== null) query.set('cursor', cursor);
  try {
    return await getJson(`/api/rooms/${encodeURIComponent(room)}/draws?${query}`);
  } catch (error) {
    if (error.status === 404) return null;
    throw error;
  }
}

async function verifyDraw(drawId) {
  const id = ++verifyId;
  el.verifyPanel.scrollIntoView({ block: 'nearest' });
  let record;
  try {
    record = await getJson(`/api/draws/${encodeURIComponent(drawId)}`);
  } catch (error) {
    if (id === verifyId) showVerifyError(`the draw record could not be loaded: ${requestProblemText(error)}`);
    return;
  }
  if (id === verifyId) verifyAndShow(record);
}

async function getJson(path) {
  let res;
  try {
    res = await fetch(path);
  } catch {
    throw new Error('unreachable'); // no status: requestProblemText says the server can't be reached
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    throw Object.assign(new Error(body?.error?.message ?? `The server answered ${res.status}.`), { status: res.status });
  }
  return body;
}

function showProblem(error) {
  show(el.section, true);
  show(el.status, true);
  setText(el.status, `The recent draws could not be loaded: ${requestProblemText(error)}`);
}

function render() {
  // Re-rendering replaces the buttons; give focus back to the one the user was on.
  const focused = document.activeElement?.dataset.drawId;
  show(el.section, true);
  show(el.status, listed.length === 0);
  setText(el.status, 'No draws in this room yet.');
  el.list.replaceChildren(...listed.map((d) => rowElement(seenEnded(d))));
  show(el.more, nextCursor !== null);
  if (focused) el.list.querySelector(`button[data-draw-id="${focused}"]`)?.focus();
}

/**
 * A row as the stage knows it: a draw listed as running that this page saw end has ended, and
 * one it saw finish keeps its places (`winnerPicks`), which summaries do not carry.
 */
function seenEnded(draw) {
  const ended = endedHere.get(draw.drawId);
  if (ended && draw.status === 'running') return { ...draw, ...ended };
  return ended?.winnerPicks ? { ...draw, winners: ended.winners, winnerPicks: ended.winnerPicks } : draw;
}

function rowElement(draw) {
  const li = document.createElement('li');
  li.tabIndex = -1; // focus target after "Load more"
  li.dataset.status = draw.status;
  li.dataset.drawId = draw.drawId;
  const meta = document.createElement('p');
  meta.className = 'recent-meta';
  const time = document.createElement('time');
  const at = drawTime(draw);
  time.dateTime = at.toISOString();
  time.textContent = timeText(at);
  const badge = document.createElement('span');
  badge.className = 'recent-badge';
  badge.textContent = STATUS[draw.status] ?? draw.status;
  const id = document.createElement('code');
  id.textContent = draw.drawId.slice(0, 8);
  id.title = draw.drawId;
  meta.append(time, badge, id);
  const what = document.createElement('p');
  what.className = 'recent-what';
  what.textContent = summaryText(draw);
  if (draw.status === 'failed') li.dataset.failureCode = draw.failureCode; // for tools, never shown
  li.append(meta, what);
  if (draw.status !== 'running') {
    const page = document.createElement('a');
    page.className = 'recent-link';
    page.href = `/?draw=${encodeURIComponent(draw.drawId)}`;
    page.textContent = 'Result page';
    what.append(' ', page);
  }
  if (VERIFIABLE.has(draw.status)) li.append(verifyButton(draw.drawId, timeText(at)));
  return li;
}

function summaryText(draw) {
  switch (draw.status) {
    case 'running': return 'In progress now.'; // the list is not refreshed per round, so no count
    case 'finished': return outcomeText(draw);
    case 'failed': return failureText(draw.failureCode);
    default: return stoppedText(draw);
  }
}

function verifyButton(drawId, when) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button';
  button.dataset.drawId = drawId;
  button.textContent = 'Verify';
  button.setAttribute('aria-label', `Verify the draw of ${when}`);
  return button;
}
