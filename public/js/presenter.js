// "Show the QR code" (issue 28, item 7): the room's viewer link as a QR code filling the screen,
// for a projector, with the link in large type; never the host key. A modal <dialog>, so Escape
// closes it and focus stays inside; "Full screen" asks the browser for the whole display.

import { byId, setText, show } from './dom.js';
import { loopbackWarning, viewerLink } from './share-address.js';

const el = {
  open: byId('share-present'), dialog: byId('presenter'), qr: byId('presenter-qr'), url: byId('presenter-url'),
  title: byId('presenter-giveaway'), warning: byId('presenter-warning'),
  full: byId('presenter-full'), close: byId('presenter-close'),
};

export function setUpPresenter() {
  el.open.addEventListener('click', () => el.dialog.showModal());
  el.close.addEventListener('click', () => el.dialog.close());
  el.full.addEventListener('click', async () => {
    if (document.fullscreenElement) await document.exitFullscreen();
    else await el.dialog.requestFullscreen?.().catch(() => {});
  });
  document.addEventListener('fullscreenchange', () => {
    setText(el.full, document.fullscreenElement ? 'Leave full screen' : 'Full screen');
  });
  el.dialog.addEventListener('close', () => { if (document.fullscreenElement) document.exitFullscreen(); });
}

export function renderPresenter(s) {
  if (el.qr.dataset.room !== s.room) {
    el.qr.dataset.room = s.room;
    el.qr.src = `/api/rooms/${encodeURIComponent(s.room)}/qr.svg`;
    setText(el.url, viewerLink(s.room));
  }
  const title = s.settings?.title ?? '';
  setText(el.title, title);
  show(el.title, title !== '');
  const warning = loopbackWarning(location);
  setText(el.warning, warning);
  show(el.warning, warning !== '');
}
