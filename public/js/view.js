// Renders the header, the connection banner and the stage (the big draw area) from the view
// state. Idempotent: calling it twice with the same state changes nothing, except that a new
// round restarts the flip animation.

import { renderCountdown } from './countdown.js';
import { byId, setText, show } from './dom.js';
import { handleOf, slotsHeading, slotsOf, slotsTitle } from './winners.js';
import { pickedEntrant } from './entrants.js';
import { abortedText, failureDetailText, failureText, viewersText } from './words.js';
import { showRetry } from './retry-countdown.js';
import { liveCounterText, liveTitle, slotItem, slotRevealed, revealsEach } from './reveals.js';

const el = {
  stage: byId('stage'), banner: byId('banner'), viewers: byId('viewer-count'),
  room: byId('room-name'), role: byId('role'), idle: byId('idle-message'),
  counter: byId('round-counter'), flip: byId('flip-card'), name: byId('current-name'),
  username: byId('current-username'), progress: byId('progress'),
  outcome: byId('outcome'), winner: byId('winner-name'), winnerUser: byId('winner-username'),
  winnerList: byId('winner-list'),
  failure: byId('failure'), failureDetail: byId('failure-detail'), aborted: byId('aborted'),
  unknownRoom: byId('unknown-room'), history: byId('history'), historyTitle: byId('history-title'),
  historyList: byId('round-history'), drawIdLine: byId('draw-id-line'), drawId: byId('draw-id'),
};
const panels = [...document.querySelectorAll('[data-phase-panel]')];

export function renderView(prev, s) {
  document.body.dataset.connection = s.connection;
  document.title = titleFor(s);
  setText(el.room, s.room);
  setText(el.role, s.isHost ? 'host' : 'viewer');
  setText(el.viewers, viewersText(s.viewers, s.connection));
  // The count is the last one heard: greyed (with its live dot) while the page is not connected.
  el.viewers.dataset.stale = String(s.connection !== 'open');
  renderBanner(s);
  const phase = s.connection === 'unknown-room' ? 'unknown-room' : s.phase;
  el.stage.dataset.phase = phase;
  for (const p of panels) show(p, p.dataset.phasePanel === phase);
  // A scheduled draw starts by itself (scheduled-draw.js shows when): nobody waits for the host.
  setText(el.idle, s.scheduled ? 'This draw is scheduled: it starts by itself.'
    : s.isHost ? 'Ready when you are: start the draw from the host controls.'
      : 'Waiting for the host to start the draw.');
  if (phase === 'live') renderLive(prev, s);
  renderCountdown(phase === 'live' ? s.draw : null);
  if (phase === 'result') renderResult(s.result.record, s.result.replaced);
  if (phase === 'failed') {
    setText(el.failure, failureText(s.failure.code, s.warnings));
    // The code and the server's sentence help the host fix the lists; viewers get the plain words.
    show(el.failureDetail, s.isHost);
    setText(el.failureDetail, s.isHost ? failureDetailText(s.failure) : '');
  }
  if (phase === 'aborted') setText(el.aborted, abortedText(s.aborted));
  if (phase === 'unknown-room') {
    setText(el.unknownRoom, `There is no room called “${s.room}”. The link may be mistyped, or the `
      + 'server restarted and forgot it. You can create a new room.');
  }
  renderHistory(phase, s);
  const drawId = s.draw?.drawId ?? s.result?.record.drawId ?? null;
  show(el.drawIdLine, drawId !== null && phase !== 'unknown-room');
  setText(el.drawId, drawId ?? '');
}

function renderBanner(s) {
  show(el.banner, s.connection === 'retrying');
  if (s.connection === 'retrying') {
    showRetry(el.banner, s.retry);
    el.banner.dataset.reason = s.retry.reason;
  } else {
    showRetry(el.banner, null);
  }
}

function renderLive(prev, s) {
  const { rounds, total } = s.draw;
  const current = rounds[rounds.length - 1];
  el.progress.max = total;
  el.progress.value = rounds.length;
  const waiting = s.draw.beaconRound !== null && s.draw.beaconRound !== undefined
    ? `Waiting for beacon round ${s.draw.beaconRound}; the draw starts in`
    : s.draw.countdownMs > 0 ? 'The draw starts in' : 'Get ready…';
  // Several winners revealed one at a time: "Winner 2 of 3 — flip 4 of 10", not a new "Round 1".
  setText(el.counter, liveCounterText(s.draw) ?? (current ? `Flip ${current.round} of ${total}` : waiting));
  el.flip.classList.toggle('revealed', revealsEach(s.draw) && slotRevealed(s.draw));
  setText(el.name, current?.name ?? '');
  setText(el.username, current ? handleOf(current) : '');
  const prevRounds = prev?.draw?.drawId === s.draw.drawId ? prev.draw.rounds.length : 0;
  if (current && rounds.length !== prevRounds) restartFlip();
}

/** Restarts the CSS flip; the reflow between removing and adding the class is what replays it. */
function restartFlip() {
  el.flip.classList.remove('flipping');
  void el.flip.offsetWidth;
  el.flip.classList.add('flipping');
}

function renderResult(record, replaced) {
  const isVoid = record.outcome === 'void';
  el.outcome.dataset.outcome = record.outcome;
  setText(el.outcome, isVoid ? 'No winner this time' : 'The winner is');
  // A void draw names the entry that was drawn, and says plainly that it does not win.
  const shown = isVoid ? record.drawn : record.winner;
  el.winner.classList.toggle('void', isVoid);
  setText(el.winner, shown?.name ?? '');
  setText(el.winnerUser, isVoid
    ? `${shown ? (handleOf(shown) || shown.name) + ' is' : 'It is'} a void entry, so it does not win.`
    : handleOf(record.winner));
  renderWinnerList(record, replaced);
}

/**
 * A draw with several winners (FAIRNESS.md §5) lists every place in order instead of the one
 * big name; a void place names its entry and says it has no winner. One-winner draws carry no
 * `winnerPicks` and keep the big name.
 */
function renderWinnerList(record, replaced = null) {
  const slots = slotsOf(record) ?? [];
  show(el.winnerList, slots.length > 0);
  for (const part of [el.winner, el.winnerUser]) show(part, slots.length === 0);
  el.winnerList.replaceChildren(...slots.map((p, i) => slotItem(p, i + 1, replaced?.[p.userId])));
  if (slots.length > 0) {
    const won = slots.some((p) => !p.void);
    setText(el.outcome, slotsHeading(slots));
    el.outcome.dataset.outcome = won ? 'winners' : 'void';
    el.winner.classList.toggle('void', !won); // no confetti when nobody won
  }
}

/**
 * The names of every round so far, as small chips. Void entries are marked only once the draw
 * has ended: marking them live would tell the audience early which flips cannot win.
 */
function renderHistory(phase, s) {
  let picks = [];
  // Rounds carry the names they show; a result names its picks (`picked`, or its whole list).
  if (phase === 'live') picks = s.draw.rounds.map((r) => ({ name: r.name }));
  if (phase === 'result') picks = s.result.record.picks.map((index) => pickedEntrant(s.result.record, index));
  show(el.history, picks.length > 0);
  const each = phase === 'live' && revealsEach(s.draw);
  setText(el.historyTitle, phase === 'result' ? 'All flips' : each ? `Flips for winner ${s.draw.slot}` : 'Flips so far');
  const ended = phase === 'result';
  el.historyList.replaceChildren(...picks.map((entrant, i) => {
    const li = document.createElement('li');
    const name = document.createElement('bdi');
    name.textContent = entrant?.name ?? '?';
    li.append(name);
    const isVoid = ended && Boolean(entrant?.void);
    li.title = `Flip ${i + 1}` + (isVoid ? ': a void entry' : '');
    li.classList.toggle('void', isVoid);
    return li;
  }));
}

/** The tab title, so a background tab still tells how the draw is going. */
function titleFor(s) {
  const current = s.draw?.rounds.at(-1);
  const each = s.phase === 'live' ? liveTitle(s.draw) : null;
  if (each) return `${each} · live-draw`;
  if (s.phase === 'live' && current) return `Flip ${current.round}/${s.draw.total}: ${current.name} · live-draw`;
  if (s.phase === 'result') {
    const r = s.result.record, slots = slotsOf(r);
    if (slots) return `${slotsTitle(slots)} · live-draw`;
    return `${r.outcome === 'void' ? 'No winner' : r.winner.name + ' wins'} · live-draw`;
  }
  return `${s.room} · live-draw`;
}
