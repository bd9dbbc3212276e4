// The host's "Your list of entrants" panel (issue 15): the room's own list, pasted (one name per line) or
// chosen as files (.txt, or the seed's users.json + usersInLottery.json), saved with the host
// key (PUT /api/rooms/ROOM/entrants), or dropped for the server's lists (DELETE). The count and
// the merge warnings come from the view state, so a reload shows them again from the snapshot.

import { byId, setText, show } from './dom.js';
import { hostRequest } from './host-api.js';
import { savedListChanged, setUpListBrowser } from './list-browser.js';
import { blockingProblems, noteNameLimit, recheck, setUpListProblems } from './list-problems.js';
import { showOutcome } from './panel-lines.js';
import { entrantsText, listRefusalText, warningCodesText, warningText } from './room-words.js';

const el = {
  panel: byId('entrants-panel'), source: byId('list-source'),
  warningsBox: byId('list-warnings-box'), warnings: byId('list-warnings'), codes: byId('list-warning-codes'),
  form: byId('entrants-form'), input: byId('entrants-input'), file: byId('entrants-file'),
  fileNote: byId('entrants-file-note'), busyNote: byId('entrants-busy'),
  save: byId('entrants-save'), useDefault: byId('entrants-default'), load: byId('entrants-load'),
  status: byId('entrants-status'), error: byId('entrants-error'), detail: byId('entrants-error-detail'),
};

const BUSY_PHASES = new Set(['loading', 'live']);
let busy = false;     // a draw runs, or a request of this panel is on its way
let sending = false;
let chosenJson = null; // {users, usersInLottery} from chosen .json files, sent instead of the text
let last = null;       // the view state last rendered

/** Whether the room can have a list of its own: never the lobby (PROTOCOL.md §5.6). */
export function takesOwnList(s) {
  return s.isHost && s.room !== 'lobby' && s.connection !== 'record' && s.connection !== 'unknown-room';
}

export function setUpEntrantsPanel({ room, hostKey, dispatch }) {
  setUpListBrowser({ room, hostKey });
  const send = async (request, done) => {
    if (busy) return;
    sending = true;
    setBusy(true);
    say('Saving…', null);
    const answer = await hostRequest(room, '/entrants', hostKey, request);
    sending = false;
    if (answer.ok) {
      done(answer.body);
      return;
    }
    say('', answer.error);
    // The limit the refusal names marks every line past it, each to fix or skip.
    if (answer.error.code === 'name_too_long') noteNameLimit(Number(/than (\d+)/.exec(answer.error.message ?? '')?.[1]));
    if (answer.error.code === 'forbidden') dispatch({ type: 'host-error', error: answer.error });
    if (last) renderEntrantsPanel(last); // the state did not change: enable the buttons here
  };
  el.form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const request = listRequest();
    if (typeof request === 'string') return say('', { code: 'local', message: request }, request);
    if (!chosenJson && blockingProblems().length > 0) {
      return say('', null, 'Some lines are longer than this server takes: fix or skip the lines marked below, then save.');
    }
    send(request, (body) => {
      dispatch({ type: 'room-changed', what: 'entrants', answer: body });
      savedListChanged(true);
      say(`Saved: this room now draws from its own list of ${entrantsText(body.entrants)}.`, null);
    });
  });
  el.useDefault.addEventListener('click', () => send({ method: 'DELETE' }, () => {
    dispatch({ type: 'room-changed', what: 'no-entrants' });
    savedListChanged(false);
    say("Saved: this room now draws from the server's names.", null);
  }));
  el.input.addEventListener('input', () => forgetFiles());
  setUpListProblems(el.input);
  el.load.addEventListener('click', async () => {
    if (busy) return;
    say('Loading the saved list…', null);
    const answer = await hostRequest(room, '/entrants', hostKey, { method: 'GET' });
    if (!answer.ok) return say('', answer.error);
    const players = answer.body?.entrants ?? [];
    forgetFiles();
    el.input.value = players.map((p) => p.name).join('\n');
    recheck();
    const fromFiles = players.some((p) => p.username !== '');
    say(`The saved list is in the box: ${entrantsText(players.length)}, one per line.`
      + (fromFiles ? ' It came from JSON files: saving it from the box keeps the names only.' : ' Edit it, then save.'), null);
  });
  el.file.addEventListener('change', () => readFiles([...el.file.files]));
}

/** What Save sends: the chosen JSON files, else the pasted text; a string says what is missing. */
function listRequest() {
  if (chosenJson) return { method: 'PUT', body: JSON.stringify(chosenJson), contentType: 'application/json' };
  if (el.input.value.trim() === '') return 'Paste at least one name, or choose a file.';
  return { method: 'PUT', body: el.input.value, contentType: 'text/plain; charset=utf-8' };
}

/**
 * A .txt file goes into the text box (to be read and edited before saving); .json files are
 * the seed's two documents, told apart by their shape, or one `{users, usersInLottery}` object.
 */
async function readFiles(files) {
  forgetFiles({ keepInput: true });
  if (files.length === 0) return;
  const json = files.filter((f) => /\.json$/i.test(f.name) || f.type === 'application/json');
  if (json.length === 0) {
    if (files.length > 1) return say('', null, 'Choose one .txt file (or the two .json files).');
    el.input.value = await files[0].text();
    return note(`${files[0].name} is in the box above: check it, then save the list.`);
  }
  if (json.length !== files.length) return say('', null, 'Choose either one .txt file or .json files, not both.');
  const parts = {};
  for (const file of json) {
    let doc;
    try { doc = JSON.parse(await file.text()); } catch {
      return say('', null, `${file.name} could not be read: it is not valid JSON.`);
    }
    if (doc && typeof doc === 'object' && 'users' in doc && 'usersInLottery' in doc) Object.assign(parts, doc);
    else if (doc && typeof doc === 'object' && 'items' in doc) parts.users = doc;
    else if (doc && typeof doc === 'object' && 'lotteryList' in doc) parts.usersInLottery = doc;
    else return say('', null, `${file.name} is neither a users list ("items") nor a lottery list ("lotteryList").`);
  }
  if (!parts.users || !parts.usersInLottery) {
    return say('', null, 'Choose both users.json and usersInLottery.json (select the two files together).');
  }
  chosenJson = { users: parts.users, usersInLottery: parts.usersInLottery };
  el.input.value = '';
  note(`Ready to save: ${json.map((f) => f.name).join(' and ')}.`);
}

function forgetFiles({ keepInput = false } = {}) {
  chosenJson = null;
  if (!keepInput) el.file.value = '';
  show(el.fileNote, false);
  say('', null);
}

function note(text) {
  setText(el.fileNote, text);
  show(el.fileNote, true);
}

function say(status, error, local = null) {
  if (local !== null) return showOutcome(el, status, local);
  showOutcome(el, status, error ? listRefusalText(error) : '', error);
}

function setBusy(value) {
  busy = value;
  for (const button of [el.save, el.useDefault, el.load]) button.setAttribute('aria-disabled', String(value));
  el.input.readOnly = value;
  el.file.disabled = value;
}

let hadList = null;
/** The browse button goes with a saved list; an open view follows the list it shows. */
function showBrowser(hasList) {
  if (hasList === hadList) return;
  hadList = hasList;
  savedListChanged(hasList);
}

export function renderEntrantsPanel(s) {
  last = s;
  const shown = takesOwnList(s);
  show(el.panel, shown);
  if (!shown) return;
  const drawing = BUSY_PHASES.has(s.phase) || s.startPending;
  setBusy(drawing || sending);
  show(el.busyNote, drawing);
  const list = s.entrants;
  setText(el.source, list
    ? `This room draws from its own list: ${entrantsText(list.count)}.`
    : "This room draws from the server's names. Paste names or choose a file to use your own.");
  show(el.useDefault, list !== null);
  show(el.load, list !== null);
  showBrowser(list !== null);
  const counts = list?.warnings ?? [];
  show(el.warningsBox, counts.length > 0);
  el.warnings.replaceChildren(...counts.map((c) => {
    const li = document.createElement('li');
    li.textContent = warningText(c);
    li.dataset.code = c.code;
    return li;
  }));
  setText(el.codes, counts.length > 0 ? warningCodesText(counts) : '');
}
