// A draw's entrants, fetched once per draw from GET /api/draws/ID/entrants (protocol v2 sends
// only their count and hash to every viewer). Fetched only when someone opens the list or the
// verify panel needs it, then kept: the list is fixed for the draw, and the server marks it
// immutable, so the browser's cache answers a second visit too.

const kept = new Map(); // drawId → Promise<entrants[]>, the most recent few
const KEEP = 4;

/** The entrants of `record` (a record, a `finished` message, or a running draw's summary). */
export function entrantsOf(record) {
  if (Array.isArray(record.entrants)) return Promise.resolve(record.entrants);
  return fetchEntrants(record.drawId);
}

/** The entrants of draw `drawId`; one request per draw, however many ask. */
export function fetchEntrants(drawId) {
  if (!/^[0-9a-f]{32}$/.test(drawId ?? '')) return Promise.reject(new Error('No draw to list.'));
  let promise = kept.get(drawId);
  if (!promise) {
    promise = load(drawId);
    kept.set(drawId, promise);
    promise.catch(() => kept.delete(drawId)); // a failed fetch may be tried again
    while (kept.size > KEEP) kept.delete(kept.keys().next().value);
  }
  return promise;
}

async function load(drawId) {
  const response = await fetch(`/api/draws/${drawId}/entrants`);
  if (!response.ok) throw new Error(`The entrants could not be fetched (HTTP ${response.status}).`);
  const entrants = await response.json();
  if (!Array.isArray(entrants)) throw new Error('The server sent no list of entrants.');
  return entrants;
}

/**
 * The entrant at `index` as a record shows it: from its full list when it has one, else from
 * the entries the rounds picked (`picked` of a v2 result).
 */
export function pickedEntrant(record, index) {
  if (Array.isArray(record.entrants)) return record.entrants[index];
  return record.picked?.find((p) => p.index === index);
}

/** How many entrants a draw has, however the record says it. */
export function entrantCount(record) {
  if (!record) return null;
  if (Number.isInteger(record.entrantCount)) return record.entrantCount;
  return Array.isArray(record.entrants) ? record.entrants.length : null;
}
