// The page's one "Copy" behaviour: the field's text to the clipboard, or, without clipboard
// access (an http page on another host, a policy), the field selected, one Ctrl+C away.

import { setText } from './dom.js';

/** Copies `input`'s value and says how in `status`. */
export async function copyField(input, status) {
  try {
    await navigator.clipboard.writeText(input.value);
    setText(status, 'Copied.');
  } catch {
    input.select();
    setText(status, 'Selected: press Ctrl+C (⌘C) to copy.');
  }
}
