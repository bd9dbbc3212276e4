"""Helpers for the browser tests: the live-draw server, the player-list source, page objects."""
