"""Doubles ("raddoppi"): fundamental ones for every player, closing ones for the winner only."""

from __future__ import annotations

import pytest
from test_italian_support import chow, kong, lines, pung, score

# A plain winning hand for South in the East round: four chows and a simple pair.
PLAIN = "123m456m789p234s55p"


def test_plain_hand_has_only_the_concealed_double() -> None:
    r = score(PLAIN, win="4s")
    assert lines(r) == {"concealed": 1}
    assert r["doubles"] == 1


@pytest.mark.parametrize(("dragons", "expected"), [("555z", 1), ("666z", 1), ("777z", 1)])
def test_each_dragon_pung_doubles(dragons: str, expected: int) -> None:
    r = score("123m456m789p55p", melds=[pung(dragons)], win="6m")
    assert lines(r)["dragon_pung"] == expected


def test_two_dragon_pungs_double_twice_and_a_kong_counts_as_a_pung() -> None:
    r = score("123m456m55p", melds=[pung("555z"), kong("6666z")], win="6m")
    assert lines(r)["dragon_pung"] == 2


def test_own_wind_pung() -> None:
    r = score("123m456m789p55p", melds=[pung("222z")], win="6m", seat="south")
    assert lines(r) == {"seat_wind_pung": 1}


def test_round_wind_pung() -> None:
    r = score("123m456m789p55p", melds=[pung("333z")], win="6m", seat="south",
              round_wind="west")
    assert lines(r) == {"round_wind_pung": 1}


def test_a_wind_that_is_both_doubles_twice() -> None:
    r = score("123m456m789p55p", melds=[pung("111z")], win="6m", seat="east",
              round_wind="east", discarder="south")
    assert lines(r) == {"seat_wind_pung": 1, "round_wind_pung": 1}


def test_other_wind_pung_gives_no_double() -> None:
    r = score("123m456m789p55p", melds=[pung("444z")], win="6m", seat="south")
    assert lines(r) == {}


@pytest.mark.parametrize(
    ("seat", "bonus", "expected"),
    [
        ("east", ["1f"], {"own_flower": 1}),
        ("south", ["2g"], {"own_season": 1}),
        ("west", ["3f", "3g"], {"own_flower": 1, "own_season": 1}),
        ("north", ["4f", "2g"], {"own_flower": 1}),
        ("south", ["1f", "3g"], {}),
    ],
)
def test_own_flower_and_own_season(seat: str, bonus: list[str], expected: dict[str, int]) -> None:
    discarder = "south" if seat != "south" else "west"
    r = score(PLAIN, win="4s", bonus=bonus, seat=seat, discarder=discarder)
    got = {k: v for k, v in lines(r).items() if k != "concealed"}
    assert got == expected


def test_all_four_flowers_and_all_four_seasons() -> None:
    r = score(PLAIN, win="4s", bonus=["1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"])
    got = lines(r)
    assert got["all_flowers"] == 1
    assert got["all_seasons"] == 1
    assert got["own_flower"] == 1 and got["own_season"] == 1
    three = score(PLAIN, win="4s", bonus=["1f", "2f", "3f"])
    assert "all_flowers" not in lines(three)


def test_small_three_dragons_adds_one_on_top_of_the_dragon_pungs() -> None:
    r = score("123m456m77z", melds=[pung("555z"), pung("666z")], win="6m")
    got = lines(r)
    assert got["dragon_pung"] == 2
    assert got["small_three_dragons"] == 1
    assert "big_three_dragons" not in got


def test_big_three_dragons_adds_two_on_top_of_the_dragon_pungs() -> None:
    # Three dragon pungs are also the special "dragons' gathering" (2000): the engine
    # keeps whichever pays more; here the normal reading (exposed pungs) is worth less.
    r = score("123m55p", melds=[pung("555z"), pung("666z"), pung("777z")], win="3m",
              options={"special_hands.dragons_gathering": 0})
    got = lines(r)
    assert got["dragon_pung"] == 3
    assert got["big_three_dragons"] == 2
    assert "small_three_dragons" not in got


def test_three_concealed_pungs() -> None:
    r = score("222m444p666s789s55p", win="7s")
    assert lines(r)["three_concealed_pungs"] == 1
    two = score("222m444p678s789s55p", win="7s")
    assert "three_concealed_pungs" not in lines(two)


def test_three_concealed_pungs_lost_when_the_discard_completes_one() -> None:
    # The winning 6s on a discard makes 666s exposed: only two concealed pungs remain.
    r = score("222m444p666s789s55p", win="6s")
    assert "three_concealed_pungs" not in lines(r)


def test_no_chows() -> None:
    r = score("55p", melds=[pung("222m"), pung("444p"), pung("666s"), pung("888m")], win="5p")
    assert lines(r) == {"no_chows": 1}


def test_concealed_hand_allows_a_claimed_winning_tile_only() -> None:
    assert lines(score(PLAIN, win="4s"))["concealed"] == 1
    claimed = score("456m789p234s55p", melds=[chow("123m")], win="4s")
    assert "concealed" not in lines(claimed)


def test_one_suit_with_honours_mano_pura() -> None:
    r = score("123m456m789m11z", melds=[pung("555z")], win="9m")
    got = lines(r)
    assert got["one_suit_with_honours"] == 1
    assert "one_suit" not in got


def test_one_suit_only_mano_purissima_replaces_mano_pura() -> None:
    r = score("123m456m789m234m55m", win="4m")
    got = lines(r)
    assert got["one_suit"] == 3
    assert "one_suit_with_honours" not in got


def test_two_suits_are_neither() -> None:
    got = lines(score("123m456m789m234m55p", win="4m"))
    assert "one_suit" not in got and "one_suit_with_honours" not in got


def test_all_terminals_and_honours() -> None:
    r = score("111m999p11z", melds=[pung("999s"), pung("444z")], win="1z")
    assert lines(r)["terminals_and_honours"] == 1
    near = score("111m999p11z", melds=[pung("888s"), pung("444z")], win="1z")
    assert "terminals_and_honours" not in lines(near)


@pytest.mark.parametrize("flag", ["last_tile", "robbing_kong"])
def test_winning_flags_on_a_discard(flag: str) -> None:
    r = score(PLAIN, win="4s", **{flag: True})
    assert lines(r)[flag] == 1
    assert flag not in lines(score(PLAIN, win="4s"))


def test_win_on_a_replacement_tile() -> None:
    r = score("123m456m789p55p", melds=[kong("2222s")], win="5p", self_drawn=True,
              kong_replacement=True)
    assert lines(r)["kong_replacement"] == 1


def test_all_drawn_needs_nothing_claimed_and_a_self_drawn_tile() -> None:
    got = lines(score(PLAIN, win="4s", self_drawn=True))
    assert got["all_drawn"] == 1 and got["concealed"] == 1
    assert "all_drawn" not in lines(score(PLAIN, win="4s"))
    claimed = score("456m789p234s55p", melds=[chow("123m")], win="4s", self_drawn=True)
    assert "all_drawn" not in lines(claimed)


def test_closing_doubles_are_for_the_winner_only() -> None:
    # East, a loser, holds four pungs of one suit concealed: no "no chows", no "one suit",
    # no "concealed hand" for him; his three concealed pungs do count (fundamental).
    r = score(PLAIN, win="4s", players={
        "east": {"concealed": "222s444s666s888s5s"}, "west": 0, "north": 0})
    east = lines(r, "east")
    assert east == {"three_concealed_pungs": 1}


def test_loser_fundamental_doubles_count() -> None:
    r = score(PLAIN, win="4s", players={
        "east": {"concealed": "1234m", "melds": [pung("777z"), pung("111z"), pung("666z")],
                 "bonus": ["1f", "1g"]},
        "west": 0, "north": 0})
    # East in the East round: 111z is own and round wind; two dragon pungs; own flower/season.
    assert lines(r, "east") == {"dragon_pung": 2, "seat_wind_pung": 1, "round_wind_pung": 1,
                                "own_flower": 1, "own_season": 1}


def test_twelve_doubles_at_most() -> None:
    # East, East round, self-drawn: honour pungs and all eight bonus tiles go past 12.
    r = score("11z", melds=[kong("5555z", exposed=False), pung("666z", exposed=False),
                            pung("777z", exposed=False), pung("222z", exposed=False)],
              bonus=["1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"], win="1z",
              seat="east", self_drawn=True, options={"special_hands.dragons_gathering": 0})
    winner = r["players"]["east"]
    assert winner["doubles_uncapped"] > 12
    assert winner["doubles"] == 12
    assert r["doubles"] == 12
    assert winner["raw"] == winner["points"] * 2**12


def test_fundamental_doubles_all_need_a_pung_or_a_bonus_tile() -> None:
    # The scorer skips them for hands of chows and pairs only; this keeps that shortcut sound.
    from scoring.italian.doubles import FUNDAMENTAL
    from scoring.italian.view import Group, HandView
    from scoring.tiles import tile, wind_tile

    for seat in ("east", "south"):
        groups = (Group("chow", tile("1m"), True), Group("chow", tile("7p"), False),
                  Group("pair", tile("5z"), True))
        view = HandView(groups, (), wind_tile(seat), wind_tile("east"), winner=True)
        assert all(function(view) == 0 for function in FUNDAMENTAL.values())
