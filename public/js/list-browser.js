// "Browse the saved list" (issue 28, item 3): the room's own list, read only, as the server
// keeps it (GET /api/rooms/ROOM/entrants with the host key): 50 names a page with Previous and
// Next, each with its place in the list, and a search box that ignores case and accents. Seeing
// a list of thousands this way does not put it into the edit box to scroll through. A list of
// names (no usernames) can be fixed here one row at a time ("Change": list-row-edit.js).

import { byId, setText, show } from './dom.js';
import { hostRequest } from './host-api.js';
import { changeButton, rowEditor, saveRename } from './list-row-edit.js';
import { entrantsText, listRefusalText } from './room-words.js';

export const PAGE_SIZE = 50;

const el = {
  open: byId('list-browser-open'), box: byId('list-browser'), search: byId('list-browser-search'),
  count: byId('list-browser-count'), rows: byId('list-browser-rows'),
  previous: byId('list-browser-previous'), next: byId('list-browser-next'), error: byId('list-browser-error'),
  status: byId('list-browser-status'),
};

let players = [];   // [{position, name, username, key}] as saved
let shown = [];     // the ones the search keeps
let page = 0;
let loading = null; // the request on its way, if any
let where = null;   // {room, hostKey}
let editing = null; // the place whose name is being changed, if any
let saving = false;

// Letters that no Unicode decomposition takes apart, folded by hand (Ødegaard = Odegaard).
const LETTERS = { ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** `text` without case and accents, and with single spaces: what the search compares. */
export function foldName(text) {
  return String(text).normalize('NFKD').replace(/\p{M}+/gu, '').toLocaleLowerCase('en')
    .replace(/[øæœßłđðþı]/g, (c) => LETTERS[c]).replace(/\s+/g, ' ').trim();
}

/** "Names 51–100 of 200", or with a search "Names 1–12 of 12 that match “ann” (200 in the list)". */
export function countText({ first, last, matching, total, query }) {
  if (total === 0) return 'The saved list is empty.';
  if (query && matching === 0) return `No name matches “${query}” (${entrantsText(total)} in the list).`;
  const range = `${first.toLocaleString('en')}–${last.toLocaleString('en')}`;
  if (!query) return `Names ${range} of ${total.toLocaleString('en')}`;
  return `Names ${range} of ${matching.toLocaleString('en')} that match “${query}” (${entrantsText(total)} in the list)`;
}

export function setUpListBrowser({ room, hostKey }) {
  where = { room, hostKey };
  el.open.addEventListener('click', () => {
    const opening = el.open.getAttribute('aria-expanded') !== 'true';
    el.open.setAttribute('aria-expanded', String(opening));
    show(el.box, opening);
    if (opening) load();
  });
  el.search.addEventListener('input', () => { page = 0; filter(); });
  el.previous.addEventListener('click', () => turn(-1));
  el.next.addEventListener('click', () => turn(1));
  el.rows.addEventListener('click', (ev) => {
    const action = ev.target.closest('button')?.dataset.action;
    const position = Number(ev.target.closest('li')?.dataset.position);
    if (action === 'change') edit(position);
    if (action === 'cancel') edit(null, position);
    if (action === 'save') rename(position);
  });
  el.rows.addEventListener('keydown', (ev) => {
    if (ev.target.dataset.testid !== 'list-row-input') return;
    const position = Number(ev.target.closest('li').dataset.position);
    if (ev.key === 'Enter') { ev.preventDefault(); rename(position); }
    if (ev.key === 'Escape') { ev.preventDefault(); edit(null, position); }
  });
}

/** Opens the editor of place `position` (`null`: closes it, focus back on `back`'s Change). */
function edit(position, back = null) {
  if (saving) return;
  editing = position;
  say('', '');
  render();
  const focus = position ? '[data-testid="list-row-input"]' : `li[data-position="${back}"] [data-action="change"]`;
  el.rows.querySelector(focus)?.focus();
}

/** A change's outcome: saved (status) or refused (error, an alert). */
function say(status, error) {
  setText(el.status, status);
  setText(el.error, error);
  show(el.error, error !== '');
}

async function rename(position) {
  if (saving) return;
  const input = el.rows.querySelector('[data-testid="list-row-input"]');
  saving = true;
  say('Saving…', '');
  const done = await saveRename(where, players.map((p) => p.name), position, input?.value ?? '');
  saving = false;
  if (!done.ok) {
    say('', done.text);
    return input?.focus();
  }
  editing = null;
  await load(); // the list as the server now keeps it, then the word that it is saved
  say(done.text, '');
  el.rows.querySelector(`li[data-position="${position}"] [data-action="change"]`)?.focus();
}

/** The saved list changed (saved again, or dropped): an open view loads it again. */
export function savedListChanged(hasList) {
  show(el.open, hasList);
  if (!hasList) {
    editing = null;
    say('', '');
    el.open.setAttribute('aria-expanded', 'false');
    show(el.box, false);
    players = [];
    return;
  }
  if (el.open.getAttribute('aria-expanded') === 'true') load();
}

async function load() {
  if (!where) return;
  const request = hostRequest(where.room, '/entrants', where.hostKey, { method: 'GET' });
  loading = request;
  setText(el.count, 'Loading the saved list…');
  show(el.error, false);
  const answer = await request;
  if (loading !== request) return; // a newer load answers instead
  loading = null;
  if (!answer.ok) {
    players = [];
    filter();
    setText(el.count, '');
    setText(el.error, listRefusalText(answer.error));
    show(el.error, true);
    return;
  }
  players = (answer.body?.entrants ?? []).map((p, i) => ({
    position: i + 1, name: p.name ?? '', username: p.username ?? '', key: foldName(p.name ?? ''),
  }));
  filter();
}

function filter() {
  const query = foldName(el.search.value);
  shown = query === '' ? players : players.filter((p) => p.key.includes(query));
  render();
}

function turn(step) {
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  const to = Math.min(pages - 1, Math.max(0, page + step));
  if (to === page) return;
  page = to;
  render();
  el.rows.scrollTop = 0;
}

function render() {
  const pages = Math.max(1, Math.ceil(shown.length / PAGE_SIZE));
  page = Math.min(page, pages - 1);
  const start = page * PAGE_SIZE;
  const rows = shown.slice(start, start + PAGE_SIZE);
  // Usernames came from JSON files: a list of names saved over them would lose them.
  const editable = players.every((p) => p.username === '');
  el.rows.replaceChildren(...rows.map((p) => {
    const li = document.createElement('li');
    li.dataset.position = String(p.position);
    const number = document.createElement('span');
    number.className = 'list-browser-position';
    number.textContent = p.position.toLocaleString('en');
    const name = document.createElement('bdi');
    name.className = 'list-browser-name';
    name.textContent = p.name;
    li.append(number, name);
    if (p.position === editing) {
      li.replaceChildren(number, rowEditor(p));
    } else if (editable) {
      li.append(' ', changeButton(p));
    }
    if (p.username) {
      const user = document.createElement('span');
      user.className = 'list-browser-username';
      user.textContent = `@${p.username}`;
      li.append(' ', user);
    }
    return li;
  }));
  show(el.rows, rows.length > 0);
  setText(el.count, countText({
    first: start + 1, last: start + rows.length, matching: shown.length, total: players.length,
    query: el.search.value.trim(),
  }));
  el.previous.setAttribute('aria-disabled', String(page === 0));
  el.next.setAttribute('aria-disabled', String(page >= pages - 1));
}
