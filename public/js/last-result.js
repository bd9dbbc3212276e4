// The room's last result, from the snapshot: what someone joining between draws sees first.

import { byId, setText, show } from './dom.js';
import { verifyAndShow } from './verify-panel.js';
import { drawTime, outcomeText, timeText } from './words.js';

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
  setText(el.line, `${outcomeText(record)} · ${timeText(drawTime(record))}`);
}
