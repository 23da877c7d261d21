"""The JSON contract of ``score_request`` shared by the CLI, the API, the web page and apps."""

from __future__ import annotations

import json
from typing import Any

from scoring.hand import Context, Hand
from scoring.score import score_hand, score_request

CONTEXT = {"seat_wind": "south", "round_wind": "east", "self_drawn": False, "discarder": "east",
           "last_tile": False, "kong_replacement": False, "robbing_kong": False,
           "heavenly": False}


def test_contract_shape() -> None:
    request = {"rules": "hk-a",
               "hand": {"concealed": "123m456m789p234s55p", "melds": [], "bonus": ["plum"],
                        "winning_tile": "4s"},
               "context": CONTEXT}
    resp = score_request(request)
    assert json.loads(json.dumps(resp)) == resp  # JSON as is
    for key in ("valid", "rules", "fan", "limit", "patterns", "payments", "decomposition",
                "winning_tile"):
        assert key in resp
    assert resp["rules"] == "hk-a" and resp["winning_tile"] == "4s"
    for p in resp["patterns"]:
        assert {"name", "name_it", "fan"} <= set(p)
    assert set(resp["payments"]) == {"east", "west", "north"}
    assert resp["bonus"] == ["1f"]


def test_issue_example_with_a_declared_pung() -> None:
    request = {"rules": "hk-a",
               "hand": {"concealed": "123m456m55p234s", "bonus": ["plum"], "winning_tile": "4s",
                        "melds": [{"kind": "pung", "tiles": "555z", "exposed": True,
                                   "claimed_from": "north"}]},
               "context": CONTEXT}
    resp = score_request(request)
    assert resp["valid"] is True
    assert resp["decomposition"][0]["tiles"] == "555z"
    assert resp["decomposition"][0]["declared"] is True
    assert {p["id"] for p in resp["patterns"]} == {"dragon_pung", "pair_258"}


def test_invalid_shape() -> None:
    resp = score_request({"rules": "hk-b", "hand": {"concealed": "123m456m789p2345s"},
                          "context": CONTEXT})
    assert resp["valid"] is False and resp["rules"] == "hk-b"
    assert isinstance(resp["reason"], str) and resp["waits"] == ["2s", "5s"]


def test_winning_tile_omitted_takes_the_best_for_the_winner() -> None:
    # the wait on 1s/4s: as 4s the hand is all simples too (hk-a "senza teste")
    resp = score_request({"rules": "hk-a", "hand": {"concealed": "234m456m678p23s55p4s"},
                          "context": CONTEXT})
    assert resp["winning_tile_assumed"] is True
    assert resp["valid"] is True
    given = score_request({"rules": "hk-a", "hand": {"concealed": "234m456m678p23s55p4s",
                                                    "winning_tile": resp["winning_tile"]},
                           "context": CONTEXT})
    assert given["fan"] == resp["fan"] and given["winning_tile_assumed"] is False


def test_winning_tile_omitted_where_placement_matters() -> None:
    # hkos four concealed pungs on a discard: only winning on the pair keeps the limit
    resp = score_request({"rules": "hkos", "hand": {"concealed": "111m222p333s444m55z"},
                          "context": CONTEXT})
    assert resp["limit"] is True and resp["winning_tile"] == "5z"


def test_options_are_echoed() -> None:
    resp = score_request({"rules": "hk-a", "options": {"min_fan": 1},
                          "hand": {"concealed": "123m456m789p234s55p", "winning_tile": "4s"},
                          "context": CONTEXT})
    assert resp["options"] == {"min_fan": 1}
    assert resp["min_fan"] == 1


def test_default_rules_and_context() -> None:
    resp: dict[str, Any] = score_request({"hand": {"concealed": "123m456m789p234s55p",
                                                   "winning_tile": "4s"},
                                          "context": {"self_drawn": True}})
    assert resp["rules"] == "hk-a" and resp["winner"] == "east"


def test_python_entry_point() -> None:
    resp = score_hand(Hand.of("123m456m789p234s55p", winning_tile="4s"),
                      Context(seat_wind="south", discarder="east"), "hk-b")
    assert resp["valid"] and resp["rules"] == "hk-b" and resp["fan"] == 2
