// Plain-language texts for codes the server sends, so people never see a bare code.

const FAILURES = {
  no_players: 'There was nobody to draw: the lottery list is empty.',
  source_unreachable: "The player lists' server could not be reached.",
  source_bad_status: "The player lists' server answered with an error.",
  source_malformed_json: 'A player list is not valid JSON.',
  source_invalid_data: 'A player list has entries that make no sense.',
  source_too_large: 'A player list is too large to load.',
  source_bad_url: "The player lists' address is not a valid URL.",
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

export function abortedText(aborted) {
  const why = aborted.reason === 'server_shutdown' ? 'the server shut down' : aborted.reason;
  return `It stopped after ${aborted.roundsShown} rounds because ${why}. There is no result.`;
}
