// Plain-language texts for codes the server sends, so people never see a bare code or a
// browser's own error text ("Failed to fetch"). Codes may appear in a host's details line only.

import { nameWithHandle, slotsOf, slotsOutcomeText } from './winners.js';

// Why a draw could not start, in four kinds a viewer can tell apart: nothing to draw from, the
// lists unreachable, the lists broken, the server's own problem.
const FAILURES = {
  source_unreachable: "The player lists could not be reached. The host can try again in a moment.",
  source_bad_status: "The player lists could not be loaded: their server answered with an error.",
  source_malformed_json: "The player lists could not be read: one of them is damaged.",
  source_invalid_data: "The player lists could not be read: one of them has entries that make no sense.",
  source_too_large: "The player lists are too large to load.",
  source_bad_url: "The player lists could not be loaded: their address is set up wrongly.",
  storage_failure: "The live-draw server had a problem saving the draw, so it did not start it.",
  too_few_entrants: 'The room asks for more winners than its list has entrants: the host can lower the number of winners.',
};

/**
 * The sentence for a `failed` draw. `no_players` has two causes people must tell apart: an
 * empty lottery list, or entries none of which matches a known user (the merge warnings say so).
 */
export function failureText(code, warnings = null) {
  if (code === 'no_players') {
    if (warnings === null) return 'There was nobody to draw: the list was empty or no entry matched a player.';
    return warnings.length === 0 ? 'There was nobody to draw: the lottery list is empty.'
      : 'There was nobody to draw: no entry on the lottery list matches a registered player.';
  }
  return FAILURES[code] ?? 'The player lists could not be loaded.';
}

/** The details line only hosts see: the code and the server's own sentence. */
export function failureDetailText(failure) {
  return `Details for the host: ${failure.code}. ${failure.message ?? ''}`.trim();
}

/** What to say when a `fetch` of the API failed: the network, or the server's answer. */
export function requestProblemText(error) {
  if (error?.status === undefined) return "the live-draw server can't be reached right now.";
  if (error.status >= 500) return 'the live-draw server had a problem. Try again in a moment.';
  return error.message;
}

export function viewersText(n, connection) {
  if (connection === 'unknown-room') return 'not connected';
  if (n === null) return 'connecting…';
  return n === 1 ? '1 watching' : `${n} watching`;
}

/** "1 flip", "4 flips": what hosts and viewers call a draw's rounds (the settings' word). */
export function flipCountText(n) {
  return n === 1 ? '1 flip' : `${n} flips`;
}

/** "1 entrant", "100,000 entrants": a count and its noun, in English digits grouping. */
export function countText(n, noun) {
  return `${n.toLocaleString('en')} ${n === 1 ? noun : noun + 's'}`;
}

/**
 * A running draw's next step is overdue: in cluster mode the draw holds until the servers agree
 * on it (docs/PROTOCOL.md `round`). Calm on purpose: it goes on by itself, no result is guessed.
 */
export const pausedText = 'Paused: waiting for the servers to agree on the next step. '
  + 'The draw carries on by itself; nothing is lost.';

// Why a draw was stopped; the stage's title already says "The draw was stopped".
const ABORTS = {
  server_shutdown: 'The server shut down.',
  storage_failure: 'The server could not save it.',
  // Cluster mode: the server running the draw stopped; another one ended it for everyone.
  interrupted: 'The server running it stopped unexpectedly, and another server ended it for everyone.',
  beacon_unavailable: 'The public randomness it was waiting for could not be fetched.',
};

/** The reason and what it means, without repeating that the draw was stopped. */
export function abortedText(aborted) {
  const why = ABORTS[aborted.reason] ?? 'The server stopped it.';
  return `${why} It stopped after ${flipCountText(aborted.roundsShown)}, so nothing was decided.`;
}

// A scheduled draw that never ran (PROTOCOL.md §5.8): recorded as stopped before round 1.
const UNRUN = {
  cancelled: 'Cancelled by the host before its time; its seed is revealed, nothing was decided.',
  missed: 'Missed: the server could not start it at its time; its seed is revealed, nothing was decided.',
};

/** A stored draw (PROTOCOL.md §5.2) that has no outcome, as one sentence of its own. */
export function stoppedText(record) {
  if (UNRUN[record.abortReason]) return UNRUN[record.abortReason];
  if (record.status === 'interrupted') {
    return `Stopped: the server stopped unexpectedly after ${flipCountText(record.roundsShown)}, so nothing was decided.`;
  }
  const why = ABORTS[record.abortReason]; // summaries (§5.1) do not carry the reason
  const after = `after ${flipCountText(record.roundsShown)}, so nothing was decided.`;
  return why ? `Stopped: ${why.toLowerCase()} It stopped ${after}` : `Stopped ${after}`;
}

/**
 * Who won a finished draw, as the last-result card, the recent draws and the copied result say
 * it; a redraw says whom it replaced and which redraw of the giveaway it is (issue 37: "Sebastian
 * won" alone hid that Evelyn had won first).
 */
export function outcomeText(record) {
  const slots = slotsOf(record);
  if (slots) return slotsOutcomeText(slots) + redrawClause(record);
  if (record.outcome !== 'void') return `${nameWithHandle(record.winner)} won${redrawClause(record)}`;
  const none = record.drawn ? `No winner: ${record.drawn.name} was drawn, a void entry` : 'No winner: the drawn entry was void';
  return none + redrawClause(record);
}

/** ", replacing Bo (redraw 2 of this giveaway)" for a redraw; '' for any other draw. */
export function redrawClause(record) {
  const link = record.redrawOf;
  if (!link?.removed) return '';
  // Records from before redraws were numbered count as the first.
  const number = Number.isSafeInteger(link.number) && link.number > 0 ? link.number : 1;
  return `, replacing ${link.removed.name} (redraw ${number} of this giveaway)`;
}

/** The one time a draw is known by, everywhere on the page: when it ended, else when it started. */
export function drawTime(record) {
  return new Date(record.finishedAt ?? record.startedAt ?? record.createdAt);
}

/** The same clock time everywhere (day, hour and minute). */
export function timeText(date) {
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
