"""Impossible hands get a clear reason, never a score; malformed requests raise named errors."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import IllegalHand, RequestError, RuleError
from scoring.hand import (
    Context,
    Hand,
    check_context,
    check_tiles,
    context_from_json,
    hand_from_json,
    meld,
    meld_from_json,
)
from scoring.score import score_request
from scoring.tiles import tile

CTX = {"seat_wind": "south", "discarder": "north"}


def answer(hand: dict[str, Any], ctx: dict[str, Any] | None = None,
           rules: str = "hk-a") -> dict[str, Any]:
    return score_request({"rules": rules, "hand": hand, "context": ctx or CTX})


def invalid(hand: dict[str, Any], ctx: dict[str, Any] | None = None) -> str:
    resp = answer(hand, ctx)
    assert resp["valid"] is False, resp
    reason: str = resp["reason"]
    return reason


def test_fifth_copy_of_a_tile() -> None:
    reason = invalid({"concealed": "11m123p456p789s55z", "winning_tile": "1m",
                      "melds": [{"kind": "pung", "tiles": "111m"}]})
    assert "only four" in reason and "5 of 1m" in reason


def test_wrong_tile_count_for_the_melds_declared() -> None:
    reason = invalid({"concealed": "123m456m789p234s55p",
                      "melds": [{"kind": "pung", "tiles": "555z"}]})
    assert "must be 11, got 14" in reason


def test_winning_tile_not_in_the_hand() -> None:
    reason = invalid({"concealed": "123m456m789p234s55p", "winning_tile": "9s"})
    assert "9s is not among the concealed tiles" in reason


@pytest.mark.parametrize("kind,tiles,why", [
    ("chow", "135m", "is not a chow"),
    ("chow", "123z", "is not a chow"),
    ("chow", "891m", "is not a chow"),
    ("pung", "556m", "is not a pung"),
    ("kong", "5555z5z", "is not a kong"),
    ("pung", "55m", "is not a pung"),
])
def test_a_meld_that_is_not_a_meld(kind: str, tiles: str, why: str) -> None:
    reason = invalid({"concealed": "123m456p789s55z", "melds": [{"kind": kind, "tiles": tiles}]})
    assert why in reason and "hand.melds[0]" in reason


def test_bonus_tiles_inside_melds_or_concealed() -> None:
    assert "bonus tiles" in invalid({"concealed": "123m456p789s55z",
                                     "melds": [{"kind": "pung", "tiles": ["plum", "1f", "1f"]}]})
    assert "belong in \"bonus\"" in invalid({"concealed": "123m456m789p234s5p1f"})
    assert "only flowers and seasons" in invalid({"concealed": "123m456m789p234s55p",
                                                  "bonus": "5z"})
    assert "exists once" in invalid({"concealed": "123m456m789p234s55p", "bonus": "1f1f"})


def test_incomplete_hand_lists_its_waits() -> None:
    resp = answer({"concealed": "123m456m789p2345s"})
    assert resp["valid"] is False
    assert resp["waits"] == ["2s", "5s"]
    assert "one tile short" in resp["reason"]


def test_full_size_hand_that_does_not_win_says_what_it_waited_on() -> None:
    resp = answer({"concealed": "123m456m789p2345s9m", "winning_tile": "9m"})
    assert resp["valid"] is False
    assert resp["waits"] == ["2s", "5s"]
    assert "do not form a winning hand" in resp["reason"]


def test_one_short_with_no_wait() -> None:
    resp = answer({"concealed": "1111m1111p1111s9m"})
    assert resp["valid"] is False and "no tile completes it" in resp["reason"]


def test_concealed_kong_with_face_down_tiles() -> None:
    m = meld_from_json({"kind": "kong", "tiles": "back 5z 5z back"})
    assert m.exposed is False and m.tiles == (tile("5z"),) * 4
    with pytest.raises(IllegalHand, match="concealed"):
        meld_from_json({"kind": "kong", "tiles": "back 5z 5z back", "exposed": True})
    with pytest.raises(IllegalHand, match="at least one face"):
        meld_from_json({"kind": "kong", "tiles": "back back back back"})
    with pytest.raises(IllegalHand, match="face-down tiles only appear"):
        meld_from_json({"kind": "pung", "tiles": "back 5z 5z"})


def test_meld_kind_is_inferred_when_missing() -> None:
    assert meld_from_json({"tiles": "345p"}).kind == "chow"
    assert meld_from_json({"tiles": "777z"}).kind == "pung"
    assert meld_from_json({"tiles": "7777z"}).kind == "kong"
    assert meld_from_json({"kind": "pong", "tiles": "777z"}).kind == "pung"


@pytest.mark.parametrize("ctx,why", [
    ({"seat_wind": "south", "self_drawn": True, "discarder": "east"}, "no discarder"),
    ({"seat_wind": "south"}, "needs \"discarder\""),
    ({"seat_wind": "south", "discarder": "south"}, "own discard"),
    ({"seat_wind": "south", "self_drawn": True, "kong_replacement": True}, "needs a declared kong"),
    ({"seat_wind": "south", "discarder": "east", "kong_replacement": True}, "self-drawn"),
    ({"seat_wind": "south", "self_drawn": True, "robbing_kong": True}, "not self-drawn"),
    ({"seat_wind": "south", "self_drawn": True, "heavenly": True}, "dealer"),
    ({"seat_wind": "east", "discarder": "south", "earthly": True}, "non-dealer"),
])
def test_contradictory_context(ctx: dict[str, Any], why: str) -> None:
    assert why in invalid({"concealed": "123m456m789p234s55p", "winning_tile": "4s"}, ctx)


def test_robbing_a_kong_needs_the_only_copy() -> None:
    reason = invalid({"concealed": "123m456m789p234s44s", "winning_tile": "4s"},
                     {"seat_wind": "south", "discarder": "east", "robbing_kong": True})
    assert "cannot rob a kong" in reason


def test_meld_claimed_from_the_winner() -> None:
    reason = invalid({"concealed": "123m456m234s55p", "winning_tile": "4s",
                      "melds": [{"kind": "pung", "tiles": "999p", "claimed_from": "south"}]})
    assert "own seat" in reason


@pytest.mark.parametrize("request_,error,text", [
    ({"hand": {"concealed": "12x"}}, RequestError, "unknown tile"),
    ({"hand": {"concealed": "123m", "melds": "pung"}}, RequestError, "list of melds"),
    ({"hand": {"concealed": "123m", "melds": [{"kind": "set", "tiles": "123m"}]}},
     RequestError, "kind must be one of"),
    ({"hand": {"concealed": "123m", "extra": 1}}, RequestError, "unknown field"),
    ({"hand": {}}, RequestError, "concealed is required"),
    ({"hand": {"concealed": "123m"}, "context": {"seat_wind": "up"}}, RequestError, "seat_wind"),
    ({"hand": {"concealed": "123m"}, "context": {"self_drawn": "yes"}}, RequestError,
     "true or false"),
    ({"hand": {"concealed": "123m"}, "context": {"wall_tiles_left": -1}}, RequestError,
     "wall_tiles_left"),
    ({"hand": {"concealed": "123m", "winning_tile": "12m"}}, RequestError, "exactly one tile"),
    ({"hand": {"concealed": "123m"}, "colour": "red"}, RequestError, "unknown request field"),
    ({"context": {}}, RequestError, "needs \"hand\""),
    ({"rules": "riichi", "hand": {"concealed": "123m"}}, RuleError, "unknown rules 'riichi'"),
    ({"rules": "hk-a", "options": {"min_fann": 1}, "hand": {"concealed": "123m"}}, RuleError,
     "unknown option 'min_fann'"),
])
def test_malformed_requests_raise_named_errors(request_: dict[str, Any], error: type[Exception],
                                               text: str) -> None:
    with pytest.raises(error, match=text):
        score_request(request_)


def test_error_codes_are_stable() -> None:
    with pytest.raises(RuleError) as unknown:
        score_request({"rules": "nope", "hand": {"concealed": "1m"}})
    assert unknown.value.code == "unknown_rules"
    with pytest.raises(RuleError) as option:
        score_request({"options": {"min_fan": -1}, "hand": {"concealed": "1m"}})
    assert option.value.code == "bad_rule_option"
    with pytest.raises(RequestError) as bad:
        score_request({"hand": {"concealed": "1x"}})
    assert bad.value.code == "bad_request"


def test_tile_lists_in_any_notation() -> None:
    a = hand_from_json({"concealed": "123m456m789p234s55p", "bonus": ["plum"]})
    b = hand_from_json({"concealed": ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p",
                                      "2s", "3s", "4s", "5p", "5p"], "bonus": "1f"})
    assert sorted(a.concealed) == sorted(b.concealed) and a.bonus == b.bonus


def test_python_helpers() -> None:
    hand = Hand.of("123m456m234s55p", [meld("pung", "999p")], "plum", "4s")
    check_tiles(hand)
    check_context(hand, Context(seat_wind="south", discarder="east"))
    assert context_from_json(None) == Context()
    with pytest.raises(IllegalHand):
        meld("chow", "124m")
