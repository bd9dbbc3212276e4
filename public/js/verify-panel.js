// The verify panel: shows the item-by-item check of one ended draw (the one just shown, the
// room's last result, one from the recent draws, or a record the user pastes) and lets people copy the record to check it
// elsewhere (tools/verify_draw.py).

import { byId, setText, show } from './dom.js';
import { entrantsOf } from './entrants.js';
import { findRecord, ISOLATE, isStopped, POP_ISOLATE, verifyRecord } from './verify.js';
import { stoppedText } from './words.js';

const el = {
  report: byId('verify-report'), result: byId('verify-result'), items: byId('verify-items'),
  drawId: byId('verify-draw-id'), note: byId('verify-note'),
  copy: byId('copy-record'), copied: byId('copy-record-done'),
  input: byId('verify-input'), inputButton: byId('verify-input-button'),
};
let shownRecord = null;
let runId = 0; // a newer request wins over a slower older one

export function setUpVerifyPanel() {
  el.inputButton.addEventListener('click', () => {
    let record;
    try {
      record = findRecord(JSON.parse(el.input.value));
    } catch (error) {
      showVerifyError(error instanceof SyntaxError ? 'That is not valid JSON.' : error.message);
      return;
    }
    verifyAndShow(record);
  });
  el.copy.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(shownRecord, null, 2));
      setText(el.copied, 'Copied.');
    } catch {
      setText(el.copied, 'Copying is not allowed here.');
    }
  });
}

/** Verifies `record` (plus optional live evidence, see verifyRecord) and shows the report. */
export async function verifyAndShow(record, evidence = {}) {
  const id = ++runId;
  shownRecord = record;
  show(el.report, true);
  setStatus('running', 'Checking…');
  setText(el.drawId, `Draw ${record.drawId ?? '?'}`);
  // Said up front: a stopped draw's report lacks the outcome on purpose, not by a bug.
  show(el.note, isStopped(record));
  setText(el.note, isStopped(record) ? `${stoppedText(record)} Only the flips shown are checked.` : '');
  el.items.replaceChildren();
  setText(el.copied, '');
  let report;
  try {
    // A v2 result names only its entrants' hash: the list comes from the server once, and its
    // hash is one of the checks below. The copied record then carries it, self-contained.
    const entrants = await entrantsOf(record);
    if (id !== runId) return;
    const full = Array.isArray(record.entrants) ? record : { ...record, entrants };
    shownRecord = full;
    // A redraw (FAIRNESS.md §5b) is checked against the draw it redraws: its entrants must be
    // that draw's less every entry drawn there.
    const base = evidence.base !== undefined ? evidence.base : await baseOf(full);
    if (id !== runId) return;
    if (full.redrawOf && base === undefined) {
      show(el.note, true);
      setText(el.note, 'The draw this one redraws could not be fetched, so its list of entrants was not compared.');
    }
    report = await verifyRecord(full, { ...evidence, base });
  } catch (error) {
    if (id === runId) showError(error.message);
    return;
  }
  if (id !== runId) return;
  const failed = report.items.filter((item) => !item.ok).length;
  setStatus(report.ok ? 'ok' : 'mismatch', report.ok
    ? `Verified: all ${report.items.length} checks match.`
    : `Mismatch: ${failed} of ${report.items.length} checks fail. Do not trust this draw.`);
  setText(el.drawId, `Draw ${report.drawId}`);
  el.items.replaceChildren(...report.items.map(itemElement));
}

/** The record (with its entrants) of the draw `record` redraws; undefined if none or unreachable. */
async function baseOf(record) {
  const drawId = record.redrawOf?.drawId;
  if (!/^[0-9a-f]{32}$/.test(drawId ?? '')) return undefined;
  try {
    const res = await fetch(`/api/draws/${drawId}`);
    if (!res.ok) return undefined;
    const base = await res.json();
    return Array.isArray(base.entrants) ? base : { ...base, entrants: await entrantsOf(base) };
  } catch {
    return undefined;
  }
}

/** Hides the report, e.g. when a new draw starts and the old report would be stale. */
export function clearReport() {
  runId++;
  shownRecord = null;
  show(el.report, false);
}

/** Shows why there is no record to check (unreadable paste, failed fetch): nothing to copy. */
export function showVerifyError(message) {
  shownRecord = null;
  showError(message);
}

function showError(message) {
  runId++;
  show(el.report, true);
  setStatus('error', `Cannot verify: ${message}`);
  setText(el.drawId, '');
  show(el.note, false);
  el.items.replaceChildren();
}

function setStatus(status, text) {
  el.result.dataset.status = status;
  setText(el.result, text);
  // Also on errors: without WebCrypto, copying the record to tools/verify_draw.py is the way.
  show(el.copy, shownRecord !== null && status !== 'running');
}

function itemElement(item) {
  const li = document.createElement('li');
  li.className = item.ok ? 'ok' : 'bad';
  li.dataset.item = item.id;
  li.dataset.ok = String(item.ok);
  const mark = document.createElement('span');
  mark.className = 'mark';
  mark.textContent = item.ok ? '✓\u00a0match' : '✗\u00a0mismatch'; // never split over two lines
  const label = document.createElement('span');
  label.className = 'label';
  label.append(...isolated(item.label));
  li.append(mark, label);
  if (item.detail) {
    const detail = document.createElement('span');
    detail.className = 'detail';
    detail.append(...isolated(item.detail));
    li.append(detail);
  }
  if (item.href) {
    // The beacon's round on a public relay (verify.js `checkBeacon`): anyone can compare it there.
    const link = document.createElement('a');
    link.className = 'relay';
    link.href = item.href;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
    link.textContent = 'check on api.drand.sh';
    li.append(' ', link);
  }
  return li;
}

/** Text with its isolated parts (names, see verify.js `nameAt`) as <bdi> elements. */
function isolated(text) {
  const pattern = new RegExp(`${ISOLATE}([^${POP_ISOLATE}]*)${POP_ISOLATE}`, 'g');
  const parts = [];
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    parts.push(text.slice(at, match.index));
    const bdi = document.createElement('bdi');
    bdi.textContent = match[1];
    parts.push(bdi);
    at = match.index + match[0].length;
  }
  parts.push(text.slice(at));
  return parts;
}
