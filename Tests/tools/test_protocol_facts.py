"""The Python test clients' protocol facts (Tests/e2e/helpers/protocol.py) against
Tests/vectors/protocol.json, the file the server and the page are tested against too."""
import importlib.util
import json
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FACTS = json.loads((REPO / "Tests" / "vectors" / "protocol.json").read_text(encoding="utf-8"))
_spec = importlib.util.spec_from_file_location("protocol", REPO / "Tests" / "e2e" / "helpers" / "protocol.py")
protocol = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(protocol)


def test_subprotocol_and_lobby():
    assert protocol.SUBPROTOCOL == FACTS["subprotocol"]
    assert [protocol.SUBPROTOCOL_V1] == FACTS["olderSubprotocols"]
    assert protocol.LOBBY == FACTS["lobby"]


@pytest.mark.parametrize("name", FACTS["roomNames"]["valid"])
def test_valid_room_names(name):
    assert protocol.is_room_name(name)


@pytest.mark.parametrize("name", FACTS["roomNames"]["invalid"])
def test_invalid_room_names(name):
    assert not protocol.is_room_name(name)
