// The host's "Settings" panel (issue 15): winners, rounds, the pace and the countdown of the
// room's next draws, saved with the host key (PUT /api/rooms/ROOM/settings). The server checks
// them against the operator's limits and says which one a value broke.

import { byId, show } from './dom.js';
import { hostRequest } from './host-api.js';
import { showOutcome } from './panel-lines.js';
import { settingsRefusalText } from './room-words.js';
import { takesOwnList } from './entrants-panel.js';

const el = {
  panel: byId('settings-panel'), form: byId('settings-form'), save: byId('settings-save'),
  status: byId('settings-status'), error: byId('settings-error'), detail: byId('settings-error-detail'),
};
// Form field → setting; times are asked in seconds (a host does not think in ms) and sent in
// milliseconds; the title and prize are text (trimmed; empty is none).
const FIELDS = [
  { input: byId('setting-title'), key: 'title', label: 'The title', text: true },
  { input: byId('setting-prize'), key: 'prize', label: 'The prize', text: true },
  { input: byId('setting-winners'), key: 'winners', label: 'Winners' },
  { input: byId('setting-rounds'), key: 'rounds', label: 'The number of flips' },
  { input: byId('setting-interval'), key: 'intervalMs', label: 'The time between flips', scale: 1000 },
  { input: byId('setting-decelerate'), key: 'decelerateToMs', label: 'The time before the last flip', scale: 1000 },
  { input: byId('setting-countdown'), key: 'countdownMs', label: 'The countdown', scale: 1000 },
];
const BUSY_PHASES = new Set(['loading', 'live']);

// The host changed a field: the snapshot no longer overwrites the form. Both events count: a
// field emptied by a script or an autofill fires only 'change', and a snapshot that arrived
// between the emptying and the typing refilled it, so the typed value was appended to the old one.
let edited = false;
let sending = false;
let busy = false;
let last = null;

export function setUpSettingsPanel({ room, hostKey, dispatch }) {
  for (const f of FIELDS) {
    for (const type of ['input', 'change']) f.input.addEventListener(type, () => { edited = true; });
  }
  el.form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (busy) return;
    const settings = readForm();
    if (typeof settings === 'string') return say('', null, settings);
    sending = true;
    setBusy(true);
    say('Saving…', null);
    const answer = await hostRequest(room, '/settings', hostKey, { method: 'PUT', body: JSON.stringify(settings) });
    sending = false;
    if (answer.ok) {
      edited = false;
      dispatch({ type: 'room-changed', what: 'settings', answer: answer.body });
      say(`Saved: the next draw has ${winnersText(answer.body.settings?.winners ?? settings.winners ?? 1)}.`, null);
      return;
    }
    say('', answer.error);
    if (answer.error.code === 'forbidden') dispatch({ type: 'host-error', error: answer.error });
    if (last) renderSettingsPanel(last);
  });
}

const winnersText = (n) => (n === 1 ? '1 winner' : `${n} winners`);

/**
 * The body: every field, an empty one as null (the operator's value), since PUT replaces the
 * room's settings whole. A string says which field is not a number the server could take.
 */
function readForm() {
  const settings = {};
  for (const f of FIELDS) {
    const raw = f.input.value.trim();
    if (f.text) {
      settings[f.key] = raw === '' ? null : raw.replace(/\s+/g, ' ');
      continue;
    }
    if (raw === '') {
      settings[f.key] = null;
      continue;
    }
    const value = Math.round(Number(raw) * (f.scale ?? 1));
    if (!Number.isFinite(Number(raw)) || (f.scale === undefined && !Number.isInteger(Number(raw)))) {
      return f.scale ? `${f.label} must be a number of seconds, such as 0.5.` : `${f.label} must be a whole number.`;
    }
    settings[f.key] = value;
  }
  return settings;
}

function say(status, error, local = null) {
  if (local !== null) return showOutcome(el, status, local);
  showOutcome(el, status, error ? settingsRefusalText(error) : '', error);
}

function setBusy(value) {
  busy = value;
  el.save.setAttribute('aria-disabled', String(value));
  for (const f of FIELDS) f.input.readOnly = value;
}

export function renderSettingsPanel(s) {
  last = s;
  const shown = takesOwnList(s) && s.settings !== null;
  show(el.panel, shown);
  if (!shown) return;
  setBusy(BUSY_PHASES.has(s.phase) || s.startPending || sending);
  if (edited) return;
  for (const f of FIELDS) {
    if (f.input === document.activeElement) continue;  // never under the host's cursor
    const value = s.settings[f.key];
    const text = value === null || value === undefined ? '' : f.text ? value : String(value / (f.scale ?? 1));
    if (f.input.value !== text) f.input.value = text;
  }
}
