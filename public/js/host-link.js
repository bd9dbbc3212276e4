// The host's own link on the host page, hidden until asked for (issue 28, item 7): on a projector
// the page must not show the key, yet the host needs the link to come back or to hand over.

import { copyField } from './copy.js';
import { byId, show } from './dom.js';

const el = {
  box: byId('own-host-link-box'), input: byId('own-host-link'), toggle: byId('own-host-link-show'),
  copy: byId('own-host-link-copy'), copied: byId('own-host-link-copied'),
};

export function setUpHostLink({ room, hostKey }) {
  el.input.value = new URL(`/?room=${encodeURIComponent(room)}#key=${encodeURIComponent(hostKey)}`, location.origin).href;
  el.toggle.addEventListener('click', () => reveal(el.input.type === 'password'));
  el.copy.addEventListener('click', async () => {
    // A hidden field cannot be selected for Ctrl+C; the clipboard path does not need it shown.
    const hidden = el.input.type === 'password';
    if (hidden) reveal(true);
    await copyField(el.input, el.copied);
    if (hidden && navigator.clipboard) reveal(false);
  });
  show(el.box, true);
}

function reveal(visible) {
  el.input.type = visible ? 'text' : 'password';
  el.toggle.textContent = visible ? 'Hide' : 'Show';
  el.toggle.setAttribute('aria-pressed', String(visible));
}
