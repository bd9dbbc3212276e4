// "Add to your stream" (issue 28, item 4): the overlay's address for OBS or any streaming tool's
// browser source, with a copy button, the size to give the source, and a preview. For hosts: the
// overlay is the room's viewer view, so its address holds no key.

import { copyField } from './copy.js';
import { byId, show } from './dom.js';

const el = { card: byId('stream'), link: byId('stream-link'), copy: byId('stream-copy'), copied: byId('stream-copied'),
  preview: byId('stream-preview'), sound: byId('stream-sound') };
let last = null;

export function setUpStreamPanel() {
  el.copy.addEventListener('click', () => copyField(el.link, el.copied));
  el.sound.addEventListener('change', () => { if (last) renderStreamPanel(last); });
}

export function renderStreamPanel(s) {
  const shown = s.isHost && s.connection !== 'unknown-room' && s.connection !== 'record';
  show(el.card, shown);
  last = s;
  if (!shown) return;
  // `sound=on`: the overlay plays its ticks and chord without a click (sound.js).
  const sound = el.sound.checked ? '&sound=on' : '';
  const url = new URL(`/?room=${encodeURIComponent(s.room)}&view=overlay${sound}`, location.origin).href;
  if (el.link.value !== url) el.link.value = url;
  if (el.preview.getAttribute('href') !== url) el.preview.href = url;
}
