// A draw with several winners (docs/FAIRNESS.md §5), in words: its slots in order, each a winner
// or, for a void entry, a place without one. A one-winner draw has no slots (`winnerPicks`).

/** The slots of a finished draw with more than one, else null. */
export function slotsOf(record) {
  return Number(record.winners) > 1 && Array.isArray(record.winnerPicks) ? record.winnerPicks : null;
}

/** "@ann", or '' for an entrant without a username (a plain-text list has none). */
export function handleOf(player) {
  return player?.username ? `@${player.username}` : '';
}

/** "Ann (@ann)", or just "Ann" without a username. */
export function nameWithHandle(player) {
  return player.username ? `${player.name} (@${player.username})` : player.name;
}

/** "Ann", "Ann and Bo", "Ann, Bo and Cy". */
export function namesText(names) {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** "1 place" / "2 places". */
const placesText = (n) => (n === 1 ? '1 place' : `${n} places`);

/** The stage's heading over the list: how many won. */
export function slotsHeading(slots) {
  const won = slots.filter((p) => !p.void).length;
  if (won === 0) return 'No winner this time';
  return won === 1 ? 'The winner is' : `The ${won} winners are`;
}

/** The whole result in one sentence, for the last-result card and the recent draws. */
export function slotsOutcomeText(slots) {
  const winners = slots.filter((p) => !p.void);
  const voids = slots.length - winners.length;
  if (winners.length === 0) return `No winner: all ${slots.length} drawn entries were void`;
  const names = namesText(winners.map(nameWithHandle));
  if (voids === 0) return `${names} won`;
  return `${names} won (${placesText(voids)} without a winner: ${voids === 1 ? 'a void entry' : 'void entries'})`;
}

/** What the live region says once, in order, every place named. */
export function slotsAnnouncement(slots) {
  const won = slots.filter((p) => !p.void).length;
  const lines = slots.map((p, i) => (p.void ? `${i + 1}: no winner, ${p.name} is a void entry.`
    : `${i + 1}: ${[p.name, handleOf(p)].filter(Boolean).join(', ')}.`));
  const head = won === 0 ? `No winner this time: all ${slots.length} drawn entries were void.`
    : `${won === 1 ? 'The winner' : `The ${won} winners`} of ${slots.length} places:`;
  return [head, ...(won === 0 ? [] : lines)].join(' ');
}

/** The tab title's part: "Ann, Bo and Cy win". */
export function slotsTitle(slots) {
  const winners = slots.filter((p) => !p.void).map((p) => p.name);
  return winners.length === 0 ? 'No winner' : `${namesText(winners)} ${winners.length === 1 ? 'wins' : 'win'}`;
}
