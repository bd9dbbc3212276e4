// One reveal per winner (docs/FAIRNESS.md §5a) and redraws (§5b) on the page: the winners
// revealed so far while the draw runs, the host's "Draw the next winner", the host's
// "Redraw (no-show)" under a result, and the way a redraw's result names what it replaced.

import { byId, setText, show } from './dom.js';
import { hostRequest } from './host-api.js';
import { handleOf, namesText, slotsOf } from './winners.js';

const el = {
  soFar: byId('winners-so-far'), soFarList: byId('winners-so-far-list'),
  note: byId('next-note'), next: byId('next-winner-button'),
  redrawNote: byId('redraw-note'), redraws: byId('redraws'), redrawList: byId('redraw-list'),
  confirm: byId('redraw-confirm'), question: byId('redraw-question'),
  yes: byId('redraw-yes'), cancel: byId('redraw-cancel'), error: byId('redraw-error'),
  choice: byId('reveal-choice'),
};

/** Whether the live draw reveals its winners one at a time. */
export function revealsEach(draw) {
  return Boolean(draw && draw.winners > 1 && draw.each);
}

/** Whether the current winner of a live draw has been revealed (its flips are over). */
export function slotRevealed(draw) {
  return draw.revealed.some((w) => w.winner === draw.slot);
}

/** The stage's counter: "Winner 2 of 3 — flip 4 of 10"; null for a draw of one reveal. */
export function liveCounterText(draw) {
  if (!revealsEach(draw)) return null;
  const head = `Winner ${draw.slot} of ${draw.winners}`;
  if (slotRevealed(draw)) return head;
  const current = draw.rounds.at(-1);
  if (current) return `${head} — flip ${current.round} of ${draw.total}`;
  return draw.slot > 1 ? `${head} — get ready…` : null;
}

/** The tab title's live part: "Winner 2/3, flip 4/10: Ann"; null for a draw of one reveal. */
export function liveTitle(draw) {
  const current = draw.rounds.at(-1);
  if (!revealsEach(draw) || !current) return null;
  if (slotRevealed(draw)) return `Winner ${draw.slot}/${draw.winners}: ${current.name}`;
  return `Winner ${draw.slot}/${draw.winners}, flip ${current.round}/${draw.total}: ${current.name}`;
}

/** What follows a revealed winner, in words for the host or a viewer. */
export function nextNoteText(draw, isHost) {
  if (!revealsEach(draw) || !slotRevealed(draw)) return '';
  const done = draw.revealed.find((w) => w.winner === draw.slot);
  const said = done.void ? `Place ${draw.slot} of ${draw.winners} has no winner: ${done.name} is a void entry.`
    : `Winner ${draw.slot} of ${draw.winners} is ${done.name}.`;
  if (draw.next === 'host') {
    return `${said} ${isHost ? 'Draw the next winner when you are ready.' : 'The host draws the next winner soon.'}`;
  }
  if (draw.next === 'auto') return `${said} The next winner follows in a moment.`;
  return said;
}

/** What the live region says when a winner is revealed; null otherwise. */
export function revealAnnouncement(prev, s) {
  if (s.phase !== 'live' || !revealsEach(s.draw)) return null;
  const before = prev.draw?.drawId === s.draw.drawId ? prev.draw.revealed.length : 0;
  if (s.draw.revealed.length === before) return null;
  return nextNoteText(s.draw, s.isHost);
}

/**
 * "Ann replaces Bo, who did not show up. The winners now: Cy, Di and Ann. This is redraw 2 of
 * this giveaway." for a redraw: every redraw is numbered (issue 37), so a run of "no-shows" until
 * someone in particular won shows as what it is.
 */
export function redrawNoteText(record) {
  const link = record.redrawOf;
  if (!link?.removed) return '';
  const replacement = record.outcome === 'winner' ? record.winner : null;
  const first = replacement ? `${replacement.name} replaces ${link.removed.name}, who did not show up.`
    : `${link.removed.name} did not show up; the redraw drew a void entry, so that place has no winner.`;
  // Records from before redraws were numbered count as the first.
  const number = Number.isSafeInteger(link.number) && link.number > 0 ? link.number : 1;
  const which = `This is redraw ${number} of this giveaway.`;
  const all = [...(link.kept ?? []), ...(replacement ? [replacement] : [])].map((p) => p.name);
  if (all.length < 2) return `${first} ${which}`;
  return `${first} The winners now: ${namesText(all)}. ${which}`;
}

/** The winners of a finished record a host may redraw: every winner, in order. */
export function redrawableWinners(record) {
  const slots = slotsOf(record);
  if (slots) return slots.filter((p) => !p.void);
  return record.outcome === 'winner' && record.winner ? [record.winner] : [];
}

/** The start option's value: "auto", "host" or "together". */
export function chosenReveal() {
  return el.choice.querySelector('input[name="reveal"]:checked')?.value ?? 'auto';
}

let confirming = null; // the winner whose redraw waits for the host's yes
let shownFor = null;   // the record whose redraw buttons are shown

/** Wires the host's buttons: next winner, and redraw with its confirmation. */
export function setUpReveals({ room, hostKey, connection, dispatch }) {
  el.next.addEventListener('click', async () => {
    if (el.next.getAttribute('aria-disabled') === 'true') return;
    dispatch({ type: 'next-requested' });
    if (connection.send({ type: 'next', hostKey })) return;
    const answer = await hostRequest(room, '/draws/next', hostKey, { method: 'POST', body: '{}' });
    if (!answer.ok) dispatch({ type: 'host-error', error: answer.error });
  });
  el.redrawList.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-user-id]');
    if (!button) return;
    confirming = { drawId: shownFor, userId: Number(button.dataset.userId), name: button.dataset.name };
    setText(el.question, `Remove ${confirming.name} and draw a replacement from the entrants who have not won? `
      + 'The replacement is a new draw, recorded and verifiable like this one.');
    show(el.error, false);
    show(el.confirm, true);
    el.confirm.focus();
  });
  el.cancel.addEventListener('click', () => {
    confirming = null;
    show(el.confirm, false);
  });
  el.yes.addEventListener('click', async () => {
    if (!confirming) return;
    const { drawId, userId } = confirming;
    el.yes.setAttribute('aria-disabled', 'true');
    setText(el.yes, 'Drawing a replacement…');
    const answer = await hostRequest(room, '/redraws', hostKey, { method: 'POST', body: JSON.stringify({ drawId, userId }) });
    el.yes.setAttribute('aria-disabled', 'false');
    setText(el.yes, 'Yes, draw a replacement');
    confirming = null;
    show(el.confirm, false);
    if (!answer.ok) {
      setText(el.error, `The redraw was refused: ${answer.error.message}`);
      show(el.error, true);
    }
  });
}

export function renderReveals(s) {
  const draw = s.phase === 'live' ? s.draw : null;
  const each = revealsEach(draw);
  show(el.soFar, each && draw.revealed.length > 0);
  if (each) el.soFarList.replaceChildren(...draw.revealed.map((p) => slotItem(p, p.winner)));
  const note = each ? nextNoteText(draw, s.isHost) : '';
  show(el.note, note !== '');
  setText(el.note, note);
  const waiting = each && slotRevealed(draw) && draw.awaitingHost && s.isHost;
  show(el.next, waiting);
  el.next.setAttribute('aria-disabled', String(s.nextPending || s.connection !== 'open'));
  setText(el.next, s.nextPending ? 'Drawing the next winner…' : 'Draw the next winner');
  renderResultParts(s);
  // Chosen before Start; not while a draw runs, when it would change nothing.
  show(el.choice, s.isHost && (s.settings?.winners ?? 1) > 1 && s.phase !== 'live' && s.phase !== 'loading');
}

function renderResultParts(s) {
  const record = s.phase === 'result' ? s.result.record : null;
  const note = record ? redrawNoteText(record) : '';
  show(el.redrawNote, note !== '');
  setText(el.redrawNote, note);
  // The server redraws only the room's last finished draw, from the host's live page.
  const winners = record && s.isHost && s.connection === 'open' ? redrawableWinners(record) : [];
  show(el.redraws, winners.length > 0);
  const id = winners.length > 0 ? record.drawId : null;
  if (id === shownFor) return;
  shownFor = id;
  confirming = null;
  show(el.confirm, false);
  show(el.error, false);
  el.redrawList.replaceChildren(...winners.map((p) => {
    const li = document.createElement('li');
    const name = document.createElement('bdi');
    name.className = 'slot-name';
    name.textContent = p.name;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button';
    button.dataset.testid = 'redraw-button';
    button.dataset.userId = String(p.userId);
    button.dataset.name = p.name;
    button.textContent = 'Redraw (no-show)';
    li.append(name, ' ', button);
    return li;
  }));
}

/** One place of a list of winners: the name, then the username or why the place has no winner. */
export function slotItem(p, place, replacedBy = null) {
  const item = document.createElement('li');
  item.classList.toggle('void', p.void);
  const name = document.createElement('bdi');
  name.className = 'slot-name';
  name.textContent = p.name;
  const rest = document.createElement('span');
  rest.className = 'slot-user';
  rest.textContent = p.void ? `a void entry: no winner for place ${place}` : handleOf(p);
  item.append(name);
  if (rest.textContent) item.append(' ', rest);
  if (replacedBy) {
    // A winner replaced later (issue 37): marked where the name stands, not only in a note.
    item.classList.add('replaced');
    const mark = document.createElement('span');
    mark.className = 'slot-replaced';
    mark.dataset.testid = 'slot-replaced';
    mark.textContent = replacedBy;
    item.append(' ', mark);
  }
  return item;
}
