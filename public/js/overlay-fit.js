// Names that fit a stream's frame (issue 28, item 4): on the overlay, the current name and the
// winner's take the largest of a few sizes at which they stay within the frame's width and on at
// most two lines, and never break inside a word ("Sophia Ødegaard" is two words, not four
// pieces). Sizes are classes (overlay.css), not inline styles, so the page's CSP holds.

const SIZES = 8;         // fit-0 (largest) … fit-7 (smallest), in overlay.css
const MAX_LINES = 2;

/** Fits every overlay name on screen; a no-op on the other views. */
export function fitOverlayNames() {
  if (document.body.dataset.view !== 'overlay') return;
  for (const el of document.querySelectorAll('.current-name, .winner-name')) {
    if (!el.hidden && el.offsetParent !== null && el.dataset.fitted !== el.textContent) fit(el);
  }
}

function fit(el) {
  el.dataset.fitted = el.textContent;
  for (let size = 0; size < SIZES; size++) {
    setSize(el, size);
    if (fits(el)) return;
  }
  // Even the smallest does not: it may break inside a word rather than leave the frame.
  el.classList.add('fit-anywhere');
}

function setSize(el, size) {
  for (let i = 0; i < SIZES; i++) el.classList.toggle(`fit-${i}`, i === size);
  el.classList.remove('fit-anywhere');
}

function fits(el) {
  const style = getComputedStyle(el);
  const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.1;
  const frame = document.documentElement.clientWidth;
  const box = el.getBoundingClientRect();
  return el.scrollWidth <= el.clientWidth + 1 && box.right <= frame + 1 && box.left >= -1
    && box.height <= lineHeight * MAX_LINES + 2;
}
