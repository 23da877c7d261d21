"""The interpretation rules of the issue (and the decisions documented in the preset notes)."""

from __future__ import annotations

from typing import Any

from scoring.score import score_request

CTX = {"seat_wind": "south", "round_wind": "east", "discarder": "north"}
DRAWN = {"seat_wind": "south", "round_wind": "east", "self_drawn": True}


def score(concealed: str, win: str | None = None, *, rules: str = "hk-a",
          melds: list[dict[str, Any]] | None = None, bonus: list[str] | None = None,
          ctx: dict[str, Any] | None = None, options: dict[str, Any] | None = None
          ) -> dict[str, Any]:
    request: dict[str, Any] = {
        "rules": rules, "context": ctx or CTX,
        "hand": {"concealed": concealed, "melds": melds or [], "bonus": bonus or [],
                 "winning_tile": win}}
    if options:
        request["options"] = options
    return score_request(request)


def ids(resp: dict[str, Any]) -> dict[str, int]:
    assert resp["valid"], resp.get("reason")
    return {p["id"]: p["fan"] for p in resp["patterns"]}


def test_big_three_dragons_replaces_the_dragon_pungs() -> None:
    got = ids(score("555z666z777z123m99p", "9p"))
    assert got == {"big_three_dragons": 5, "no_bonus": 1}


def test_small_three_dragons_replaces_the_dragon_pungs() -> None:
    got = ids(score("555z666z77z123m999p", "9p"))
    assert got == {"small_three_dragons": 4, "no_bonus": 1}


def test_big_four_winds_replaces_all_pungs_and_the_wind_pungs() -> None:
    # the pair of a suit makes it all pungs with one suit and honours too (adds)
    got = ids(score("111z222z333z444z55m", "5m"))
    assert got == {"big_four_winds": 5, "all_pungs_half_flush": 5, "pair_258": 1,
                   "no_bonus": 1}


def test_small_four_winds_replaces_the_wind_pungs() -> None:
    got = ids(score("111z222z333z44z123m", "3m"))
    assert got == {"small_four_winds": 5, "half_flush": 3, "no_bonus": 1}
    pungs = ids(score("111z222z333z44z555m", "5m"))
    assert pungs == {"small_four_winds": 5, "all_pungs_half_flush": 5, "no_bonus": 1}


def test_all_honours_replaces_all_pungs_and_adds_to_honour_pungs() -> None:
    got = ids(score("111z222z333z555z66z", "6z"))
    assert got == {"all_honours": 5, "dragon_pung": 1, "seat_wind_pung": 1,
                   "round_wind_pung": 1, "no_bonus": 1}


def test_all_pungs_and_one_suit_replace_both_parts() -> None:
    half = ids(score("111m444m777m222z55m", "5m"))
    assert "all_pungs" not in half and "half_flush" not in half
    assert half["all_pungs_half_flush"] == 5
    full = ids(score("111m444m777m999m55m", "5m"))
    assert "all_pungs" not in full and "full_flush" not in full
    assert full["all_pungs_full_flush"] == 5
    # hk-b has no combined pattern: the parts add up there
    assert ids(score("111m444m777m999m55m", "5m", rules="hk-b")) == {
        "all_pungs": 3, "full_flush": 6, "no_bonus": 1}


def test_one_suit_only_excludes_one_suit_with_honours() -> None:
    got = ids(score("123m456m789m111m55m", "5m"))
    assert "full_flush" in got and "half_flush" not in got


def test_concealed_self_drawn_replaces_self_drawn() -> None:
    got = ids(score("123m456m789p234s55p", "4s", ctx=DRAWN))
    assert got["concealed_self_drawn"] == 2 and "self_drawn" not in got


def test_patterns_that_do_not_contain_each_other_add_up() -> None:
    kong = [{"kind": "kong", "tiles": "9999p", "exposed": True}]
    got = ids(score("123m456m234s55p", "4s", melds=kong, ctx={**DRAWN, "kong_replacement": True}))
    assert got["self_drawn"] == 1 and got["kong_replacement"] == 1


def test_a_limit_pattern_makes_a_limit_hand_and_nothing_is_added() -> None:
    resp = score("19m19p19s1234567z1m", "1m", rules="hk-b", ctx=DRAWN)
    assert resp["limit"] is True
    assert [p["id"] for p in resp["patterns"]] == ["thirteen_orphans"]
    assert resp["fan"] == 10
    assert resp["payments"] == {"east": 128, "west": 128, "north": 128}


def test_ten_fan_or_more_pays_the_top_row() -> None:
    # seven pairs 4 + one suit only 5 + no flowers 1 = 10 in hk-a
    resp = score("11223344556677m", "7m")
    assert resp["fan"] == 10 and resp["limit"] is True
    assert resp["payments"] == {"east": 64, "west": 64, "north": 128}


def test_a_kong_counts_as_a_pung() -> None:
    kongs = [{"kind": "kong", "tiles": "5555z", "exposed": True},
             {"kind": "kong", "tiles": "back 6z 6z back", "exposed": False}]
    got = ids(score("777z22m999p", "9p", melds=kongs))
    assert got["big_three_dragons"] == 5 and got["all_pungs"] == 3


def test_a_concealed_kong_keeps_the_hand_concealed() -> None:
    kong = [{"kind": "kong", "tiles": "back 9p 9p back"}]
    got = ids(score("123m456m234s55p", "4s", melds=kong, ctx=DRAWN))
    assert got["concealed_self_drawn"] == 2


def test_nine_gates_replaces_one_suit_only() -> None:
    got = ids(score("11123456789995m", "5m"))
    assert got["nine_gates"] == 5 and "full_flush" not in got


def test_nine_gates_needs_a_concealed_hand() -> None:
    pung = [{"kind": "pung", "tiles": "111m", "exposed": True}]
    got = ids(score("23456789995m", "5m", melds=pung))
    assert "nine_gates" not in got and got["full_flush"] == 5


def test_heavenly_hand_replaces_self_drawn_and_concealed_self_drawn() -> None:
    got = ids(score("123m456m789p234s55p", "4s",
                    ctx={"seat_wind": "east", "self_drawn": True, "heavenly": True}))
    assert got["heavenly"] == 5
    assert "self_drawn" not in got and "concealed_self_drawn" not in got


def test_seven_pairs_needs_seven_different_pairs() -> None:
    resp = score("1111m3344p5566s77z", "7z")
    assert resp["valid"] is False


def test_flower_win_scores_only_its_pattern() -> None:
    resp = score("123m456m789p234s5p", None, ctx=DRAWN,
                 bonus=["1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"])
    assert ids(resp) == {"eight_bonus": 5}
    assert resp["self_drawn"] is True
    assert resp["payments"] == {"east": 32, "west": 32, "north": 32}


def test_eight_bonus_tiles_with_a_complete_hand_takes_the_better_reading() -> None:
    resp = score("11223344556677m", "7m", ctx=DRAWN,
                 bonus=["1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"])
    # seven pairs 4 + one suit 5 + concealed self-drawn 2 + own flower 1 + own season 1
    # + four flower-season pairs 4 = 17 beats the flower win's 5
    assert resp["form"] == "seven_pairs" and resp["limit"] is True


def test_hkos_minimum_three_fan_without_bonus_tiles() -> None:
    # all chows 1 + concealed hand 1 = 2 counted fan (+ own flower/no flowers not counted)
    short = score("123m456m789p234s55p", "4s", rules="hkos", bonus=["2f"])
    assert short["valid"] is False and "at least 3" in short["reason"]
    ok = score("123m456m789p234s55p", "4s", rules="hkos", ctx=DRAWN, bonus=["2f"])
    assert ids(ok) == {"all_chows": 1, "concealed_hand": 1, "self_drawn": 1, "own_flower": 1}
    assert ok["payments"] == {"east": 32, "west": 32, "north": 32}  # half-spicy 4 fan = 16


def test_hkos_limit_hands() -> None:
    hands = {
        "all_terminals": score("111m999m111p999s11s", "1s", rules="hkos"),
        "four_kongs": score("55z", "5z", rules="hkos", melds=[
            {"kind": "kong", "tiles": t} for t in ("1111m", "2222p", "3333s", "4444m")]),
        "four_concealed_pungs": score("111m222p333s444m55z", "5z", rules="hkos"),
        "earthly": score("123m456m789p234s55p", "4s", rules="hkos",
                         ctx={"seat_wind": "south", "discarder": "east", "earthly": True}),
        "big_four_winds": score("111z222z333z444z55m", "5m", rules="hkos"),
        "nine_gates": score("11123456789995m", "5m", rules="hkos"),
        "thirteen_orphans": score("19m19p19s1234567z1m", "1m", rules="hkos"),
        "heavenly": score("123m456m789p234s55p", "4s", rules="hkos",
                          ctx={"seat_wind": "east", "self_drawn": True, "heavenly": True}),
    }
    for pid, resp in hands.items():
        assert resp["limit"] is True, (pid, resp)
        assert pid in ids(resp)
        assert resp["fan"] == 13


def test_hkos_four_concealed_pungs_on_a_discard_needs_the_pair() -> None:
    resp = score("111m222p333s444m55z", "4m", rules="hkos")
    got = ids(resp)
    assert "four_concealed_pungs" not in got and got["all_pungs"] == 3


def test_hkos_values() -> None:
    assert ids(score("123m456m789m111m55m", "5m", rules="hkos"))["full_flush"] == 7
    exposed = [{"kind": "pung", "tiles": "111z", "claimed_from": "west"}]
    assert ids(score("222z333z555z66z", "6z", rules="hkos", melds=exposed))["all_honours"] == 10
    assert ids(score("555z666z777z123m99m", "9m", rules="hkos"))["big_three_dragons"] == 8
    assert ids(score("555z666z77z123m999m", "9m", rules="hkos"))["small_three_dragons"] == 5
    assert ids(score("111z222z333z44z555m", "5m", rules="hkos"))["small_four_winds"] == 10


def test_fan_override_changes_one_value() -> None:
    resp = score("111z222z333z44z555m", "5m", rules="hkos",
                  options={"fan.small_four_winds": 6})
    assert ids(resp)["small_four_winds"] == 6
    dropped = score("123m456m789p234s55p", "4s", options={"fan.pair_258": 0})
    assert "pair_258" not in ids(dropped)
    limit = score("123m456m789p234s55p", "4s", options={"fan.all_chows": "limit"})
    assert limit["limit"] is True


def test_no_flower_win_where_the_list_has_none() -> None:
    eight = ["1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"]
    resp = score("123m456m789p234s5p", None, rules="hk-b", ctx=DRAWN, bonus=eight)
    assert resp["valid"] is False and resp["waits"] == ["5p"]
    assert ids(score("123m456m789p234s5p", None, rules="hkos", ctx=DRAWN,
                     bonus=eight)) == {"eight_bonus": 8}
    seven = score("123m456m789p234s5p", "4g", rules="hkos", bonus=eight[:7])
    assert seven["valid"] is False
