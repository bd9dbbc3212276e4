// "Your rooms": the rooms this browser made, kept in localStorage (nowhere else: the server
// never lists rooms, and the host links hold each room's private key). It is what a host
// who closed the tab without saving the link comes back to.

import { byId, show } from './dom.js';

const KEY = 'live-draw.my-rooms';
const KEPT = 20; // the newest; a host with more has the links saved elsewhere

const el = { card: byId('my-rooms'), list: byId('my-rooms-list') };

/** The rooms kept here, newest first: [{room, title, hostUrl, createdAt}]. */
export function myRooms() {
  try {
    const rooms = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(rooms) ? rooms.filter((r) => r && typeof r.room === 'string' && typeof r.hostUrl === 'string') : [];
  } catch {
    return []; // storage blocked (private mode, a policy) or the value damaged: nothing kept
  }
}

/** Keeps a room this page made (its title may be null), replacing an older entry of the same name. */
export function rememberRoom({ room, title, hostUrl }) {
  const rooms = [{ room, title: title || null, hostUrl, createdAt: Date.now() }, ...myRooms().filter((r) => r.room !== room)];
  save(rooms.slice(0, KEPT));
}

/** Forgets a room here only; the room itself stays on the server. */
export function forgetRoom(room) {
  save(myRooms().filter((r) => r.room !== room));
}

function save(rooms) {
  try {
    localStorage.setItem(KEY, JSON.stringify(rooms));
  } catch {
    // Storage full or blocked: the list is a convenience, the saved link is the host's record.
  }
  renderMyRooms(lastShown);
}

let lastShown = false;

/** The card, where room creation shows (for hosts), when this browser made any room. */
export function renderMyRooms(shown) {
  lastShown = shown;
  const rooms = shown ? myRooms() : [];
  show(el.card, rooms.length > 0);
  if (rooms.length === 0) return;
  const current = new URLSearchParams(location.search).get('room');
  el.list.replaceChildren(...rooms.map((r) => item(r, r.room === current)));
}

function item(r, isCurrent) {
  const li = document.createElement('li');
  li.dataset.room = r.room;
  const link = document.createElement('a');
  link.href = r.hostUrl;
  const title = document.createElement('bdi');
  title.textContent = r.title ?? r.room;
  link.append(title);
  li.append(link);
  if (isCurrent) li.append(' ', Object.assign(document.createElement('span'), { className: 'hint', textContent: '(this page)' }));
  const name = Object.assign(document.createElement('span'), { className: 'my-room-name', textContent: r.room });
  const forget = Object.assign(document.createElement('button'), { type: 'button', className: 'button button-small', textContent: 'Forget' });
  forget.setAttribute('aria-label', `Forget ${r.title ?? r.room} in this browser`);
  forget.addEventListener('click', () => forgetRoom(r.room));
  li.append(name, forget);
  return li;
}
