// The giveaway's title and prize (the room's `title` and `prize` settings, issue 28) above the
// draw: on the room's page and its overlay from the snapshot and `room` messages, on the result
// page (`/?draw=ID`) from the room as it is now (GET /api/rooms/ROOM), since a record names only
// its room.

import { byId, setText, show } from './dom.js';

const el = { box: byId('giveaway'), title: byId('giveaway-title'), prize: byId('giveaway-prize') };
let fetched = null; // {room, settings} the result page loaded

/** {title, prize} to show for the view state: either may be null. */
export function giveawayOf(s) {
  const settings = s.connection === 'record' ? (fetched?.room === s.room ? fetched.settings : null) : s.settings;
  const text = (v) => (typeof v === 'string' && v.trim() !== '' ? v : null);
  return { title: text(settings?.title), prize: text(settings?.prize) };
}

export function renderGiveaway(s) {
  if (s.connection === 'record' && fetched?.room !== s.room) loadRoom(s);
  const { title, prize } = giveawayOf(s);
  show(el.box, title !== null || prize !== null);
  setText(el.title, title ?? '');
  show(el.title, title !== null);
  setText(el.prize, prize ? `Prize: ${prize}` : '');
  show(el.prize, prize !== null);
  if (s.connection === 'record') titleResultPage(title);
}

/**
 * The result page is named after its giveaway (issue 28, item 8): the tab's title (what a
 * bookmark, a tab and a shared link's preview show) starts with it, before the result view.js
 * puts there; the stage already shows it as its headline.
 */
function titleResultPage(title) {
  const prefix = title ? `${title} · ` : '';
  if (prefix && !document.title.startsWith(prefix)) document.title = prefix + document.title;
}

/** The result page's room, once; a room since deleted just shows no title. */
async function loadRoom(s) {
  fetched = { room: s.room, settings: null };
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(s.room)}`);
    if (!res.ok) return;
    const room = await res.json();
    fetched = { room: s.room, settings: room.settings ?? null };
    renderGiveaway(s);
  } catch {
    // Unreachable: the result stands without its title.
  }
}
