// Creating a room: POST /api/rooms, then the two links to hand out, each with a copy button.

import { byId, setText, show } from './dom.js';
import { absoluteLink, isRoomName, ROOM_NAME_MAX } from './route.js';

const el = {
  section: byId('create-room'), form: byId('create-form'), input: byId('room-input'),
  error: byId('create-error'), links: byId('room-links'), viewerLink: byId('viewer-link'),
  hostLink: byId('host-link'), open: byId('host-link-open'), copied: byId('link-copied'),
};

/**
 * Room creation is for hosts: viewers never see the form. It shows on a host's page, and on a
 * page whose room does not exist (nothing to watch there, and its links are where a room starts).
 */
export function renderRooms(s) {
  show(el.section, s.isHost || s.connection === 'unknown-room');
}

export function setUpRooms() {
  // The rule is route.js's alone: the field only takes its length from there.
  el.input.maxLength = ROOM_NAME_MAX;
  el.form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const name = el.input.value.trim();
    if (name && !isRoomName(name)) {
      showError('Use 1 to 64 lowercase letters, digits or dashes.');
      return;
    }
    try {
      showLinks(await createRoom(name));
    } catch (error) {
      showError(error.message);
    }
  });
  for (const button of el.section.querySelectorAll('[data-copy]')) {
    button.addEventListener('click', () => copyField(byId(button.dataset.copy)));
  }
}

/**
 * Brings the form into view; into focus only when the user asked for it (`focus`): focusing it
 * by itself, e.g. because the page's room does not exist, would open a phone's keyboard.
 */
export function offerRoomCreation({ focus = false } = {}) {
  el.section.scrollIntoView({ block: 'nearest' });
  if (focus) el.input.focus();
}

async function createRoom(name) {
  let res;
  try {
    res = await fetch('/api/rooms', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(name ? { name } : {}),
    });
  } catch {
    throw new Error("Can't reach the live-draw server.");
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new Error(body?.error?.message ?? `The server answered ${res.status}.`);
  return body;
}

function showLinks(created) {
  show(el.error, false);
  el.viewerLink.value = absoluteLink(location, created.viewerUrl);
  el.hostLink.value = absoluteLink(location, created.hostUrl);
  el.open.href = created.hostUrl;
  setText(el.open, `Open room “${created.room}” as host`);
  setText(el.copied, '');
  show(el.links, true);
}

function showError(message) {
  setText(el.error, message);
  show(el.error, true);
}

async function copyField(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    setText(el.copied, 'Copied.');
  } catch {
    // Without clipboard access, a selected field is one Ctrl+C away.
    input.select();
    setText(el.copied, 'Selected: press Ctrl+C (⌘C) to copy.');
  }
}
