// The room's last result, from the snapshot: what someone joining between draws sees first.

import { byId, setText, show } from './dom.js';
import { verifyAndShow } from './verify-panel.js';

const el = { card: byId('last-result'), line: byId('last-line'), verify: byId('verify-last') };
let record = null;

export function setUpLastResult() {
  el.verify.addEventListener('click', () => { if (record) verifyAndShow(record); });
}

export function renderLastResult(s) {
  record = s.lastResult;
  // While the result is on the stage, the card would only repeat it.
  const visible = record !== null && s.phase !== 'result' && s.connection !== 'unknown-room';
  show(el.card, visible);
  if (!visible) return;
  const who = record.outcome === 'void' ? 'No winner (the drawn entry was void)'
    : `${record.winner.name} (@${record.winner.username}) won`;
  const when = new Date(record.finishedAt).toLocaleString();
  setText(el.line, `${who} · ${when}`);
}
