// Composition root: reads the address, opens the connection, and re-renders every part of the
// page whenever the state changes.

import { announcement } from './announce.js';
import { byId, setText } from './dom.js';
import { renderEntrantsPanel, setUpEntrantsPanel } from './entrants-panel.js';
import { renderGiveaway } from './giveaway.js';
import { renderResultShare, setUpResultShare } from './result-share.js';
import { fitOverlayNames } from './overlay-fit.js';
import { renderHoldNotice } from './hold-notice.js';
import { renderHost, setUpHost } from './host.js';
import { renderEntrantList, setUpEntrantList } from './entrant-list.js';
import { noteNewestDraw, renderLastResult, setUpLastResult } from './last-result.js';
import { Connection, roomSocketUrl } from './protocol.js';
import { offerRoomCreation, renderRooms, setUpRooms } from './rooms.js';
import { renderNextDraw } from './next-draw.js';
import { renderScheduledDraw, setUpScheduledDraw } from './scheduled-draw.js';
import { noteDrawEnded, refreshRecentDraws, setUpRecentDraws } from './recent-draws.js';
import { readRoute } from './route.js';
import { noteMessage } from './server-clock.js';
import { renderSettingsPanel, setUpSettingsPanel } from './settings-panel.js';
import { renderShare, setUpShare } from './share.js';
import { renderPresenter, setUpPresenter } from './presenter.js';
import { forgetHostKey, keepHostKey } from './host-key.js';
import { setUpHostLink } from './host-link.js';
import { renderStreamPanel, setUpStreamPanel } from './stream-panel.js';
import { playFor, setUpSound } from './sound.js';
import { initialState, reduce } from './state.js';
import { clearReport, setUpVerifyPanel, verifyAndShow } from './verify-panel.js';
import { renderView } from './view.js';
import { drawIdOf, openDrawPage } from './draw-page.js';
import { renderReveals, revealAnnouncement, setUpReveals } from './reveals.js';

const route = keepHostKey(readRoute(location));
document.body.dataset.view = route.view;
let state = initialState(route.room, route.hostKey !== null);
const announcer = byId('announcer');

function dispatch(event) {
  const prev = state;
  state = reduce(state, event);
  if (state !== prev) render(prev, state);
}

function render(prev, s) {
  renderView(prev, s);
  renderGiveaway(s);
  renderResultShare(s);
  fitOverlayNames();
  renderHost(s);
  renderReveals(s);
  renderHoldNotice(s);
  renderNextDraw(s);
  renderScheduledDraw(s);
  renderEntrantsPanel(s);
  renderSettingsPanel(s);
  renderLastResult(s);
  renderEntrantList(s);
  renderRooms(s);
  renderShare(s);
  renderPresenter(s);
  renderStreamPanel(s);
  playFor(prev, s);
  const said = revealAnnouncement(prev, s) ?? announcement(prev, s);
  if (said) setText(announcer, said);
  followDraw(prev, s);
  followHistory(prev, s);
  if (s.connection === 'unknown-room' && prev.connection !== 'unknown-room') offerRoomCreation();
  // A refused key is not kept in the address: a reload must not pretend to be the host again.
  if (s.hostRevoked && !prev.hostRevoked) {
    forgetHostKey(s.room);
    history.replaceState(null, '', location.pathname + location.search);
  }
}

/** The verify panel follows the draw: a new draw hides the old report, a result is checked. */
function followDraw(prev, s) {
  if (s.phase === 'live' && prev.draw?.drawId !== s.draw.drawId) clearReport();
  const record = s.result?.record;
  if (s.phase === 'result' && prev.result?.record.drawId !== record.drawId) {
    verifyAndShow(record, { seen: s.result.seen, announcedCommitment: s.result.announcedCommitment,
      announcedBeaconRound: s.result.announcedBeaconRound });
  }
}

/**
 * The recent draws change when a draw starts (listed as live) or ends, and may have changed
 * while the connection was down; phases only change on server messages, so this never polls.
 */
function followHistory(prev, s) {
  if (s.connection === 'record') return; // the result page lists no room's draws
  const opened = s.connection === 'open' && prev.connection !== 'open';
  const drawId = (x) => x.draw?.drawId ?? x.result?.record.drawId ?? null;
  const moved = s.phase !== prev.phase || drawId(s) !== drawId(prev);
  if (s.phase === 'result' && moved) noteDrawEnded({ ...s.result.record, status: 'finished' });
  if (s.phase === 'aborted' && moved) {
    noteDrawEnded({ drawId: s.aborted.drawId, status: 'aborted', abortReason: s.aborted.reason, roundsShown: s.aborted.roundsShown });
  }
  if (opened || (moved && s.phase !== 'idle' && s.phase !== 'loading')) refreshRecentDraws();
}

setUpVerifyPanel();
setUpLastResult();
setUpEntrantList();
setUpRooms();
setUpShare();
setUpPresenter();
setUpResultShare();
setUpStreamPanel();
setUpSound();
byId('offer-create').addEventListener('click', () => offerRoomCreation({ focus: true }));
// Pasting another room's host link only changes the fragment; start over with the new address.
addEventListener('hashchange', () => location.reload());
render(state, state);

const drawId = drawIdOf(location);
if (drawId !== null) {
  openDrawPage(drawId, dispatch);
} else if (route.roomValid) {
  const connection = new Connection(roomSocketUrl(location, route.room), {
    onMessage: (message) => {
      noteMessage(message);
      dispatch(message);
    },
    onStatus: (status) => dispatch({ type: 'connection', ...status }),
  });
  setUpRecentDraws(route.room, { newest: noteNewestDraw });
  if (route.hostKey) {
    const host = { room: route.room, hostKey: route.hostKey, connection, dispatch };
    setUpHost(host);
    setUpReveals(host);
    setUpHostLink(host);
    setUpEntrantsPanel(host);
    setUpSettingsPanel(host);
    setUpScheduledDraw(host);
  }
  connection.open();
} else {
  dispatch({ type: 'connection', status: 'unknown-room' });
}
