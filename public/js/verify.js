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
  const key = await hmacKey(seed);
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
  const key = await hmacKey(seed);
  const remaining = Array.from({ length: n }, (_, i) => i);
  const picks = [];
  for (let s = 1; s <= k; s++) {
    const m = remaining.length;
    const position = await pickIndex(key, `${drawId}:${rounds + s - 1}`, m, Math.floor(2 ** 32 / m) * m);
    picks.push(remaining.splice(position, 1)[0]);
  }
  return picks;
}

/**
 * Every flip of a draw that reveals each winner with its own (docs/FAIRNESS.md section 5a):
 * rounds 1…R, then for winner s ≥ 2 flips r < R labelled "s.r" among the entrants not drawn for
 * slots 1…s−1 (in list order), and flip R showing slot s itself.
 */
export async function computeEachWinnerPicks(seed, drawId, n, rounds, k) {
  const picks = await computePicks(seed, drawId, n, rounds);
  const slots = await computeWinnerPicks(seed, drawId, n, rounds, k);
  const key = await hmacKey(seed);
  for (let s = 2; s <= k; s++) {
    const remaining = Array.from({ length: n }, (_, i) => i).filter((i) => !slots.slice(0, s - 1).includes(i));
    const m = remaining.length;
    for (let r = 1; r < rounds; r++) {
      picks.push(remaining[await pickIndex(key, `${drawId}:${s}.${r}`, m, Math.floor(2 ** 32 / m) * m)]);
    }
    picks.push(slots[s - 1]);
  }
  return picks;
}

/**
 * Whether a redraw's `number` follows the draw it redraws (section 5b): 1 after the giveaway's
 * first draw, one more than a numbered redraw, at least 2 after a redraw from before the
 * numbering; a redraw without a number (from before it) is not checked.
 */
export function numberFollows(number, baseLink) {
  if (number === undefined || number === null) return true;
  if (!Number.isSafeInteger(number)) return false;
  if (!baseLink) return number === 1;
  const previous = baseLink.number;
  if (previous === undefined || previous === null) return number >= 2;
  return Number.isSafeInteger(previous) && number === previous + 1;
}

/**
 * Whether a redraw (docs/FAIRNESS.md section 5b) holds exactly the entrants of the finished draw
 * it redraws, `base` (its record), without every entry drawn for its slots, and not the removed
 * winner.
 */
export function redrawMatches(record, base) {
  const link = record.redrawOf;
  if (!link || !base || base.drawId !== link.drawId || (base.status ?? 'finished') !== 'finished') return false;
  if (!numberFollows(link.number, base.redrawOf)) return false;
  const slots = new Set(Array.isArray(base.winnerPicks) ? base.winnerPicks.map((p) => p.index)
    : [base.picks?.[(base.picks?.length ?? 0) - 1]]);
  const expected = base.entrants.filter((_, i) => !slots.has(i));
  return canonicalEntrants(record.entrants) === canonicalEntrants(expected)
    && !record.entrants.some((p) => p.userId === link.removed?.userId);
}

/** `seed` as an HMAC-SHA256 signing key: the key of every pick, and of a beacon draw's key itself. */
function hmacKey(seed) {
  return crypto.subtle.importKey('raw', seed, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
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
 * (round → index shown live), `announcedCommitment` (from `started`, before the seed was
 * known) and `announcedBeaconRound` (a beacon draw's round R, from `started`) are optional extra
 * evidence only this viewer has.
 * Returns {drawId, ok, items: [{id, label, ok, detail}]}; throws when the record is unreadable.
 */
export async function verifyRecord(record, { seen = null, announcedCommitment = null, announcedBeaconRound = null,
  base = undefined } = {}) {
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
  const items = [];
  const add = (id, label, ok, detail, href) => items.push(href ? { id, label, ok, detail, href } : { id, label, ok, detail });
  // A beacon draw (docs/FAIRNESS.md section 9) keys every pick with HMAC(seed, randomness of round R).
  const key = record.beacon ? await checkBeacon(record, seed, add) : seed;
  // Without its round a beacon draw made no pick: there is nothing more to recompute.
  const beaconNeverCame = Boolean(record.beacon) && record.beacon.randomness == null;
  const rounds = beaconNeverCame ? 0 : record.rounds ?? record.picks?.length ?? 0;
  const each = record.reveal === 'each';
  const k = record.winners ?? 1;
  // Each winner with its own flips: every flip follows from the slots (a stopped draw's too).
  let picks = each && Number.isInteger(k) && k >= 1 && k <= entrants.length && rounds >= 1
    ? await computeEachWinnerPicks(key, record.drawId, entrants.length, rounds, k)
    : await computePicks(key, record.drawId, entrants.length, rounds);
  const drawnIndex = picks[rounds - 1];
  if (each && isStopped(record)) picks = picks.slice(0, record.picks?.length ?? 0);

  const commitment = await sha256Hex(seed);
  add('commitment', 'The revealed seed matches the commitment', commitment === record.commitment,
    commitment === record.commitment ? 'SHA-256(seed) = ' + short(commitment)
      : `SHA-256(seed) is ${short(commitment)}, the record says ${short(record.commitment)}`);
  if (announcedCommitment) {
    const same = announcedCommitment === record.commitment;
    add('announced', 'The commitment was announced before flip 1', same,
      same ? 'Same as when the draw started' : `At the start it was ${short(announcedCommitment)}`);
  }
  if (announcedBeaconRound !== null && announcedBeaconRound !== undefined) {
    // The round named live in `started`: a record naming another (already public) round is caught.
    const same = announcedBeaconRound === record.beacon?.round;
    add('announced-beacon', `Beacon round ${announcedBeaconRound} was named before flip 1`, same,
      same ? 'Same round as when the draw started' : `The record names round ${record.beacon?.round ?? 'none'}`);
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
    add(`round-${i + 1}`, `Flip ${i + 1}: ${nameAt(entrants, seenIndex)}`, ok,
      ok ? '' : `Recomputed ${nameAt(entrants, index)}; record says ${nameAt(entrants, claimed)}`
          + (shown === undefined ? '' : `; shown ${nameAt(entrants, shown)}`));
  });
  if (each && !isStopped(record) && (record.picks?.length ?? 0) !== picks.length) {
    add('flips', `Every winner's ${rounds} flips are claimed`, false, `The record claims ${record.picks?.length ?? 0} of ${picks.length}`);
  }
  if (record.redrawOf && base !== undefined) {
    const ok = redrawMatches(record, base);
    add('redraw', `A redraw of ${short(record.redrawOf.drawId)}: everyone not drawn there, without ${record.redrawOf.removed?.name ?? '?'}`,
      ok, ok ? '' : 'The entrants are not the other draw\'s entrants less every winner drawn there');
  }
  if (!isStopped(record) && !beaconNeverCame) {
    add('outcome', outcomeLabel(entrants[drawnIndex]), outcomeMatches(record, entrants[drawnIndex]),
      `The record says: ${record.outcome === 'void' ? 'no winner' : 'winner ' + (record.winner?.name ?? '?')}`);
    if ('winners' in record || 'winnerPicks' in record) await addWinnerSlots(record, key, rounds, add);
  }
  return { drawId: record.drawId, ok: items.every((it) => it.ok), items };
}

/**
 * The beacon round of a beacon draw (docs/FAIRNESS.md section 9), as one item linking the round
 * on a public relay: its randomness is SHA-256 of its signature, and it was published after the
 * draw started (so nobody knew it when the seed was committed). Returns the picks' key,
 * HMAC-SHA256(seed, randomness); without a round (it never came) no pick was made, and the seed
 * itself is returned only to recompute nothing.
 */
async function checkBeacon(record, seed, add) {
  const b = record.beacon;
  const href = `https://api.drand.sh/${b.chain}/public/${b.round}`;
  if (b.randomness == null) {
    const ok = record.status !== 'finished' && record.type !== 'finished';
    add('beacon', `Beacon round ${b.round} never came: no pick was made, and the seed was never used`, ok,
      ok ? '' : 'A result needs the round', href);
    return seed;
  }
  let randomness;
  let signature;
  try { randomness = hexToBytes(b.randomness); signature = hexToBytes(b.signature); } catch { randomness = null; }
  const hashOk = !!randomness && randomness.length === 32 && signature.length > 0
    && await sha256Hex(signature) === b.randomness;
  const afterStart = typeof record.startedAt !== 'number' || b.at > record.startedAt;
  const ok = hashOk && afterStart;
  add('beacon', `Beacon round ${b.round}: its randomness is the hash of its signature, published after the start`, ok,
    !hashOk ? 'SHA-256(signature) is not the randomness' : !afterStart ? 'The round was published before the draw started'
      : `Check round ${b.round} on a public relay`, href);
  if (!randomness || randomness.length !== 32) return seed;
  const mac = await hmacKey(seed);
  return new Uint8Array(await crypto.subtle.sign('HMAC', mac, randomness));
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
  // Each winner with its own flips: `rounds` counts one winner's (the schedule's).
  const perWinner = record.reveal === 'each' ? record.schedule?.rounds : null;
  if (!isStopped(record)) return { ...record, rounds: perWinner ?? record.rounds.length };
  const shown = record.rounds.filter((r) => r.sentAt !== null);
  return { ...record, rounds: perWinner ?? shown.length, picks: shown.map((r) => r.index) };
}

function outcomeLabel(drawn) {
  if (!drawn) return 'Outcome: nothing was drawn';
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
