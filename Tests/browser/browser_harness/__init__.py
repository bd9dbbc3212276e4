"""Helpers for the browser tests: page objects, the lists they serve, paths. The server and the
player-list source are the e2e suite's (Tests/e2e/helpers), loaded by conftest.py."""
