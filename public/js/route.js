// Which room this page shows and whether it is the host's page, read from its address:
// `/?room=ROOM` for viewers, `/?room=ROOM#key=HOSTKEY` for the host. The key lives in the
// fragment because browsers never send fragments, so it stays out of request lines and logs.

export const DEFAULT_ROOM = 'lobby';
/** The longest room name; the page's one copy of the rule (the server's is RoomName.swift). */
export const ROOM_NAME_MAX = 64;
const ROOM_PATTERN = new RegExp(`^[a-z0-9-]{1,${ROOM_NAME_MAX}}$`);

export function isRoomName(name) {
  return ROOM_PATTERN.test(name);
}

/**
 * {room, roomValid, hostKey, view} for a location; hostKey is null for viewers. A malformed key is
 * kept: the server's "forbidden" tells the host more than silently becoming a viewer would.
 */
export function readRoute(location) {
  const room = new URLSearchParams(location.search).get('room') || DEFAULT_ROOM;
  const key = new URLSearchParams(location.hash.slice(1)).get('key');
  // `view=overlay`: the stream overlay (a transparent page with the draw only, for OBS).
  const overlay = new URLSearchParams(location.search).get('view') === 'overlay';
  return { room, roomValid: isRoomName(room), hostKey: key || null, view: overlay ? 'overlay' : 'page' };
}

/** Absolute link for a path the API returned (`viewerUrl`, `hostUrl`). */
export function absoluteLink(location, path) {
  return new URL(path, location.origin).href;
}
