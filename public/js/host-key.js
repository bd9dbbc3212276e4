// The host key out of sight (issue 28, item 7): a host page projected or screen-shared must not
// show `#key=` in the address bar. The key is read from the address once, kept for this tab in
// sessionStorage (a reload stays the host's page), and the fragment is dropped from the address.
// The page shows the host link itself only behind a "Show" toggle (host-link.js).

const STORE = (room) => `live-draw.host-key:${room}`;

/** The route with its key taken from the address or, after a reload, from this tab's store. */
export function keepHostKey(route) {
  if (!route.roomValid) return route;
  try {
    if (route.hostKey) {
      sessionStorage.setItem(STORE(route.room), route.hostKey);
      history.replaceState(history.state, '', location.pathname + location.search);
      return route;
    }
    const kept = sessionStorage.getItem(STORE(route.room));
    return kept ? { ...route, hostKey: kept } : route;
  } catch {
    return route; // no storage (a privacy mode): the key simply stays in the address
  }
}

/** A refused key is forgotten: a reload must not pretend to be the host again. */
export function forgetHostKey(room) {
  try { sessionStorage.removeItem(STORE(room)); } catch { /* nothing was kept */ }
}
