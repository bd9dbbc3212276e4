"""Read-your-writes for a room's host key across nodes (issue 44): a key rotated through one node
is the key on every node for the very next request, even on a node that holds the room in memory
(a viewer there) with the old key; the old key is refused everywhere.

Two real nodes on one real redis-server over loopback; nothing waits on time.
"""
from helpers import http, keys
from helpers.rawws import open_joined
from helpers.rooms import put_settings
from helpers.uploads import _connect, _head, _list, _read_answer


def _upload(node, room: str, key: str) -> int:
    """A list past 16 KiB through `node`, its head sent alone with `Expect: 100-continue`, so the
    key is checked from the head (the front door's upload gate) before the body goes: the final
    status."""
    body = _list(3000)
    with _connect(node) as s:
        s.sendall(_head(room, key, len(body), expect=True))
        first = _read_answer(s, timeout=5)
        if http.status_of(first) != 100:
            return http.status_of(first)
        s.sendall(body)
        return http.status_of(_read_answer(s, timeout=15))


def _rotate(node, room: str, key: str) -> str:
    resp = http.request(node, "POST", f"/api/rooms/{room}/key", may_carry_key=True,
                        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
    assert resp.status == 200, resp.body
    keys.register(resp.json["hostKey"])
    return resp.json["hostKey"]


def test_a_key_rotated_through_one_node_works_at_once_through_the_other(nodes):
    a, b = nodes
    created = http.created_room(a)
    room, key = created["room"], created["hostKey"]
    # A viewer on B keeps the room in B's memory, with the key it was loaded with (a room without
    # viewers is read again at every lookup anyway).
    sock, _ = open_joined(b.host, b.port, room)
    try:
        settings = {"rounds": 3, "intervalMs": 50}
        actions = (("upload", lambda k: _upload(b, room, k), 200),
                   ("settings", lambda k: put_settings(b, room, k, settings).status, 200),
                   ("start", lambda k: http.start_draw(b, room, k).status, 202))
        for what, act, accepted in actions:
            old, key = key, _rotate(a, room, key)
            # At once, through B: the new key first (B still holds the old one), then the old.
            assert act(key) == accepted, what
            assert act(old) == 403, what
    finally:
        sock.close()
