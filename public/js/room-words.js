// Plain words for a room's own list and settings (issue 15): the merge warnings, the refusals of
// an upload or of settings, and the count. Codes appear only in a details line for the host.

const plural = (n, one, many) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** "1 entrant", "42 entrants", "100,000 entrants". */
export function entrantsText(n) {
  return plural(n, 'entrant', 'entrants');
}

// One sentence per warning code (PROTOCOL.md, `started`), given how many times it occurred.
const WARNINGS = {
  // One warning per name that is listed more than once (at its first repeat).
  duplicate_name: (n) => `${plural(n, 'duplicate name', 'duplicate names')}: ${n === 1 ? 'it appears'
    : 'each appears'} more than once. Every line is entered, since two people may share a name.`,
  unknown_user: (n) => `${plural(n, 'lottery entry was', 'lottery entries were')} left out: the user list has no such user.`,
  duplicate_entry: (n) => `${plural(n, 'user is', 'users are')} in the lottery list more than once: entered once only.`,
  duplicate_user: (n) => `${plural(n, 'user id appears', 'user ids appear')} more than once in the user list: the first one was used.`,
};

/** `warnings` as counts by code ([{code, count}], the snapshot's form) from either form. */
export function warningCounts(warnings) {
  const counts = new Map();
  for (const w of warnings ?? []) counts.set(w.code, (counts.get(w.code) ?? 0) + (Number.isInteger(w.count) ? w.count : 1));
  return [...counts].map(([code, count]) => ({ code, count }));
}

/** One plain sentence per kind of warning. */
export function warningText({ code, count }) {
  return WARNINGS[code]?.(count) ?? `${plural(count, 'other warning', 'other warnings')} about the list.`;
}

/** The codes behind the sentences, for the details line: "duplicate_name ×3, unknown_user ×1". */
export function warningCodesText(counts) {
  return `Details: ${counts.map((c) => `${c.code} ×${c.count}`).join(', ')}.`;
}

// The first number in a server message: the limit it names ("more than 100000 entrants").
function limitIn(message) {
  const m = /(\d[\d,]*)/.exec(message ?? '');
  return m ? Number(m[1].replaceAll(',', '')) : null;
}

function bytesText(n) {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
  if (n >= 1024) return `${Math.floor(n / 1024).toLocaleString('en')} KB`;
  return plural(n, 'byte', 'bytes');
}

// Where a bad name is, as the server says it ("on line 12", "of user 182").
function placeIn(message) {
  return /(on line \d+|of user \d+)/.exec(message ?? '')?.[1] ?? null;
}

const BUSY = 'A draw is running in this room: change it once the draw has ended.';
const UNAVAILABLE = 'The server could not save this just now. Try again in a moment.';

// Refusals that a list and the settings share.
const COMMON = {
  draw_running: () => BUSY,
  unauthorized: () => 'This page has no valid host key for the room.',
  forbidden: () => 'This host link is no longer valid, so the room cannot be changed from here.',
  unknown_room: () => 'This room no longer exists.',
  storage_unavailable: () => UNAVAILABLE,
  cluster_unavailable: () => UNAVAILABLE,
  unreachable: () => "The live-draw server can't be reached right now. Try again in a moment.",
  shutting_down: () => 'The server is restarting. Try again in a moment.',
  draining: () => 'The server is restarting. Try again in a moment.',
  busy: () => 'The server is busy. Try again in a moment.',
  rate_limited: () => 'Too many changes in a short time: wait a moment, then try again.',
  too_many_connections: () => 'The server is busy. Try again in a moment.',
  request_timeout: () => 'The upload took too long to arrive. Try again on a steadier connection.',
  internal_error: () => 'The server had a problem. Try again in a moment.',
};

// Why a list was refused: each limit says which, and its value when the server named it.
const LIST_REFUSALS = {
  too_many_entrants: (msg) => {
    const limit = limitIn(msg);
    return `Too many entrants: this server takes at most ${limit ? entrantsText(limit) : 'a limited number of entrants'} per room.`;
  },
  name_too_long: (msg) => {
    const limit = /than (\d+)/.exec(msg ?? '')?.[1], place = placeIn(msg);
    return `A name is too long: names may have at most ${limit ? `${limit} characters` : 'a limited length'}`
      + (place ? ` (see the name ${place}).` : '.');
  },
  name_too_many_bytes: (msg) => {
    const place = placeIn(msg);
    return 'A name is too long: it uses more space than this server allows for one name'
      + (place ? ` (see the name ${place}).` : '.');
  },
  list_too_large: (msg) => {
    const limit = limitIn(msg);
    return `The list is too large: this server takes lists of up to ${limit ? bytesText(limit) : 'a limited size'}.`;
  },
  no_entrants: () => 'The list has nobody to draw: add at least one name.',
  list_not_utf8: () => 'The list is not plain text in UTF-8: save it as UTF-8 text and try again.',
  list_malformed_json: () => 'The JSON file could not be read: it is not valid JSON.',
  list_invalid_data: () => 'The JSON file is not in the expected shape: it needs the users (with "items") and the '
    + 'lottery list (with "lotteryList"), as in users.json and usersInLottery.json.',
  unsupported_media_type: () => 'The server does not take this kind of file: use a .txt or a .json file.',
  not_found: () => 'This server does not take entrant lists from hosts.',
};

/** The sentence for a refused list upload or removal. */
export function listRefusalText(error) {
  const say = LIST_REFUSALS[error.code] ?? COMMON[error.code];
  return say ? say(error.message) : `The list was not saved: ${error.message ?? 'the server refused it.'}`;
}

// Why settings were refused, besides a value out of range (invalid_settings).
const SETTINGS_REFUSALS = {
  bad_json: () => 'The page sent settings the server could not read. Reload the page and try again.',
  body_too_large: () => 'The page sent settings the server could not read. Reload the page and try again.',
  unsupported_media_type: () => 'The page sent settings the server could not read. Reload the page and try again.',
};

const SETTING_NAMES = {
  rounds: 'The number of flips', winners: 'The number of winners', intervalMs: 'The time between flips',
  decelerateToMs: 'The time before the last flip', countdownMs: 'The countdown',
};

/** "0.3 seconds", "1 second", "60 seconds": a limit in milliseconds as a host reads it. */
const secondsText = (ms) => {
  const s = Number(ms) / 1000;
  return `${s.toLocaleString('en', { maximumFractionDigits: 3 })} ${s === 1 ? 'second' : 'seconds'}`;
};

/** The sentence for refused settings: which one, and its allowed range on this server. */
export function settingsRefusalText(error) {
  if (error.code === 'invalid_settings') {
    const m = /^(\w+) must be between (\d+) and (\d+)( ms)?/.exec(error.message ?? '');
    if (m && SETTING_NAMES[m[1]]) {
      const [low, high] = m[4] ? [secondsText(m[2]), secondsText(m[3])] : [m[2], m[3]];
      return `${SETTING_NAMES[m[1]]} must be between ${low} and ${high} on this server.`;
    }
    return 'These settings are not allowed on this server.';
  }
  const say = SETTINGS_REFUSALS[error.code] ?? COMMON[error.code];
  return say ? say(error.message) : `The settings were not saved: ${error.message ?? 'the server refused them.'}`;
}

/** The details line under a refusal: the code and the server's own sentence. */
export function refusalDetailText(error) {
  return `Details: ${error.code}. ${error.message ?? ''}`.trim();
}
