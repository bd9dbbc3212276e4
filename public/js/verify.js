// Recomputes a finished draw from its revealed seed, in the browser, following docs/FAIRNESS.md
// (the same algorithm as tools/verify_draw.py). It shares no code with the server on purpose:
// a viewer should not have to trust the server's own arithmetic.

const utf8 = new TextEncoder();

/** Lowercase hex to bytes; throws on anything else so a tampered record fails loudly. */
export function hexToBytes(hex) {
  if (typeof hex !== 'string' || !/^(?:[0-9a-f]{2})*$/.test(hex)) throw new Error('not lowercase hex');
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function bytesToHex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

export async function sha256Hex(bytes) {
  return bytesToHex(await crypto.subtle.digest('SHA-256', bytes));
}

/** The canonical entrants text whose SHA-256 is `entrantsHash` (key order matters). */
export function canonicalEntrants(entrants) {
  return JSON.stringify(entrants.map((p) => (
    { userId: p.userId, name: p.name, username: p.username, regDate: p.regDate, void: p.void })));
}

/** The pick index of every round 1…rounds among n entrants. */
export async function computePicks(seed, drawId, n, rounds) {
  const key = await crypto.subtle.importKey('raw', seed, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  // Rejection sampling: words at or above `limit` would favour low indexes, so they are skipped.
  const limit = Math.floor(2 ** 32 / n) * n;
  const picks = [];
  for (let r = 1; r <= rounds; r++) picks.push(await pickIndex(key, `${drawId}:${r}`, n, limit));
  return picks;
}

/**
 * The entrant indexes of winner slots 1…k (docs/FAIRNESS.md section 5): slot s continues the
 * rounds' stream with message number rounds + s − 1, picking among the n − s + 1 entrants not
 * drawn yet, in list order. Slot 1 is therefore the last round's pick.
 */
export async function computeWinnerPicks(seed, drawId, n, rounds, k) {
  const key = await crypto.subtle.importKey('raw', seed, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const remaining = Array.from({ length: n }, (_, i) => i);
  const picks = [];
  for (let s = 1; s <= k; s++) {
    const m = remaining.length;
    const position = await pickIndex(key, `${drawId}:${rounds + s - 1}`, m, Math.floor(2 ** 32 / m) * m);
    picks.push(remaining.splice(position, 1)[0]);
  }
  return picks;
}

async function pickIndex(key, message, n, limit) {
  for (let block = 0; ; block++) {
    const text = block === 0 ? message : `${message}:${block}`;
    const words = new DataView(await crypto.subtle.sign('HMAC', key, utf8.encode(text)));
    for (let w = 0; w < 8; w++) {
      const word = words.getUint32(4 * w, false);
      if (word < limit) return word % n;
    }
  }
}

/**
 * The ended draw inside whatever JSON a user has: a `finished` message, a snapshot or
 * `GET /api/rooms/ROOM` answer (its `lastResult`), a bare finished record, or a stored record
 * (`GET /api/draws/ID`).
 */
export function findRecord(doc) {
  if (doc && typeof doc === 'object' && 'lastResult' in doc) {
    if (!doc.lastResult) throw new Error('This room has no finished draw yet.');
    return doc.lastResult;
  }
  // A v2 `finished` has the entrants' hash instead of their list (fetched when verifying).
  if (doc && typeof doc === 'object' && 'seed' in doc
    && (Array.isArray(doc.entrants) || typeof doc.entrantsHash === 'string')) return doc;
  throw new Error('No finished draw found: paste a "finished" message or a room snapshot.');
}

/**
 * Checks an ended record item by item (a stopped draw has no outcome to check). `seen`
 * (round → index shown live) and `announcedCommitment` (from `started`, before the seed was
 * known) are optional extra evidence only this viewer has.
 * Returns {drawId, ok, items: [{id, label, ok, detail}]}; throws when the record is unreadable.
 */
export async function verifyRecord(record, { seen = null, announcedCommitment = null } = {}) {
  if (!globalThis.crypto?.subtle) {
    // Browsers offer WebCrypto only on https and localhost; a plain-http LAN address has none.
    throw new Error('this page is not served over https, so the browser offers no WebCrypto. '
      + 'Copy the record and run tools/verify_draw.py instead.');
  }
  record = Array.isArray(record.rounds) ? claimOfStored(record) : record;
  const entrants = record.entrants;
  if (!Array.isArray(entrants) || entrants.length === 0) throw new Error('The record has no entrants.');
  let seed;
  try { seed = hexToBytes(record.seed); } catch { seed = null; }
  if (!seed || seed.length !== 32) throw new Error('The seed must be 64 lowercase hex characters.');
  const rounds = record.rounds ?? record.picks?.length ?? 0;
  const picks = await computePicks(seed, record.drawId, entrants.length, rounds);
  const items = [];
  const add = (id, label, ok, detail) => items.push({ id, label, ok, detail });

  const commitment = await sha256Hex(seed);
  add('commitment', 'The revealed seed matches the commitment', commitment === record.commitment,
    commitment === record.commitment ? 'SHA-256(seed) = ' + short(commitment)
      : `SHA-256(seed) is ${short(commitment)}, the record says ${short(record.commitment)}`);
  if (announcedCommitment) {
    const same = announcedCommitment === record.commitment;
    add('announced', 'The commitment was announced before round 1', same,
      same ? 'Same as when the draw started' : `At the start it was ${short(announcedCommitment)}`);
  }
  const entrantsHash = await sha256Hex(utf8.encode(canonicalEntrants(entrants)));
  add('entrants', `The ${entrants.length} entrants match their hash`, entrantsHash === record.entrantsHash,
    entrantsHash === record.entrantsHash ? 'SHA-256(entrants) = ' + short(entrantsHash)
      : `SHA-256(entrants) is ${short(entrantsHash)}, the record says ${short(record.entrantsHash)}`);
  picks.forEach((index, i) => {
    const claimed = record.picks?.[i];
    const shown = seen?.get(i + 1);
    const ok = claimed === index && (shown === undefined || shown === index);
    // A failing row names what people saw (or the record claims): that is the pick in question.
    const seenIndex = ok ? index : shown ?? claimed ?? index;
    add(`round-${i + 1}`, `Round ${i + 1}: ${nameAt(entrants, seenIndex)}`, ok,
      ok ? '' : `Recomputed ${nameAt(entrants, index)}; record says ${nameAt(entrants, claimed)}`
          + (shown === undefined ? '' : `; shown ${nameAt(entrants, shown)}`));
  });
  if (!isStopped(record)) {
    add('outcome', outcomeLabel(entrants[picks[picks.length - 1]]), outcomeMatches(record, entrants[picks[picks.length - 1]]),
      `The record says: ${record.outcome === 'void' ? 'no winner' : 'winner ' + (record.winner?.name ?? '?')}`);
    if ('winners' in record || 'winnerPicks' in record) await addWinnerSlots(record, seed, rounds, add);
  }
  return { drawId: record.drawId, ok: items.every((it) => it.ok), items };
}

/**
 * One item per winner slot of a draw with several winners (a one-winner draw has no slot list:
 * its outcome above is its only slot). A count outside 1…entrants cannot be recomputed.
 */
async function addWinnerSlots(record, seed, rounds, add) {
  const { entrants } = record;
  const k = record.winners ?? 1;
  const claimed = Array.isArray(record.winnerPicks) ? record.winnerPicks : [];
  if (!Number.isInteger(k) || k < 1 || k > entrants.length || rounds < 1) {
    add('winners', `${k} winners among ${entrants.length} entrants`, false, 'Not a winner count this draw can have');
    return;
  }
  const slots = await computeWinnerPicks(seed, record.drawId, entrants.length, rounds, k);
  const count = Math.max(k, claimed.length);
  for (let i = 0; i < count; i++) {
    const index = slots[i];
    const c = claimed[i];
    const p = entrants[index];
    const ok = p !== undefined && c?.index === index && c?.userId === p.userId && c?.void === p.void;
    const label = p === undefined ? `Winner ${i + 1}: not a slot of this draw`
      : `Winner ${i + 1}: ${p.void ? `${nameAt(entrants, index)} is void, no winner` : nameAt(entrants, index)}`;
    add(`winner-${i + 1}`, label, ok,
      ok ? '' : `Recomputed ${p ? nameAt(entrants, index) : 'nothing'}; record says ${c ? nameAt(entrants, c.index) : 'nothing'}`);
  }
}

/** Stopped by the server (aborted) or by its crash (interrupted): nothing was decided. */
export function isStopped(record) {
  return record.status === 'aborted' || record.status === 'interrupted';
}

/**
 * A stored record (PROTOCOL.md §5.2) as the `finished`-shaped claim checked above: `rounds` is
 * a count there. A stopped draw claims only the rounds the audience saw (those with a `sentAt`):
 * the unshown ones were never public, so they prove nothing either way.
 */
function claimOfStored(record) {
  if (record.seed === null) {
    throw new Error(record.status === 'failed' ? 'This draw failed before it was planned: there is nothing to check.'
      : 'This draw has not ended: its seed is still secret.');
  }
  if (!isStopped(record)) return { ...record, rounds: record.rounds.length };
  const shown = record.rounds.filter((r) => r.sentAt !== null);
  return { ...record, rounds: shown.length, picks: shown.map((r) => r.index) };
}

function outcomeLabel(drawn) {
  if (!drawn) return 'Outcome: no round was drawn';
  return drawn.void ? 'Outcome: the drawn entry is void, no winner' : `Outcome: ${drawn.name} wins`;
}

function outcomeMatches(record, drawn) {
  if (!drawn) return false;
  if (record.drawn?.userId !== drawn.userId) return false;
  return drawn.void
    ? record.outcome === 'void' && record.winner === null
    : record.outcome === 'winner' && record.winner?.userId === drawn.userId;
}

/**
 * "Name (#3)", the name between Unicode isolates (FSI … PDI) so that a right-to-left name does
 * not pull the number or the round's words into its direction; the panel shows them as <bdi>.
 */
function nameAt(entrants, index) {
  const p = entrants[index];
  return p ? `${ISOLATE}${p.name}${POP_ISOLATE} (#${index})` : `#${index ?? '?'}`;
}

export const ISOLATE = '\u2068';
export const POP_ISOLATE = '\u2069';

function short(hex) {
  return typeof hex === 'string' ? hex.slice(0, 12) + '…' : String(hex);
}
