"""Bad input gets a clear error, never a crash: fuzz ``score_request`` with near-valid requests."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import ScoringError
from scoring.score import score_request

TILE_WORDS = st.sampled_from(["1m", "5p", "9s", "7z", "east", "red", "plum", "spring", "back",
                              "0m", "10m", "8z", "5f", "x", "", "123m", "111z", "55p"])
tile_text = st.one_of(
    st.lists(TILE_WORDS, max_size=16).map("".join),
    st.lists(TILE_WORDS, max_size=16),
    st.text(max_size=20),
    st.integers(), st.none(), st.booleans(),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=6,
)
melds = st.lists(st.one_of(
    st.fixed_dictionaries({"kind": st.sampled_from(["chow", "pung", "kong", "pong", "x", 3]),
                           "tiles": tile_text},
                          optional={"exposed": st.one_of(st.booleans(), json_values),
                                    "claimed_from": st.sampled_from(["east", "up", 1, None])}),
    json_values), max_size=5)
contexts = st.one_of(
    st.fixed_dictionaries({}, optional={
        "seat_wind": st.sampled_from(["east", "south", "w", "1z", "middle", 2]),
        "round_wind": st.sampled_from(["east", "north", None]),
        "self_drawn": st.one_of(st.booleans(), json_values),
        "discarder": st.sampled_from(["east", "south", "west", "north", "me", None]),
        "kong_replacement": st.booleans(), "robbing_kong": st.booleans(),
        "heavenly": st.booleans(), "earthly": st.booleans(), "last_tile": st.booleans(),
        "winning_tile_unseen": st.booleans(),
        "wall_tiles_left": st.one_of(st.integers(-3, 80), json_values)}),
    json_values)
requests = st.fixed_dictionaries(
    {"hand": st.one_of(st.fixed_dictionaries(
        {"concealed": tile_text},
        optional={"melds": melds, "bonus": tile_text, "winning_tile": tile_text}), json_values)},
    optional={"rules": st.sampled_from(["hk-a", "hk-b", "hkos", "HK-A", "nope", 7, None]),
              "options": st.one_of(st.fixed_dictionaries({}, optional={
                  "min_fan": json_values, "payment_table": st.sampled_from(
                      ["seed", "spicy", "hot", [1, 2], []]),
                  "fan.all_chows": json_values, "base_stake": json_values}), json_values),
              "context": contexts})


@settings(max_examples=400, deadline=None)
@given(requests)
def test_any_request_gets_an_answer_or_a_named_error(request: dict[str, Any]) -> None:
    try:
        resp = score_request(request)
    except ScoringError as exc:
        assert exc.code in ("bad_request", "bad_rule_option", "unknown_rules")
        assert exc.message
        return
    assert isinstance(resp["valid"], bool)
    json.dumps(resp)
    if not resp["valid"]:
        assert resp["reason"]
    else:
        assert resp["fan"] >= 0 and sum(resp["payments"].values()) > 0
