"""The Italian model through the shared entry point: every player, limits, rounding, settlement."""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_italian_support import kong, pung, score

from scoring.errors import RequestError, RuleError
from scoring.score import score_request

# South wins on West's discard: exposed Red pung (4) + mahjong (20) = 24 points,
# one double (dragon pung): 48. Waits 6p/9p, so no closing points beyond mahjong.
WINNER_48 = {"concealed": "123m456m789p22s", "melds": [pung("777z")], "winning_tile": "9p"}


def request(**extra: Any) -> dict[str, Any]:
    return {"rules": "italian", "hand": WINNER_48,
            "context": {"seat_wind": "south", "round_wind": "east", "discarder": "west"},
            **extra}


def test_the_winner_hand_scores_48() -> None:
    r = score_request(request(options={"unit": 1}))
    assert r["valid"] is True
    assert (r["points"], r["doubles"], r["score"]) == (24, 1, 48)


def test_worked_case_of_the_issue_through_the_request() -> None:
    # Losers East 20, West 256, North 4 (given as numbers), rounding off.
    r = score_request(request(options={"unit": 1},
                              players={"east": 20, "west": 256, "north": 4}))
    m = r["settlement"]["matrix"]
    assert m["east"]["south"] == 96  # East pays the winner double
    assert m["east"]["west"] == 472  # and pays the 256-player twice the difference
    assert m["north"]["east"] == 32  # and receives twice the difference from the 4-player
    assert m["west"]["south"] == m["north"]["south"] == 48
    assert sum(m[p]["south"] for p in ("east", "west", "north")) == 192
    assert all(m["south"][p] == 0 for p in ("east", "west", "north"))  # the winner pays none
    assert r["payments"] == {"east": 96, "west": 48, "north": 48}
    assert sum(r["settlement"]["net"].values()) == 0
    assert r["settlement"]["totals"] == {
        s: 2000 + n for s, n in r["settlement"]["net"].items()}


def test_scores_are_rounded_down_to_ten() -> None:
    r = score_request(request(players={"east": 20, "west": 256, "north": 4}))
    assert r["score"] == 40  # 48 -> 40
    assert r["players"]["west"]["score"] == 250
    assert r["players"]["north"]["score"] == 0
    assert r["settlement"]["matrix"]["east"]["west"] == (250 - 20) * 2


def test_losers_hands_are_scored_and_settled() -> None:
    players = {
        # East: exposed pung of 1m (4), concealed 555z pung (8), pair of his own wind
        # that is also the round wind, 11z (2 + 2): 16 points, dragon double: 32 -> 30.
        "east": {"concealed": "555z11z23p", "melds": [pung("111m")]},
        # West holds a concealed kong of 8s (16): 16 points -> 10.
        "west": {"concealed": "24m5s9p", "melds": [kong("8888s", exposed=False),
                                                     {"kind": "chow", "tiles": "345p"}]},
        "north": 0,
    }
    r = score_request(request(players=players))
    assert r["players"]["east"]["points"] == 16
    assert r["players"]["east"]["score"] == 30
    assert r["players"]["west"]["points"] == 16
    assert r["players"]["west"]["score"] == 10
    net = r["settlement"]["net"]
    assert sum(net.values()) == 0
    # East (30) and West (10): East receives twice the difference.
    assert r["settlement"]["matrix"]["west"]["east"] == 40


def test_a_loser_shows_the_pair_that_scores_most() -> None:
    # Two dragon pungs and pairs of Green dragon and 5m: the dragon pair also makes
    # "small three dragons", so that pair is shown.
    players = {"east": {"concealed": "555z777z66z55m9p"}, "west": 0, "north": 0}
    winner = {"concealed": "123m456m789p234s55p", "winning_tile": "4s"}
    r = score_request({**request(players=players), "hand": winner})
    east = r["players"]["east"]
    keys = {line["key"] for line in east["double_lines"]}
    assert "small_three_dragons" in keys
    assert east["points"] == 8 + 8 + 2


def test_four_undeclared_copies_are_a_pung_not_a_kong() -> None:
    players = {"east": {"concealed": "3333s579p1m"}, "west": 0, "north": 0}
    east = score_request(request(players=players))["players"]["east"]
    assert east["points"] == 4  # concealed pung of simples


def test_east_winner_at_the_limit_collects_the_seed_maximum() -> None:
    # The seed: East's largest win is 737,280 from each player, 2,211,840 in one hand.
    r = score("11z", melds=[kong("5555z", exposed=False), pung("666z", exposed=False),
                            pung("777z", exposed=False), pung("222z", exposed=False)],
              bonus=["1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"], win="1z",
              seat="east", self_drawn=True, players={"south": 0, "west": 0, "north": 0})
    assert r["limit"] is True
    assert r["score"] == 368_640
    assert r["payments"] == {"south": 737_280, "west": 737_280, "north": 737_280}
    assert r["settlement"]["net"]["east"] == 2_211_840


def test_limit_is_a_setting() -> None:
    r = score("11z", melds=[kong("5555z", exposed=False), pung("666z", exposed=False),
                            pung("777z", exposed=False), pung("222z", exposed=False)],
              win="1z", seat="east", self_drawn=True, options={"limit": 1000})
    assert r["score"] == 1000 and r["limit"] is True


def test_east_loser_pays_and_receives_double() -> None:
    players = {"east": 100, "west": 60, "north": 200}
    r = score_request(request(players=players))
    m = r["settlement"]["matrix"]
    assert m["east"]["south"] == 2 * 40
    assert m["west"]["east"] == 2 * 40  # 100 - 60
    assert m["east"]["north"] == 2 * 100  # 200 - 100
    assert m["west"]["north"] == 140  # no East: single


def test_without_players_only_the_winner_collects() -> None:
    r = score_request(request())
    assert r["settlement"]["losers_settled"] is False
    assert r["settlement"]["net"] == {"east": -80, "south": 160, "west": -40, "north": -40}


def test_a_given_score_is_capped_at_the_limit() -> None:
    r = score_request(request(players={"east": 10**9, "west": 0, "north": 0}))
    assert r["players"]["east"]["score"] == 368_640


def test_players_given_as_score_objects() -> None:
    r = score_request(request(players={"east": {"score": 20}, "west": 250, "north": 0}))
    assert r["players"]["east"]["given"] == "score"


def test_winning_tile_may_be_omitted() -> None:
    hand = {**WINNER_48, "winning_tile": None}
    r = score_request({**request(), "hand": hand})
    assert r["valid"] and r["winning_tile_assumed"] is True
    assert r["winning_tile"] in {"1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2s",
                                 "7p", "8p", "9p"}


def test_running_totals_can_start_from_given_totals() -> None:
    totals = {"east": 1500, "south": 2500, "west": 2000, "north": 2000}
    r = score_request(request(players={"east": 0, "west": 0, "north": 0}, totals=totals))
    assert r["settlement"]["totals"]["south"] == 2500 + r["settlement"]["net"]["south"]


def test_response_is_json_serialisable() -> None:
    r = score_request(request(players={"east": {"concealed": "555z11z23p"}, "west": 3,
                                       "north": 0}))
    assert json.loads(json.dumps(r)) == r


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ({"east": 0, "west": 0}, "lacks north"),
        ({"east": 0, "west": 0, "north": 0, "south": 0}, "winner's seat"),
        ({"east": -5, "west": 0, "north": 0}, "players.east"),
        ({"east": "ten", "west": 0, "north": 0}, "players.east"),
        ({"middle": 0, "west": 0, "north": 0}, "players key"),
        ([1, 2, 3], "players"),
        ({"east": {"concealed": "12x"}, "west": 0, "north": 0}, "hand.concealed"),
    ],
)
def test_bad_players_are_request_errors(players: Any, message: str) -> None:
    with pytest.raises(RequestError, match=message):
        score_request(request(players=players))


def test_too_many_copies_across_the_table_is_not_a_valid_hand() -> None:
    # The winner has 777z exposed; East cannot also hold two Red dragons.
    r = score_request(request(players={"east": {"concealed": "77z"}, "west": 0, "north": 0}))
    assert r["valid"] is False
    assert "7z" in r["reason"]


def test_a_bonus_tile_held_twice_is_not_valid() -> None:
    hand = {**WINNER_48, "bonus": ["1f"]}
    r = score_request({**request(players={"east": {"concealed": "1m", "bonus": ["1f"]},
                                          "west": 0, "north": 0}), "hand": hand})
    assert r["valid"] is False and "1f" in r["reason"]


def test_a_loser_with_too_many_tiles_is_not_valid() -> None:
    r = score_request(request(players={"east": {"concealed": "123456789m123456p"},
                                       "west": 0, "north": 0}))
    assert r["valid"] is False and "too many tiles" in r["reason"]


def test_incomplete_hand_answers_with_waits() -> None:
    hand = {"concealed": "123m456m78p22s", "melds": [pung("777z")]}  # waits 6p, 9p
    r = score_request({**request(), "hand": hand})
    assert r["valid"] is False
    assert r["waits"] == ["6p", "9p"]


def test_bonus_tiles_can_be_switched_off() -> None:
    hand = {**WINNER_48, "bonus": ["2f"]}
    r = score_request({**request(options={"bonus_tiles": False}), "hand": hand})
    assert r["valid"] is False and "bonus_tiles" in r["reason"]


def test_unknown_option_names_the_allowed_ones() -> None:
    with pytest.raises(RuleError, match=r"'dragons'.*allowed: start_points"):
        score_request(request(options={"dragons": 2}))


def test_a_bad_meld_is_an_invalid_hand() -> None:
    hand = {**WINNER_48, "melds": [pung("789m")]}
    r = score_request({**request(), "hand": hand})
    assert r["valid"] is False and "not a pung" in r["reason"]
