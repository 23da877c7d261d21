"""Every row of the seed's two fan lists: a hand that has the pattern and a near miss without it.

The expected values are the seed document's (``000_8ce47da88f669eea.txt``),
typed in here independently of the preset files, so a wrong number in a data
file fails here.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.presets import load_preset
from scoring.score import score_request

LIMIT = "limit"

# pattern id: (hk-a, hk-b); None = a dash in the seed (the list has no such pattern)
SEED: dict[str, tuple[int | str | None, int | str | None]] = {
    "dragon_pung": (1, 1),
    "seat_wind_pung": (1, 1),
    "round_wind_pung": (1, 1),
    "all_chows": (1, 1),
    "all_pungs": (3, 3),
    "seven_pairs": (4, 4),
    "half_flush": (3, 3),
    "full_flush": (5, 6),
    "all_honours": (5, 7),
    "all_simples": (1, None),
    "thirteen_orphans": (5, LIMIT),
    "nine_gates": (5, LIMIT),
    "ruby_dragon": (None, LIMIT),
    "jade_dragon": (None, LIMIT),
    "pearl_dragon": (None, LIMIT),
    "all_pungs_half_flush": (5, None),
    "all_pungs_full_flush": (5, None),
    "big_three_dragons": (5, 6),
    "small_three_dragons": (4, 4),
    "big_four_winds": (5, None),
    "small_four_winds": (5, None),
    "pair_258": (1, None),
    "concealed_self_drawn": (2, None),
    "self_drawn": (1, 1),
    "kong_replacement": (1, 1),
    "robbing_kong": (1, None),
    "last_tile": (1, None),
    "heavenly": (5, None),
    "no_bonus": (1, 1),
    "own_flower": (1, 1),
    "own_season": (1, 1),
    "bouquet": (None, 1),
    "flower_season_pair": (1, None),
    "seven_bonus": (5, None),
    "eight_bonus": (5, None),
}

DISCARD = {"seat_wind": "south", "round_wind": "east", "discarder": "north"}
DRAWN = {"seat_wind": "south", "round_wind": "east", "self_drawn": True}
KONG = [{"kind": "kong", "tiles": "9999p", "exposed": True, "claimed_from": "west"}]
PUNG = [{"kind": "pung", "tiles": "999p", "exposed": True, "claimed_from": "west"}]
SEVEN = ["1f", "2f", "3f", "4f", "1g", "2g", "3g"]


def req(concealed: str, win: str | None = None, *, melds: list[dict[str, Any]] | None = None,
        bonus: list[str] | None = None, ctx: dict[str, Any] | None = None,
        rules: str = "hk-a") -> dict[str, Any]:
    return {"rules": rules,
            "hand": {"concealed": concealed, "melds": melds or [], "bonus": bonus or [],
                     "winning_tile": win},
            "context": dict(DISCARD if ctx is None else ctx)}


# pattern id: (hand with it, near miss without it)
CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "dragon_pung": (req("555z123m456p789s11s", "4p"), req("55z123m456p789s111s", "4p")),
    "seat_wind_pung": (req("222z123m456p789s11s", "4p"), req("333z123m456p789s11s", "4p")),
    "round_wind_pung": (req("111z123m456p789s11s", "4p"), req("333z123m456p789s11s", "4p")),
    "all_chows": (req("123m456m789p234s55p", "4s"), req("123m456m789p222s55p", "2s")),
    "all_pungs": (req("111m222p333s444m55z", "4m"), req("111m222p333s345m55z", "4m")),
    "seven_pairs": (req("1122m3344p5566s77z", "7z"), req("123m456m789p234s55p", "4s")),
    "half_flush": (req("123m456m789m111z55m", "5m"), req("123m456m789m111z55p", "5p")),
    "full_flush": (req("123m456m789m111m55m", "5m"), req("123m456m789m111m55z", "5z")),
    "all_honours": (req("111z222z333z555z66z", "6z"), req("111z222z333z555z11m", "1m")),
    "all_simples": (req("234m456m678p234s55p", "4s"), req("123m456m678p234s55p", "4s")),
    "thirteen_orphans": (req("19m19p19s1234567z1m", "7z"), req("123m456m789p234s55p", "4s")),
    "nine_gates": (req("11123456789995m", "5m"), req("111234567888m99m", "9m")),
    "ruby_dragon": (req("111m444m777m777z55m", "5m"), req("111m444m777m777z55p", "5p")),
    "jade_dragon": (req("222s444s888s666z55s", "5s"), req("222s444s888s555z55s", "5s")),
    "pearl_dragon": (req("111p444p777p555z99p", "9p"), req("111p444p777p666z99p", "9p")),
    "all_pungs_half_flush": (req("111m444m777m222z55m", "5m"), req("111m444m789m222z55m", "5m")),
    "all_pungs_full_flush": (req("111m444m777m999m55m", "5m"), req("111m444m777m789m55m", "5m")),
    "big_three_dragons": (req("555z666z777z123m99m", "9m"), req("555z666z77z123m999m", "9m")),
    "small_three_dragons": (req("555z666z77z123m999m", "9m"), req("555z666z123m999m11z", "1z")),
    "big_four_winds": (req("111z222z333z444z55m", "5m"), req("111z222z333z44z555m", "5m")),
    "small_four_winds": (req("111z222z333z44z555m", "5m"), req("111z222z333z555z44m", "4m")),
    "pair_258": (req("123m456m789p234s55p", "4s"), req("123m456m789p234s66p", "4s")),
    "concealed_self_drawn": (req("123m456m789p234s55p", "4s", ctx=DRAWN),
                             req("123m456m234s55p", "4s", melds=PUNG, ctx=DRAWN)),
    "self_drawn": (req("123m456m234s55p", "4s", melds=PUNG, ctx=DRAWN),
                   req("123m456m234s55p", "4s", melds=PUNG)),
    "kong_replacement": (req("123m456m234s55p", "4s", melds=KONG,
                             ctx={**DRAWN, "kong_replacement": True}),
                         req("123m456m234s55p", "4s", melds=KONG, ctx=DRAWN)),
    "robbing_kong": (req("123m456m789p234s55p", "4s", ctx={**DISCARD, "robbing_kong": True}),
                     req("123m456m789p234s55p", "4s")),
    "last_tile": (req("123m456m789p234s55p", "4s", ctx={**DISCARD, "last_tile": True}),
                  req("123m456m789p234s55p", "4s")),
    "heavenly": (req("123m456m789p234s55p", "4s",
                     ctx={"seat_wind": "east", "self_drawn": True, "heavenly": True}),
                 req("123m456m789p234s55p", "4s", ctx={"seat_wind": "east", "self_drawn": True})),
    "no_bonus": (req("123m456m789p234s55p", "4s"), req("123m456m789p234s55p", "4s", bonus=["1f"])),
    "own_flower": (req("123m456m789p234s55p", "4s", bonus=["2f"]),
                   req("123m456m789p234s55p", "4s", bonus=["3f"])),
    "own_season": (req("123m456m789p234s55p", "4s", bonus=["2g"]),
                   req("123m456m789p234s55p", "4s", bonus=["3g"])),
    "bouquet": (req("123m456m789p234s55p", "4s", bonus=["1f", "2f", "3f", "4f"]),
                req("123m456m789p234s55p", "4s", bonus=["1f", "2f", "3f", "1g"])),
    "flower_season_pair": (req("123m456m789p234s55p", "4s", bonus=["3f", "3g"]),
                           req("123m456m789p234s55p", "4s", bonus=["3f", "4g"])),
    # Seven bonus tiles: another player (the "discarder") draws the eighth, which wins.
    "seven_bonus": (req("123m456m789p234s5p", "4g", bonus=SEVEN),
                    req("123m456m789p234s55p", "4s", bonus=SEVEN)),
    "eight_bonus": (req("123m456m789p234s5p", None, bonus=[*SEVEN, "4g"], ctx=DRAWN),
                    req("123m456m789p234s55p", "4s", bonus=SEVEN, ctx=DRAWN)),
}


def found(response: dict[str, Any]) -> dict[str, dict[str, Any]]:
    assert response["valid"], response.get("reason")
    return {p["id"]: p for p in response["patterns"]}


def test_every_row_of_the_seed_has_cases() -> None:
    assert set(CASES) == set(SEED)


@pytest.mark.parametrize("rules,column", [("hk-a", 0), ("hk-b", 1)])
def test_preset_files_match_the_seed(rules: str, column: int) -> None:
    preset = load_preset(rules)
    in_file = {p.id: (LIMIT if p.limit else p.fan) for p in preset.patterns}
    expected = {pid: values[column] for pid, values in SEED.items()
                if values[column] is not None}
    assert in_file == expected


@pytest.mark.parametrize("pattern", sorted(SEED))
@pytest.mark.parametrize("rules,column", [("hk-a", 0), ("hk-b", 1)])
def test_hand_with_the_pattern(pattern: str, rules: str, column: int) -> None:
    hit = score_request({**CASES[pattern][0], "rules": rules})
    value = SEED[pattern][column]
    if value is None:
        # a dash: the list has no such pattern (and a flower win is then no win at all)
        assert not hit["valid"] or pattern not in found(hit)
        return
    patterns = found(hit)
    assert pattern in patterns, patterns
    if value == LIMIT:
        assert hit["limit"] is True
        assert patterns[pattern]["limit"] is True
        assert hit["fan"] == load_preset(rules).options["limit_fan"]
    else:
        assert patterns[pattern]["fan"] == value * patterns[pattern]["count"]


@pytest.mark.parametrize("pattern", sorted(SEED))
@pytest.mark.parametrize("rules", ["hk-a", "hk-b"])
def test_near_miss_lacks_the_pattern(pattern: str, rules: str) -> None:
    miss = score_request({**CASES[pattern][1], "rules": rules})
    assert pattern not in found(miss)


def test_counted_patterns_count_each_occurrence() -> None:
    two_dragons = score_request(req("555z666z123m456p11s", "4p"))
    assert found(two_dragons)["dragon_pung"] == {
        "id": "dragon_pung", "name": "Dragon pung or kong (each)", "name_it": "Tris di draghi",
        "fan": 2, "count": 2}
    pairs = score_request(req("123m456m789p234s55p", "4s", bonus=["1f", "1g", "2f", "2g"]))
    assert found(pairs)["flower_season_pair"]["fan"] == 2
    all_eight = ["1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"]
    both = score_request(req("123m456m789p234s55p", "4s", bonus=all_eight, rules="hk-b"))
    assert found(both)["bouquet"]["fan"] == 2


def test_wind_that_is_seat_and_round_counts_twice() -> None:
    resp = score_request(req("111z123m456p789s11s", "4p", ctx={"seat_wind": "east",
                                                                "round_wind": "east",
                                                                "discarder": "north"}))
    patterns = found(resp)
    assert patterns["seat_wind_pung"]["fan"] == 1
    assert patterns["round_wind_pung"]["fan"] == 1


def test_own_flower_numbers_follow_the_seats() -> None:
    for seat, number in (("east", 1), ("south", 2), ("west", 3), ("north", 4)):
        ctx = {"seat_wind": seat, "self_drawn": True}
        resp = score_request(req("123m456m789p234s55p", "4s",
                                 bonus=[f"{number}f", f"{number}g"], ctx=ctx))
        patterns = found(resp)
        assert patterns["own_flower"]["fan"] == 1
        assert patterns["own_season"]["fan"] == 1
