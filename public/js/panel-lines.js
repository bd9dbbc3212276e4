// The answer lines under a host panel's form (Entrants, Settings): a status, a refusal in plain
// words, and the details line that alone shows the code and the server's own sentence.

import { setText, show } from './dom.js';
import { refusalDetailText } from './room-words.js';

/**
 * `lines` is {status, error, detail} (elements). `sentence` is what went wrong ('' when
 * nothing did); `error` is the server's {code, message} behind it, null for the page's own.
 */
export function showOutcome(lines, status, sentence = '', error = null) {
  setText(lines.status, status);
  show(lines.error, sentence !== '');
  setText(lines.error, sentence);
  lines.error.dataset.code = error?.code ?? (sentence ? 'local' : '');
  const detail = error ? refusalDetailText(error) : '';
  show(lines.detail, detail !== '');
  setText(lines.detail, detail);
}
