// The first-run path (issue 28, item 1): a giveaway of the host's own gets a room of its own.
// The host types a title ("Spring Giveaway"); the room is named after it (slug.js), the title
// is kept as the room's `title` setting for display, and the new room's private host link is
// shown as a step of its own ("save this link"), with copy buttons, and kept in this browser
// (my-rooms.js). In the lobby's host view this card comes first and says why it is there.

import { copyField } from './copy.js';
import { byId, setText, show } from './dom.js';
import { hostRequest } from './host-api.js';
import { rememberRoom, renderMyRooms } from './my-rooms.js';
import { absoluteLink, isRoomName } from './route.js';
import { slugify } from './slug.js';

const TITLE_MAX = 80; // the server's limit on a title (RoomSettingsLimits.maxTitleLength)

const el = {
  section: byId('create-room'), form: byId('create-form'), input: byId('room-input'),
  slug: byId('room-slug'), intro: byId('lobby-intro'),
  error: byId('create-error'), links: byId('room-links'), viewerLink: byId('viewer-link'),
  hostLink: byId('host-link'), open: byId('host-link-open'), copied: byId('link-copied'),
  saveTitle: byId('save-title'), myRooms: byId('my-rooms'), side: document.querySelector('.side'),
};

/**
 * Room creation is for hosts: viewers never see the form. It shows on a host's page, and on a
 * page whose room does not exist (nothing to watch there, and its links are where a room starts).
 */
export function renderRooms(s) {
  const shown = s.isHost || s.connection === 'unknown-room';
  show(el.section, shown);
  renderMyRooms(shown);
  // The lobby draws from the server's sample names: its host came for a giveaway of their own,
  // so the way to one comes first, with why.
  const lobbyHost = s.isHost && s.room === 'lobby' && s.connection !== 'record';
  show(el.intro, lobbyHost);
  if (lobbyHost && el.side.firstElementChild !== el.section) el.side.prepend(el.section, el.myRooms);
}

export function setUpRooms() {
  el.input.maxLength = TITLE_MAX;
  el.input.addEventListener('input', () => renderSlug());
  renderSlug();
  el.form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const title = el.input.value.trim().replace(/\s+/g, ' ');
    const name = slugify(title);
    if (title && !isRoomName(name)) {
      return showError('Use a title with some letters or digits in it (a–z, 0–9), or leave it empty.');
    }
    try {
      const created = await createRoom(name, title);
      // The title is the room's own setting, for every page of it; a title that is just the
      // room's name adds nothing.
      const shownTitle = title && title !== created.room ? title : null;
      if (shownTitle) await hostRequest(created.room, '/settings', created.hostKey, { method: 'PUT', body: JSON.stringify({ title: shownTitle }) });
      rememberRoom({ room: created.room, title: shownTitle, hostUrl: created.hostUrl });
      showLinks(created, shownTitle);
    } catch (error) {
      showError(error.message);
    }
  });
  for (const button of el.section.querySelectorAll('[data-copy]')) {
    button.addEventListener('click', () => copyField(byId(button.dataset.copy), el.copied));
  }
}

/** What the room will be called, as the host types: the address is what viewers will see. */
function renderSlug() {
  const name = slugify(el.input.value);
  setText(el.slug, name ? `The room will be called “${name}”.`
    : 'Leave it empty and the server picks a name for the room.');
}

/**
 * Brings the form into view; into focus only when the user asked for it (`focus`): focusing it
 * by itself, e.g. because the page's room does not exist, would open a phone's keyboard.
 */
export function offerRoomCreation({ focus = false } = {}) {
  el.section.scrollIntoView({ block: 'nearest' });
  if (focus) el.input.focus();
}

async function createRoom(name, title) {
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
  if (res.status === 409) {
    throw new Error(`There is already a room called “${name}”. Change the title a little (add the year, say) and try again.`);
  }
  if (!res.ok) throw new Error(body?.error?.message ?? `The server answered ${res.status}.`);
  return body;
}

function showLinks(created, title) {
  show(el.error, false);
  el.viewerLink.value = absoluteLink(location, created.viewerUrl);
  el.hostLink.value = absoluteLink(location, created.hostUrl);
  el.open.href = created.hostUrl;
  const label = title ?? created.room;
  setText(el.saveTitle, `Save the host link of “${label}” now`);
  setText(el.open, `Open “${label}” as host`);
  setText(el.copied, '');
  show(el.links, true);
  el.saveTitle.focus();
}

function showError(message) {
  setText(el.error, message);
  show(el.error, true);
}
