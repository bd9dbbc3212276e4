// The share card: the room's link in full with a copy button, its QR code (drawn by the server,
// GET /api/rooms/ROOM/qr.svg) so people in the room can join from a phone, a large presenter
// view of it (presenter.js), and a warning when this page's address would not work elsewhere.

import { copyField } from './copy.js';
import { byId, setText, show } from './dom.js';
import { loopbackWarning, viewerLink } from './share-address.js';

const el = {
  card: byId('share'), qr: byId('share-qr'), link: byId('share-link'),
  copy: byId('share-copy'), copied: byId('share-copied'), warning: byId('share-local-warning'),
};

export function setUpShare() {
  el.copy.addEventListener('click', () => copyField(el.link, el.copied));
}

/** Shown once the room is known to exist (the page is connected to it). */
export function renderShare(s) {
  const known = s.connection !== 'unknown-room' && s.viewers !== null;
  show(el.card, known);
  if (!known || el.qr.dataset.room === s.room) return;
  el.qr.dataset.room = s.room;
  el.qr.src = `/api/rooms/${encodeURIComponent(s.room)}/qr.svg`;
  el.link.value = viewerLink(s.room);
  const warning = loopbackWarning(location);
  setText(el.warning, warning);
  show(el.warning, warning !== '');
}
