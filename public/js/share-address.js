// Whether other devices can reach this page's address: a QR code or link made on `localhost` or a
// loopback address opens the phone's own loopback, never this server (issue 28, item 7).

/** True for localhost names and loopback/unspecified addresses (IPv4 127/8, 0.0.0.0, ::1). */
export function isLoopbackHost(hostname) {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host)
    || host === '0.0.0.0' || host === '::1' || host === '::';
}

/** The sentence shown next to the QR code when it would not work elsewhere, else ''. */
export function loopbackWarning(location) {
  if (!isLoopbackHost(location.hostname)) return '';
  return `This page's address (${location.hostname}) only works on this computer: the QR code and `
    + 'the link will not open on phones or other computers. Open this page by the computer\'s '
    + 'network name or address instead (the one other devices use to reach it).';
}

/** The room's viewer link (never the host key). */
export function viewerLink(room) {
  return new URL(`/?room=${encodeURIComponent(room)}`, location.origin).href;
}
