// The entrants card: how many entrants the draw on screen has, and its list on demand. The
// list is fetched only when someone opens it (entrants.js), and drawn virtually: only the rows in
// view exist in the DOM (fixed height rows over a spacer as tall as the whole list), so 100,000
// names open and scroll without freezing the page. The search filters by name or username.

import { byId, setText, show } from './dom.js';
import { entrantCount, entrantsOf } from './entrants.js';
import { countText } from './words.js';

const ROW_PX = 32;    // matches .entrant-row's height in app.css
const OVERSCAN = 8;   // rows drawn beyond the visible ones, so a fast scroll shows no gap
const SEARCH_DELAY_MS = 120;

const el = {
  card: byId('entrants'), count: byId('entrant-count'), open: byId('entrants-open'),
  body: byId('entrants-body'), search: byId('entrants-search'), status: byId('entrants-status'),
  scroll: byId('entrants-scroll'), spacer: byId('entrants-spacer'),
};
let shown = null;        // {drawId, count, record} of the draw the card is about
let opened = false;
let list = null;         // {drawId, entrants, keys} once fetched
let matches = null;      // indexes matching the search; null: all
let rows = [];           // the row elements in use, reused as the view scrolls
let frame = 0;
let searchTimer = 0;

export function setUpEntrantList() {
  el.open.addEventListener('click', () => {
    opened = !opened;
    el.open.setAttribute('aria-expanded', String(opened));
    setText(el.open, opened ? 'Hide the list' : 'Show the list');
    show(el.body, opened);
    if (opened) load();
  });
  el.scroll.addEventListener('scroll', () => {
    if (!frame) frame = requestAnimationFrame(() => { frame = 0; drawRows(); });
  }, { passive: true });
  el.search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(applySearch, SEARCH_DELAY_MS);
  });
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
  if (!drawId || list?.drawId === drawId) return drawRows();
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
  const keys = entrants.map((p) => `${p.name}\u0000@${p.username}`.toLowerCase());
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
  el.scroll.scrollTop = 0;
  drawRows();
}

/** Draws the rows in view (and a few more), reusing the row elements. */
function drawRows() {
  if (!list) return;
  const count = matches ? matches.length : list.entrants.length;
  el.spacer.style.height = `${count * ROW_PX}px`;
  const top = el.scroll.scrollTop;
  const height = el.scroll.clientHeight || ROW_PX * 10;
  const first = Math.max(0, Math.floor(top / ROW_PX) - OVERSCAN);
  const last = Math.min(count, Math.ceil((top + height) / ROW_PX) + OVERSCAN);
  while (rows.length < last - first) rows.push(newRow());
  while (rows.length > last - first) rows.pop().remove();
  for (let k = first; k < last; k++) {
    const index = matches ? matches[k] : k;
    fillRow(rows[k - first], index, k);
  }
}

function newRow() {
  const row = document.createElement('div');
  row.className = 'entrant-row';
  row.setAttribute('role', 'listitem');
  const position = document.createElement('span');
  position.className = 'entrant-position';
  const name = document.createElement('bdi');
  name.className = 'entrant-name';
  const username = document.createElement('span');
  username.className = 'entrant-username';
  row.append(position, name, username);
  el.scroll.append(row);
  return row;
}

function fillRow(row, index, slot) {
  if (row.dataset.index === String(index) && row.dataset.slot === String(slot)) return;
  const p = list.entrants[index];
  row.dataset.index = String(index);
  row.dataset.slot = String(slot);
  row.style.transform = `translateY(${slot * ROW_PX}px)`;
  const [position, name, username] = row.children;
  position.textContent = `${index + 1}.`;
  name.textContent = p.name;
  username.textContent = `@${p.username}`;
}
