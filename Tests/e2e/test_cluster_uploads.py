"""Uploads in cluster mode (issue 31: "in cluster mode, the same limits hold per node"): a list
uploaded through one node for a room created on another is checked from its head against the
room as the cluster keeps it (key, room), is kept where every node reads it, and each node holds
its own upload slots: one address that fills a node's share is still served by the other node.

Two real nodes on one real redis-server over loopback; every wait is bounded.
"""
from helpers import http
from helpers.rooms import room_snapshot
from helpers.uploads import BIG, _connect, _head, _list, _read_answer


def test_an_upload_through_another_node_is_checked_there_and_kept_for_both(nodes):
    a, b = nodes
    created = http.created_room(a, "crossing")
    key = created["hostKey"]
    # B never saw the room: it loads it from Redis, on its rooms thread, before the body.
    for head, status in ((_head("crossing", None, BIG), 401), (_head("crossing", "0" * 48, BIG), 403),
                         (_head("not-there", key, BIG), 404)):
        with _connect(b) as s:
            s.sendall(head + b"A")
            raw = _read_answer(s, timeout=5)
        assert http.status_of(raw) == status, (head[:60], raw[:300])
    body = _list(3000)
    with _connect(b) as s:
        s.sendall(_head("crossing", key, len(body)) + body)
        raw = _read_answer(s, timeout=15)
    assert http.status_of(raw) == 200, raw[:300]
    # Both nodes read the room's record from the cluster's store: the same list on each.
    assert room_snapshot(b, "crossing")["entrants"] == 3000
    assert room_snapshot(a, "crossing")["entrants"] == 3000


def test_each_node_holds_its_own_upload_slots(nodes):
    a, b = nodes
    keys = {name: http.created_room(a, name)["hostKey"] for name in ("held-1", "held-2", "other")}
    size = 40_000  # past 16 KiB: an upload that takes a slot
    held = []
    try:
        for name in ("held-1", "held-2"):  # this address's two slots on B, trickling
            s = _connect(b)
            s.sendall(_head(name, keys[name], size) + b"A\n")
            held.append(s)
        with _connect(b) as s:
            s.sendall(_head("other", keys["other"], size))
            raw = _read_answer(s, timeout=5)
        assert http.status_of(raw) == 503 and b'"busy"' in raw, raw[:300]
        # A's slots are A's: the same address uploads there meanwhile.
        body = _list(size // 12)
        with _connect(a) as s:
            s.sendall(_head("other", keys["other"], len(body)) + body)
            raw = _read_answer(s, timeout=15)
        assert http.status_of(raw) == 200, raw[:300]
    finally:
        for s in held:
            s.close()
