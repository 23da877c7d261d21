"""The seed's payment table, doubling, stakes, the alternative tables and liability."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.payments import PAYMENT_TABLES, base_amount, settle
from scoring.score import score_request
from scoring.tiles import WINDS

SEED_TABLE = {0: 1, 1: 2, 2: 4, 3: 8, 4: 12, 5: 16, 6: 20, 7: 24, 8: 28, 9: 32, 10: 64, 11: 64,
              15: 64}


@pytest.mark.parametrize("fan,base", sorted(SEED_TABLE.items()))
def test_seed_table_discard_and_self_drawn(fan: int, base: int) -> None:
    amount = base_amount(fan, False, 10, PAYMENT_TABLES["seed"])
    discard = settle(amount, "south", False, "east", WINDS)
    assert discard.by_seat == {"east": 2 * base, "west": base, "north": base}
    drawn = settle(amount, "south", True, None, WINDS)
    assert drawn.by_seat == {"east": 2 * base, "west": 2 * base, "north": 2 * base}


def test_a_limit_hand_pays_the_top_row() -> None:
    assert base_amount(3, True, 10, PAYMENT_TABLES["seed"]) == 64
    assert base_amount(3, True, 13, PAYMENT_TABLES["half-spicy"]) == 384


def test_alternative_tables() -> None:
    assert PAYMENT_TABLES["half-spicy"] == (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384)
    assert PAYMENT_TABLES["spicy"][:5] == (1, 2, 4, 8, 16)
    assert all(PAYMENT_TABLES["spicy"][f] == 2 ** f for f in range(14))


def request(ctx: dict[str, Any], options: dict[str, Any] | None = None,
            melds: list[dict[str, Any]] | None = None, concealed: str = "123m456m789p234s55p",
            win: str = "4s", rules: str = "hk-a") -> dict[str, Any]:
    return score_request({"rules": rules, "options": options or {},
                          "hand": {"concealed": concealed, "melds": melds or [],
                                   "winning_tile": win},
                          "context": ctx})


def test_issue_example_three_fan() -> None:
    # all chows 1 + pair of 5 1 + no flowers 1 = 3 fan
    resp = request({"seat_wind": "south", "discarder": "east"})
    assert resp["fan"] == 3
    assert resp["payments"] == {"east": 16, "west": 8, "north": 8}
    drawn = request({"seat_wind": "south", "self_drawn": True})  # + concealed self-drawn 2
    assert drawn["fan"] == 5 and drawn["payments"] == {"east": 32, "west": 32, "north": 32}


def test_stake_and_table_options() -> None:
    resp = request({"seat_wind": "south", "discarder": "east"},
                   {"base_stake": 0.5, "payment_table": "spicy"})
    assert resp["payments"] == {"east": 8, "west": 4, "north": 4}
    custom = request({"seat_wind": "south", "discarder": "east"}, {"payment_table": [5, 6, 7, 9]})
    assert custom["payments"] == {"east": 18, "west": 9, "north": 9}


def test_minimum_fan_option() -> None:
    resp = request({"seat_wind": "south", "discarder": "east"}, {"min_fan": 4})
    assert resp["valid"] is False and "at least 4" in resp["reason"]


def test_limit_fan_option() -> None:
    resp = request({"seat_wind": "south", "discarder": "east"}, {"limit_fan": 3})
    assert resp["limit"] is True and resp["payments"] == {"east": 16, "west": 8, "north": 8}
    assert request({"seat_wind": "south", "discarder": "east"},
                   {"limit_fan": 2})["payments"]["east"] == 8


@pytest.mark.parametrize("options", [{"base_stake": 0}, {"payment_table": "mild"},
                                     {"min_fan": 1.5}, {"liability": "yes"},
                                     {"payment_table": []}, {"fan.all_chows": -1},
                                     {"fan.tenhou": 1}])
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    from scoring.errors import RuleError
    with pytest.raises(RuleError):
        request({"seat_wind": "south", "discarder": "east"}, options)


# --- liability: the liable player pays the whole total alone

BAMBOO3 = [{"kind": "chow", "tiles": "123s", "claimed_from": "west"},
           {"kind": "pung", "tiles": "555s", "claimed_from": "north"},
           {"kind": "chow", "tiles": "789s", "claimed_from": "west"}]


def test_one_suit_with_three_exposed_sets_on_a_discard() -> None:
    resp = request({"seat_wind": "south", "discarder": "east"}, melds=BAMBOO3,
                   concealed="34588s", win="8s")
    # one suit only 5 + pair of 8 1 + no flowers 1 = 7 fan: 48 + 24 + 24, all from east
    assert resp["fan"] == 7 and resp["liable"] == "east"
    assert resp["payments"] == {"east": 96, "west": 0, "north": 0}


def test_one_suit_fourth_set_claimed_then_self_drawn() -> None:
    four = [*BAMBOO3, {"kind": "chow", "tiles": "345s", "claimed_from": "north"}]
    resp = request({"seat_wind": "south", "self_drawn": True}, melds=four, concealed="88s",
                   win="8s")
    assert resp["liable"] == "north"
    assert resp["payments"]["north"] == resp["total"]
    alone = request({"seat_wind": "south", "self_drawn": True}, melds=BAMBOO3,
                    concealed="34588s", win="8s")
    assert alone["liable"] is None


def test_no_liability_without_one_suit() -> None:
    resp = request({"seat_wind": "south", "discarder": "east"}, melds=BAMBOO3,
                   concealed="34599m", win="9m")
    assert resp["liable"] is None and resp["payments"]["west"] > 0


WINDS3 = [{"kind": "pung", "tiles": t, "claimed_from": "west"} for t in ("111z", "222z", "333z")]


def test_three_exposed_wind_pungs_and_the_fourth_wind_discarded() -> None:
    resp = request({"seat_wind": "south", "discarder": "north"}, melds=WINDS3,
                   concealed="444z55m", win="4z")
    assert "big_four_winds" in {p["id"] for p in resp["patterns"]}
    assert resp["liable"] == "north"
    assert resp["payments"] == {"east": 0, "west": 0, "north": resp["total"]}
    pair = request({"seat_wind": "south", "discarder": "north"}, melds=WINDS3,
                   concealed="444z55m", win="5m")
    assert pair["liable"] is None


def test_fourth_wind_pung_claimed_then_self_drawn() -> None:
    four = [*WINDS3, {"kind": "pung", "tiles": "444z", "claimed_from": "east"}]
    resp = request({"seat_wind": "south", "self_drawn": True}, melds=four, concealed="55m",
                   win="5m")
    assert resp["liable"] == "east" and resp["payments"]["east"] == resp["total"]


def test_two_exposed_dragon_pungs_and_the_third_dragon_discarded() -> None:
    dragons = [{"kind": "pung", "tiles": "555z", "claimed_from": "west"},
               {"kind": "pung", "tiles": "666z", "claimed_from": "north"}]
    resp = request({"seat_wind": "south", "discarder": "east"}, melds=dragons,
                   concealed="777z123m55p", win="7z")
    assert resp["liable"] == "east"
    other = request({"seat_wind": "south", "discarder": "east"}, melds=dragons,
                    concealed="777z123m55p", win="5p")
    assert other["liable"] is None


def test_never_seen_tile_late_in_the_wall() -> None:
    late = {"seat_wind": "south", "discarder": "west", "winning_tile_unseen": True,
            "wall_tiles_left": 5}
    resp = request(late)
    assert resp["liable"] == "west" and resp["payments"] == {"east": 0, "west": 32, "north": 0}
    assert request({**late, "wall_tiles_left": 6})["liable"] is None
    assert request({**late, "winning_tile_unseen": False})["liable"] is None
    assert request(late, {"liability": False})["liable"] is None
