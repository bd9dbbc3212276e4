// The host's requests to the HTTP API (PROTOCOL.md §5): the host key as a bearer token, and the
// answer as {ok, body} or {ok: false, error: {code, message}}, never a browser's own error text.

/**
 * `method` on `/api/rooms/ROOM{path}` with the host key. `body` is sent as `contentType`; every
 * API POST says it is JSON (415 otherwise), even with no body.
 */
export async function hostRequest(room, path, hostKey, { method, body = undefined, contentType = 'application/json' }) {
  try {
    const res = await fetch(`/api/rooms/${encodeURIComponent(room)}${path}`, {
      method, body, headers: { Authorization: `Bearer ${hostKey}`, 'Content-Type': contentType },
    });
    const answer = res.status === 204 ? null : await res.json().catch(() => null);
    if (res.ok) return { ok: true, body: answer };
    return { ok: false, error: answer?.error ?? { code: `http_${res.status}`, message: `The server answered ${res.status}.` } };
  } catch {
    return { ok: false, error: { code: 'unreachable', message: "Can't reach the live-draw server." } };
  }
}
