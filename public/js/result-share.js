// The result page's "share" (issue 28, item 8): after the event a host posts the result, so the
// page offers it as a few lines to paste (title, prize, who won, the link that verifies it), or
// the device's own share sheet where there is one (phones).

import { byId, setText, show } from './dom.js';
import { giveawayOf } from './giveaway.js';
import { redrawnTextFor } from './redrawn-by.js';
import { outcomeText, stoppedText } from './words.js';

const el = { box: byId('result-share'), button: byId('result-share-button'), done: byId('result-share-done') };
let ended = null; // the record shown, once it has ended
let last = null;  // the view state: the giveaway's title and prize arrive after the record

/**
 * The lines a host pastes into a post or a chat; `later`: what the page says of later redraws of
 * this draw (a winner replaced since), so a copied result never names a winner who was replaced.
 */
export function resultShareText({ title, prize }, record, url, later = '') {
  const what = record.status === 'finished' ? `${outcomeText(record)}.` : stoppedText(record);
  return [title, prize ? `Prize: ${prize}` : null, what, later || null, `Check the draw: ${url}`].filter(Boolean).join('\n');
}

export function setUpResultShare() {
  el.button.addEventListener('click', async () => {
    if (!ended) return;
    // Read at the click: the room's title and prize load after the record does.
    const giveaway = giveawayOf(last);
    const shared = { title: giveaway.title ?? 'Draw result',
      text: resultShareText(giveaway, ended, location.href, redrawnTextFor(ended.drawId)) };
    if (navigator.share) {
      try {
        await navigator.share({ title: shared.title, text: shared.text, url: location.href });
        return;
      } catch (error) {
        if (error?.name === 'AbortError') return; // the person closed the share sheet
      }
    }
    try {
      await navigator.clipboard.writeText(shared.text);
      setText(el.done, 'Copied: paste it into a post or a message.');
    } catch {
      setText(el.done, `Copy this: ${shared.text.replaceAll('\n', ' · ')}`);
    }
  });
  setText(el.button, navigator.share ? 'Share the result' : 'Copy the result and its link');
}

export function renderResultShare(s) {
  const record = s.connection === 'record' && s.phase === 'result' ? s.result?.record : null;
  last = s;
  ended = record && record.status !== 'running' && record.status !== 'failed' ? record : null;
  show(el.box, ended !== null);
}
