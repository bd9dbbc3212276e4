// Plain-language texts for codes the server sends, so people never see a bare code.

const FAILURES = {
  no_players: 'There was nobody to draw: the lottery list is empty.',
  source_unreachable: "The player lists' server could not be reached.",
  source_bad_status: "The player lists' server answered with an error.",
  source_malformed_json: 'A player list is not valid JSON.',
  source_invalid_data: 'A player list has entries that make no sense.',
  source_too_large: 'A player list is too large to load.',
  source_bad_url: "The player lists' address is not a valid URL.",
  storage_failure: 'The server could not save the draw, so it did not start it.',
};

export function failureText(code) {
  return FAILURES[code] ?? 'The player lists could not be loaded.';
}

const RETRY = {
  restart: 'The server is restarting. Reconnecting',
  slow: 'Catching up with the draw',
  lost: 'Connection lost. Reconnecting',
  unreachable: "Can't reach the live-draw server. Retrying",
};

export function retryText(retry) {
  const seconds = Math.max(1, Math.round(retry.retryInMs / 1000));
  return `${RETRY[retry.reason] ?? RETRY.lost} in ${seconds}\u00a0s…`; // "5 s" never split
}

export function viewersText(n, connection) {
  if (connection === 'unknown-room') return 'not connected';
  if (n === null) return 'connecting…';
  return n === 1 ? '1 watching' : `${n} watching`;
}

/** "1 round", "4 rounds". */
export function roundsText(n) {
  return n === 1 ? '1 round' : `${n} rounds`;
}

const ABORTS = {
  server_shutdown: 'The draw was stopped: the server shut down. Nothing was decided.',
  storage_failure: 'The draw was stopped: the server could not save it. Nothing was decided.',
};

export function abortedText(aborted) {
  const why = ABORTS[aborted.reason] ?? 'The draw was stopped by the server. Nothing was decided.';
  return `${why} It stopped after ${roundsText(aborted.roundsShown)}.`;
}

/** Why a stored draw (PROTOCOL.md §5.2) has no outcome; its `abortReason` says more than a summary. */
export function stoppedText(record) {
  if (record.status === 'interrupted') {
    return `The server stopped unexpectedly during the draw, after ${roundsText(record.roundsShown)}. Nothing was decided.`;
  }
  return abortedText({ reason: record.abortReason, roundsShown: record.roundsShown });
}

/** Who won a finished draw, as the last-result card and the recent draws say it. */
export function outcomeText(record) {
  return record.outcome === 'void' ? 'No winner (the drawn entry was void)'
    : `${record.winner.name} (@${record.winner.username}) won`;
}
