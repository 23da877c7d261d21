"""Special hands ("grandi giochi"): fixed values paid as a limit, East's figure doubled."""

from __future__ import annotations

from typing import Any

import pytest
from test_italian_support import kong, pung, score

# name -> (concealed, melds, winning tile, value)
SPECIAL: dict[str, tuple[str, list[dict[str, Any]], str, int]] = {
    "seven_pairs_terminals_honours": ("11m99m11p99p11z22z55z", [], "5z", 2000),
    "seven_pairs_one_suit": ("11223355778899m", [], "9m", 2000),
    "little_snake": ("123456789m12345z", [], "5z", 1000),
    "dragons_gathering": ("123m55p", [pung("555z"), pung("666z"), pung("777z")], "3m", 2000),
    "four_blessings": ("55p", [pung("111z"), pung("222z"), pung("333z"), pung("444z")],
                       "5p", 2000),
    "thirteen_orphans": ("119m19p19s1234567z", [], "1m", 2000),
    "all_kongs": ("99p", [kong("2222m"), kong("3333p"), kong("4444s"), kong("5555m")],
                  "9p", 3000),
    "nine_gates": ("11123455678999m", [], "5m", 2000),
}


@pytest.mark.parametrize("name", sorted(SPECIAL))
def test_special_hand_pays_its_value_as_a_limit(name: str) -> None:
    concealed, melds, win, value = SPECIAL[name]
    r = score(concealed, melds=melds, win=win)
    assert r["valid"], r
    assert r["special_hand"] == name
    assert r["score"] == value
    assert r["limit"] is True
    assert r["doubles"] == 0
    winner = r["players"][r["winner"]]
    assert winner["special_hand"]["key"] == name and winner["point_lines"] == []
    # A non-East winner: East pays double, the others the value.
    assert r["payments"] == {"east": 2 * value, "west": value, "north": value}


@pytest.mark.parametrize("name", sorted(SPECIAL))
def test_east_collects_the_bracketed_figure(name: str) -> None:
    concealed, melds, win, value = SPECIAL[name]
    r = score(concealed, melds=melds, win=win, seat="east", discarder="south")
    assert r["special_hand"] == name
    assert r["payments"] == {"south": 2 * value, "west": 2 * value, "north": 2 * value}


def test_a_limit_takes_no_further_doubles() -> None:
    # Own flower and own season would double a normal hand; the special value stays.
    concealed, melds, win, value = SPECIAL["thirteen_orphans"]
    r = score(concealed, melds=melds, win=win, bonus=["2f", "2g"])
    assert r["special_hand"] == "thirteen_orphans"
    assert r["score"] == value


def test_little_snake_with_one_tile_doubled() -> None:
    r = score("123456789m12344z", win="4z")
    assert r["special_hand"] == "little_snake"


@pytest.mark.parametrize(
    ("concealed", "melds", "win"),
    [
        ("11m99m11p99p11z22z56z", [], "6z"),  # not seven pairs
        ("123456789m12356z", [], "6z"),  # snake without North
        ("123m55p", [pung("555z"), pung("666z"), pung("222m")], "3m"),  # two dragon pungs
        ("55p", [pung("111z"), pung("222z"), pung("333z"), pung("888m")], "5p"),  # 3 winds
        ("99p", [kong("2222m"), kong("3333p"), kong("4444s"), pung("555m")], "9p"),  # 3 kongs
        ("11123456889999m", [], "5m"),  # no 7: not nine gates
    ],
)
def test_near_misses_are_not_special(
    concealed: str, melds: list[dict[str, Any]], win: str
) -> None:
    r = score(concealed, melds=melds, win=win)
    assert not r["valid"] or r["special_hand"] is None


def test_seven_pairs_of_mixed_suits_is_no_win() -> None:
    r = score("11m22m33p55p77s88s99s", win="9s")
    assert r["valid"] is False
    assert "seven pairs" in r["reason"]


def test_seven_pairs_one_suit_needs_seven_different_pairs() -> None:
    # 1111 22 33 55 77 88 m: four of a kind is not two pairs.
    r = score("11112233557788m", win="8m")
    assert not r["valid"] or r["special_hand"] != "seven_pairs_one_suit"


def test_a_better_normal_reading_beats_the_special_value() -> None:
    # Concealed dragons' gathering, self-drawn, all terminals and honours: its
    # ordinary count (54 points, 10 doubles) is far above the 2000 of the special hand.
    r = score("555z666z777z111m99p", win="9p", seat="east", self_drawn=True)
    assert r["special_hand"] is None
    assert r["score"] > 2000


def test_special_value_is_a_setting() -> None:
    concealed, melds, win, _ = SPECIAL["all_kongs"]
    r = score(concealed, melds=melds, win=win, options={"special_hands.all_kongs": 5000})
    assert r["score"] == 5000


def test_all_drawn_but_last_is_required_when_the_sheet_says_so() -> None:
    # Seven pairs and thirteen orphans cannot hold a claimed set, so the only way to break
    # the rule is a sheet that lets an all-drawn-only hand carry melds: the four blessings,
    # switched to "all drawn but the last" by a club, no longer count with exposed pungs.
    from test_italian_support import PRESET

    from scoring.italian import score_italian

    data = {**PRESET, "special_hands": {
        **PRESET["special_hands"],
        "four_blessings": {**PRESET["special_hands"]["four_blessings"],
                           "all_drawn_but_last": True}}}
    concealed, melds, win, _ = SPECIAL["four_blessings"]
    request = {"hand": {"concealed": concealed, "melds": melds, "winning_tile": win},
               "context": {"seat_wind": "south", "discarder": "west"}}
    assert score_italian(request, data)["special_hand"] is None
