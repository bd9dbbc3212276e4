// Changing one name of the saved list from "Browse the saved list" (issue 28, item 3): a host who
// finds a misspelt name among hundreds fixes that row, and the list is saved again with it, in its
// order (PUT /api/rooms/ROOM/entrants as text), without pasting the rest again. Offered for lists
// of names only (pasted, or a .txt file): a list read from JSON files has usernames and user ids
// that a list of names cannot keep, so its rows stay read only.

import { hostRequest } from './host-api.js';
import { listRefusalText } from './room-words.js';

/** The saved names with place `position` (1-based) renamed `name`, one per line, as Save sends them. */
export function renamedList(names, position, name) {
  return names.map((n, i) => (i === position - 1 ? name : n)).join('\n');
}

function button(text, action, label) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'button button-small';
  b.dataset.action = action;
  b.dataset.testid = `list-row-${action}`;
  b.textContent = text;
  if (label) b.setAttribute('aria-label', label);
  return b;
}

/** A row's "Change" button; its label names the entrant, as a screen reader lists the buttons. */
export function changeButton(p) {
  return button('Change', 'change', `Change “${p.name}” (place ${p.position.toLocaleString('en')})`);
}

/** The row's editor: the name in a text box, then Save and Cancel. */
export function rowEditor(p) {
  const box = document.createElement('span');
  box.className = 'list-row-editor';
  const input = document.createElement('input');
  input.type = 'text';
  input.value = p.name;
  input.dir = 'auto';
  input.autocomplete = 'off';
  input.dataset.testid = 'list-row-input';
  input.setAttribute('aria-label', `New name for place ${p.position.toLocaleString('en')}`);
  box.append(input, button('Save', 'save', `Save the new name for place ${p.position.toLocaleString('en')}`),
    button('Cancel', 'cancel'));
  return box;
}

/**
 * Saves the list with one name changed; `{ok, text}` says what happened in words (`where`: the
 * room and host key, `names`: the saved names in order).
 */
export async function saveRename(where, names, position, name) {
  const next = name.trim();
  if (next === '') return { ok: false, text: 'Type the name, or press Cancel to keep it as it is.' };
  if (next === names[position - 1]) return { ok: true, text: 'The name is unchanged.' };
  const answer = await hostRequest(where.room, '/entrants', where.hostKey, {
    method: 'PUT', body: renamedList(names, position, next), contentType: 'text/plain; charset=utf-8',
  });
  if (!answer.ok) return { ok: false, text: listRefusalText(answer.error) };
  return { ok: true, text: `Saved: place ${position.toLocaleString('en')} is now “${next}”.` };
}
