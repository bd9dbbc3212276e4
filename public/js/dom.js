// The few DOM helpers every view module uses. Elements are looked up by id once, at import.

export const byId = (id) => document.getElementById(id);

export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

export function show(el, visible) {
  el.hidden = !visible;
}
