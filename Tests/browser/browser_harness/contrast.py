"""WCAG AA contrast measured from computed styles: text 4.5:1 (3:1 when large), borders of
fields and buttons 3:1 against what surrounds them (WCAG 1.4.3 and 1.4.11)."""

# Returns [[what, ratio, needed]] for every visible text or control below the bar. Backgrounds in
# the page are opaque colours, so the first ancestor with a background is what the text sits on;
# anything shown through opacity below 1 counts as a failure of its own (it dims the colour).
MEASURE = r"""
const rgb = (css) => {
  const m = css.match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
  return { c: p.slice(0, 3), a: p.length > 3 ? p[3] : 1 };
};
const lum = ({ c }) => {
  const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
};
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const background = (el) => {
  for (let e = el; e; e = e.parentElement) {
    const bg = rgb(getComputedStyle(e).backgroundColor);
    if (bg && bg.a > 0) return bg;
  }
  return { c: [255, 255, 255], a: 1 };
};
const dimmed = (el) => {
  for (let e = el; e; e = e.parentElement) if (Number(getComputedStyle(e).opacity) < 1) return true;
  return false;
};
const name = (el) => `${el.tagName.toLowerCase()}#${el.id}.${[...el.classList].join('.')} "${el.textContent.trim().slice(0, 30)}"`;
const shown = (el) => el.checkVisibility({ opacityProperty: true, visibilityProperty: true })
  && !el.closest('.visually-hidden, .skip-link, .confetti');
const bad = [];
for (const el of document.querySelectorAll('body *')) {
  if (!shown(el)) continue;
  const ownText = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  const style = getComputedStyle(el);
  if (ownText) {
    const size = parseFloat(style.fontSize), bold = Number(style.fontWeight) >= 700;
    const needed = size >= 24 || (size >= 18.66 && bold) ? 3 : 4.5;
    const r = ratio(rgb(style.color), background(el));
    if (r < needed) bad.push([name(el), Math.round(r * 100) / 100, needed]);
    if (dimmed(el)) bad.push([name(el) + ' (dimmed by opacity)', 0, needed]);
  }
  if (el.matches('input, textarea, select, .button')) {
    const around = background(el.parentElement);
    const border = rgb(style.borderTopColor);
    const fill = rgb(style.backgroundColor);
    // A control is seen by its border, or by its own fill when that stands out on its own.
    const r = Math.max(ratio(border, around), fill.a > 0 ? ratio(fill, around) : 0);
    if (r < 3) bad.push([name(el) + ' (control edge)', Math.round(r * 100) / 100, 3]);
  }
}
return bad;
"""


def contrast_failures(page):
    return page.driver.execute_script(MEASURE)
