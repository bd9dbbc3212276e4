// The entrants card: how many entrants the draw on screen has, and its list on demand. The
// list is fetched only when someone opens it (entrants.js) and shown a page at a time: the DOM
// never holds more than PAGE rows, so 100,000 names open without freezing the page. (Paged, not
// scrolled virtually: placing rows at computed offsets needs inline styles, which the page's
// CSP rules out.) The search filters by name or username, in one pass over lower-cased keys.

import { byId, setText, show } from './dom.js';
import { entrantCount, entrantsOf } from './entrants.js';
import { countText } from './words.js';

const PAGE = 100;
const SEARCH_DELAY_MS = 120;

const el = {
  card: byId('entrants'), count: byId('entrants-card-count'), open: byId('entrants-open'),
  body: byId('entrants-body'), search: byId('entrants-search'), status: byId('entrant-list-status'),
  rows: byId('entrants-rows'), first: byId('entrants-first'), previous: byId('entrants-previous'),
  next: byId('entrants-next'), last: byId('entrants-last'), page: byId('entrants-page'),
};
let shown = null;        // {drawId, count, record} of the draw the card is about
let opened = false;
let list = null;         // {drawId, entrants, keys} once fetched
let matches = null;      // indexes matching the search; null: all
let page = 0;
let searchTimer = 0;

export function setUpEntrantList() {
  el.open.addEventListener('click', () => {
    opened = !opened;
    el.open.setAttribute('aria-expanded', String(opened));
    setText(el.open, opened ? 'Hide the list' : 'Show the list');
    show(el.body, opened);
    if (opened) load();
  });
  el.search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(applySearch, SEARCH_DELAY_MS);
  });
  el.first.addEventListener('click', () => turnTo(0));
  el.previous.addEventListener('click', () => turnTo(page - 1));
  el.next.addEventListener('click', () => turnTo(page + 1));
  el.last.addEventListener('click', () => turnTo(Infinity));
}

/** The draw on screen: the running one, the result shown, or the room's last result. */
function drawOnScreen(s) {
  const record = s.draw ?? s.result?.record ?? s.lastResult;
  if (!record?.drawId) return null;
  return { drawId: record.drawId, count: entrantCount(record), record };
}

export function renderEntrantList(s) {
  const next = s.connection === 'unknown-room' ? null : drawOnScreen(s);
  show(el.card, next !== null);
  if (next === null) return;
  setText(el.count, next.count === null ? 'Entrants of this draw' : `${countText(next.count, 'entrant')} in this draw`);
  const changed = shown?.drawId !== next.drawId;
  shown = next;
  if (changed && opened) load();
}

async function load() {
  const drawId = shown?.drawId;
  if (!drawId || list?.drawId === drawId) return;
  setText(el.status, 'Loading the list…');
  let entrants;
  try {
    entrants = await entrantsOf(shown.record);
  } catch (error) {
    if (shown?.drawId === drawId) setText(el.status, error.message);
    return;
  }
  if (shown?.drawId !== drawId) return; // another draw came meanwhile
  // Lower-cased once, so each search is one pass of `includes`.
  const keys = entrants.map((p) => (p.username ? `${p.name}\u0000@${p.username}` : p.name).toLowerCase());
  list = { drawId, entrants, keys };
  applySearch();
}

function applySearch() {
  if (!list) return;
  const q = el.search.value.trim().toLowerCase();
  matches = null;
  if (q) {
    matches = [];
    for (let i = 0; i < list.keys.length; i++) if (list.keys[i].includes(q)) matches.push(i);
  }
  const total = list.entrants.length;
  setText(el.status, matches === null ? `${countText(total, 'entrant')}, in draw order.`
    : `${countText(matches.length, 'entrant')} of ${total.toLocaleString('en')} match.`);
  turnTo(0);
}

/** Shows page `n` (clamped) of the list or of the search's matches. */
function turnTo(n) {
  if (!list) return;
  const count = matches ? matches.length : list.entrants.length;
  const pages = Math.max(1, Math.ceil(count / PAGE));
  page = Math.min(Math.max(0, n), pages - 1);
  const from = page * PAGE, to = Math.min(count, from + PAGE);
  const items = [];
  for (let k = from; k < to; k++) items.push(row(matches ? matches[k] : k));
  el.rows.replaceChildren(...items);
  setText(el.page, count === 0 ? 'No entrant matches.'
    : `${(from + 1).toLocaleString('en')}–${to.toLocaleString('en')} of ${count.toLocaleString('en')}`);
  el.first.disabled = el.previous.disabled = page === 0;
  el.next.disabled = el.last.disabled = page === pages - 1;
}

function row(index) {
  const p = list.entrants[index];
  const li = document.createElement('li');
  li.dataset.index = String(index);
  const position = document.createElement('span');
  position.className = 'entrant-position';
  position.textContent = `${index + 1}.`;
  const name = document.createElement('bdi');
  name.className = 'entrant-name';
  name.textContent = p.name;
  li.append(position, name);
  // A pasted list has no usernames: no lone "@" after each name.
  if (p.username) {
    const username = document.createElement('span');
    username.className = 'entrant-username';
    username.textContent = `@${p.username}`;
    li.append(username);
  }
  return li;
}
