"""Helpers of the end-to-end suite (also used by the fuzz and browser suites): each module wraps
one real thing the tests talk to.

- cli:        how the CLI is spelled (binary, flags, startup-log regexes), in one place.
- launcher:   starts servers with a suite's defaults, stops them all at teardown.
- server:     the live-draw process (start, read port/key from its log, stop, restart).
- datasource: the HTTP server that plays the two player lists, and can fail on demand.
- wsclient:   an independent WebSocket client (PyPI `websockets`) that records every message.
- rawws:      a hand-written WebSocket client for behaviour `websockets` refuses to produce.
- http:       plain HTTP requests, including raw bytes a normal client would "fix".
- keys:       the host-key leak check applied to everything the suite receives.
- draw:       fairness verification (tools/verify_draw.py) and schedule checks.
- seed:       the seed player lists and generators for bigger ones.
- protocol:   the subprotocol and the room-name rule, written once (checked against Tests/vectors).
"""
