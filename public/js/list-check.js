// What a pasted list probably did not mean (issue 28, item 3), line by line, before it is saved:
// a spreadsheet's header row ("Name"), lines that only look like names (a dash, dots, invisible
// characters), the same name twice (said by name, with both line numbers), and names past the
// server's length limit once it is known. Pure: the Entrants panel shows the result.

// Column headings a spreadsheet's first row has, compared case-insensitively.
const HEADINGS = new Set(['name', 'names', 'full name', 'fullname', 'first name', 'participant', 'participants',
  'entrant', 'entrants', 'player', 'players', 'user', 'username', 'user name', 'email', 'e-mail', 'contestant', 'nome',
  'nom', 'nombre', 'vorname']);
// Something a person's name has: a letter or a digit, in any script.
const NAME_LIKE = /[\p{L}\p{N}]/u;

/**
 * Problems of `text`, one name per line as the server reads it (PROTOCOL.md §5.6: blank lines
 * and surrounding white space are ignored): [{line, kind, name, message, blocking, ...}] in line
 * order. `maxChars`: the server's limit on a name, when known (its refusal names it); a longer
 * name would have the whole list refused, so it blocks saving, the others only warn.
 */
export function checkList(text, { maxChars = null } = {}) {
  const problems = [];
  const firstLine = new Map(); // folded name → the first line it is on
  const lines = String(text).split(/\r\n|\r|\n/);
  let firstName = true;
  lines.forEach((raw, i) => {
    const line = i + 1, name = raw.trim();
    if (name === '') return;
    const isFirst = firstName;
    firstName = false;
    if (isFirst && HEADINGS.has(name.toLowerCase().replace(/[:*]+$/, ''))) {
      problems.push({ line, kind: 'header', name, blocking: false,
        message: `Line ${line}, “${name}”, looks like a column heading, not a person.` });
      return;
    }
    if (!NAME_LIKE.test(name)) {
      problems.push({ line, kind: 'blank', name, blocking: false,
        message: `Line ${line} has no letters or digits (“${name}”): it would be entered as a person.` });
      return;
    }
    const length = [...name].length;
    if (maxChars !== null && length > maxChars) {
      problems.push({ line, kind: 'too-long', name, blocking: true,
        message: `Line ${line} is ${length} characters long; this server takes names of up to ${maxChars}.` });
      return;
    }
    const folded = name.toLocaleLowerCase().normalize('NFC').replace(/\s+/g, ' ');
    const first = firstLine.get(folded);
    if (first === undefined) {
      firstLine.set(folded, line);
    } else {
      problems.push({ line, kind: 'duplicate', name, firstLine: first, blocking: false,
        message: `“${name}” is on line ${first} and again on line ${line}: both would be entered.` });
    }
  });
  return problems;
}

/** `text` without line `line` (1-based). */
export function withoutLine(text, line) {
  const lines = String(text).split(/\r\n|\r|\n/);
  lines.splice(line - 1, 1);
  return lines.join('\n');
}

/** [start, end) offsets of line `line` (1-based) in `text`, to select it. */
export function lineRange(text, line) {
  const lines = String(text).split(/\r\n|\r|\n/);
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += lines[i].length + 1;
  return [start, start + (lines[line - 1]?.length ?? 0)];
}
