// The Entrants panel's list of problem lines (list-check.js): each with its line number, a "Show"
// that selects the line in the box (to fix it there) and a "Skip" that takes it out, so one bad
// line never means pasting the whole list again.

import { byId, setText, show } from './dom.js';
import { checkList, lineRange, withoutLine } from './list-check.js';

const el = { box: byId('list-problems-box'), list: byId('list-problems'), summary: byId('list-problems-summary') };
const SHOWN = 20; // a list of 5,000 duplicates says how many, and shows the first ones
const CHECK_DELAY_MS = 150;

let input = null;
let maxChars = null; // the server's limit on a name, once a refusal named it
let problems = [];
let timer = 0;

/** Checks `textarea` as the host types or pastes into it. */
export function setUpListProblems(textarea) {
  input = textarea;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(recheck, CHECK_DELAY_MS);
  });
}

/** The server named its limit on a name (a `name_too_long` refusal): every longer line is marked. */
export function noteNameLimit(limit) {
  if (Number.isInteger(limit) && limit > 0) maxChars = limit;
  recheck();
}

/** Whether the box has lines the server would refuse the whole list for. */
export function blockingProblems() {
  recheck();
  return problems.filter((p) => p.blocking);
}

export function recheck() {
  clearTimeout(timer);
  problems = input ? checkList(input.value, { maxChars }) : [];
  show(el.box, problems.length > 0);
  const blocking = problems.filter((p) => p.blocking).length;
  setText(el.summary, blocking > 0
    ? `${blocking === 1 ? 'One line needs' : `${blocking} lines need`} fixing or skipping before the list can be saved.`
    : `Worth a look before saving (${problems.length === 1 ? 'one line' : `${problems.length} lines`}):`);
  el.list.replaceChildren(...problems.slice(0, SHOWN).map(item));
  if (problems.length > SHOWN) {
    el.list.append(Object.assign(document.createElement('li'), { textContent: `…and ${problems.length - SHOWN} more.` }));
  }
}

function item(p) {
  const li = document.createElement('li');
  li.dataset.kind = p.kind;
  li.dataset.line = String(p.line);
  li.classList.toggle('blocking', p.blocking);
  const text = document.createElement('span');
  text.textContent = p.message;
  const fix = button('Show', `Show line ${p.line} in the box`, () => selectLine(p.line));
  const skip = button('Skip', `Skip line ${p.line}`, () => {
    input.value = withoutLine(input.value, p.line);
    input.dispatchEvent(new Event('input', { bubbles: true }));
    recheck();
  });
  li.append(text, ' ', fix, ' ', skip);
  return li;
}

function button(label, name, act) {
  const b = Object.assign(document.createElement('button'), { type: 'button', className: 'button button-small', textContent: label });
  b.setAttribute('aria-label', name);
  b.addEventListener('click', act);
  return b;
}

/** Selects the line in the box and scrolls it into view: the browser's own highlight. */
function selectLine(line) {
  const [start, end] = lineRange(input.value, line);
  input.focus();
  input.setSelectionRange(start, end);
  // Scroll so the line shows: its share of the text's height, near the top.
  const lines = input.value.split(/\r\n|\r|\n/).length;
  input.scrollTop = Math.max(0, (input.scrollHeight * (line - 1)) / lines - input.clientHeight / 3);
}
