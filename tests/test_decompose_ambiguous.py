"""Hands that read several ways: the engine must score every reading and keep the best.

The known weakness of existing scorers is scoring only the first reading found
(``111222333s 789m 55p`` must be three chows + a chow, 1 fan for all chows,
not three pungs with 0). Each case states the hand, the winning tile, the
expected total fan and the groups the best reading must contain; fan values
were worked out by hand from the seed's lists.
"""

from __future__ import annotations

from typing import Any

import pytest

from scoring.decompose import decompose
from scoring.hand import hand_from_json
from scoring.score import score_request

CTX = {"seat_wind": "south", "round_wind": "east", "discarder": "north"}
DRAWN = {"seat_wind": "south", "round_wind": "east", "self_drawn": True}
RED_PUNG = [{"kind": "pung", "tiles": "777z", "exposed": True, "claimed_from": "west"}]


def case(rules: str, concealed: str, win: str, fan: int, groups: tuple[str, ...],
         melds: list[dict[str, Any]] | None = None, ctx: dict[str, Any] | None = None,
         form: str = "standard", limit: bool = False) -> Any:
    return pytest.param(rules, concealed, win, fan, groups, melds or [], ctx or CTX, form, limit,
                        id=f"{rules}-{concealed}-{win}")


# fan includes "no flowers or seasons" (1) where the list has it
CASES = [
    # three identical chows or three pungs
    case("hk-a", "111222333s789m55p", "5p", 3, ("chow 123s", "chow 789m", "pair 55p")),
    case("hk-b", "111222333s789m55p", "5p", 2, ("chow 123s",)),
    case("hk-a", "111222333s789m66p", "6p", 2, ("chow 123s",)),
    case("hk-a", "123123123m789p55s", "5s", 3, ("chow 123m",)),
    case("hk-a", "777888999p123s55z", "5z", 2, ("chow 789p",)),
    case("hk-a", "222333444p678s55m", "5m", 4, ("chow 234p", "chow 678s")),
    case("hk-a", "222333444p666s55m", "5m", 6, ("pung 222p", "pung 666s")),
    case("hk-a", "333444555s234m77z", "7z", 2, ("chow 345s",)),
    case("hk-a", "333444555s222m77z", "7z", 4, ("pung 333s", "pung 222m")),
    case("hk-a", "111222333s55p", "5p", 6, ("pung 111s", "pung 777z"), melds=RED_PUNG),
    case("hk-b", "111222333s55p", "5p", 5, ("pung 111s", "pung 777z"), melds=RED_PUNG),
    # one suit: chows give all chows, pungs give all pungs (+ one suit)
    case("hk-a", "111222333m789m55m", "5m", 8, ("chow 123m", "chow 789m")),
    case("hk-a", "111222333p789p55p", "9p", 8, ("chow 123p",)),
    case("hk-a", "111222333m444m55m", "5m", 7, ("pair 55m",)),
    case("hk-b", "111222333m444m55m", "5m", 10, ("pung 111m", "pung 444m"), limit=True),
    case("hk-a", "111222333p111z55z", "5z", 7, ("pung 111p", "pung 111z")),
    case("hk-b", "111222333p111z55z", "5z", 8, ("pung 111p", "pung 111z")),
    case("hk-a", "777888999s555z11z", "1z", 7, ("pung 777s", "pung 555z")),
    # two identical chows or pairs: seven pairs against all chows
    case("hk-a", "112233m445566p77s", "7s", 5, ("pair 11m", "pair 77s"), form="seven_pairs"),
    case("hk-b", "112233m445566p77s", "7s", 5, ("pair 22m",), form="seven_pairs"),
    case("hk-a", "11122233344m567p", "7p", 2, ("chow 567p",)),
    case("hk-a", "11223344556677m", "7m", 10, ("pair 44m",), form="seven_pairs", limit=True),
    case("hk-b", "11223344556677m", "7m", 10, ("pair 11m",), form="seven_pairs", limit=True),
    case("hk-a", "223344m556677p11z", "1z", 5, ("pair 11z",), form="seven_pairs"),
    case("hk-a", "223344m556677p88s", "8s", 6, ("pair 88s",), form="seven_pairs"),
    # three readings: pungs, three equal chows, or a pair in front of two chows
    case("hk-a", "22233344455m567s", "7s", 4, ("chow 234m", "chow 567s")),
    case("hk-b", "22233344455m567s", "7s", 2, ("chow 567s",)),
    case("hk-b", "11122233344p567s", "7s", 2, ("chow 567s",)),
    case("hk-a", "11122233344m567p", "7p", 4, ("chow 567p",), ctx=DRAWN),
    case("hk-b", "111222333m789m55m", "5m", 8, ("chow 123m", "chow 789m")),
    # self-drawn pungs and where the winning tile sits (hkos: four concealed pungs)
    case("hkos", "111222333s444m55p", "5p", 13, ("pung 111s", "pung 444m"), limit=True),
    case("hkos", "111222333s444m55p", "4m", 5, ("pung 111s", "pung 444m")),
    case("hkos", "111222333s444m55p", "2s", 5, ("pung 222s",)),
    case("hkos", "111222333s444m55p", "4m", 13, ("pung 444m",), ctx=DRAWN, limit=True),
    case("hkos", "111222333s789m55z", "5z", 4, ("chow 123s", "pair 55z"), ctx=DRAWN),
    case("hkos", "111222333s789m55p", "5p", 4, ("chow 123s",), ctx=DRAWN),
]


def _describe(group: dict[str, Any]) -> str:
    return f"{group['kind']} {group['tiles']}"


@pytest.mark.parametrize("rules,concealed,win,fan,groups,melds,ctx,form,limit", CASES)
def test_best_reading_is_scored(rules: str, concealed: str, win: str, fan: int,
                                groups: tuple[str, ...], melds: list[dict[str, Any]],
                                ctx: dict[str, Any], form: str, limit: bool) -> None:
    hand = {"concealed": concealed, "melds": melds, "winning_tile": win}
    assert len(decompose(hand_from_json(hand))) > 1, "not an ambiguous hand"
    resp = score_request({"rules": rules, "hand": hand, "context": ctx})
    assert resp["valid"], resp.get("reason")
    assert resp["form"] == form
    assert resp["readings"] > 1
    assert resp["fan"] == fan, resp["patterns"]
    assert resp["limit"] is limit
    shown = [_describe(g) for g in resp["decomposition"]]
    for g in groups:
        assert g in shown, shown


def test_there_are_at_least_thirty_ambiguous_cases() -> None:
    assert len(CASES) >= 30


def test_every_reading_of_the_issue_example() -> None:
    hand = hand_from_json({"concealed": "111222333s789m55p"})
    readings = {tuple(sorted(f"{g.kind} {g.tile}" for g in r.groups)) for r in decompose(hand)}
    assert readings == {
        tuple(sorted(["pung 18", "pung 19", "pung 20", "chow 6", "pair 13"])),
        tuple(sorted(["chow 18", "chow 18", "chow 18", "chow 6", "pair 13"])),
    }
