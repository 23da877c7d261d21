"""Wait analysis: which tiles complete a hand one tile short."""

from __future__ import annotations

import pytest

from scoring.hand import Hand, meld
from scoring.tiles import format_tiles
from scoring.waits import waits


@pytest.mark.parametrize("concealed,expected", [
    ("123m456m789p2345s", "25s"),          # two-sided run with a pair wait
    ("1112345678999m", "123456789m"),      # nine gates: all nine
    ("19m19p19s1234567z", "19m19p19s1234567z"),  # thirteen orphans, thirteen-sided
    ("19m19p19s1234566z", "7z"),
    ("112233m445566p7s", "7s"),            # seven pairs single wait
    ("123m456m789p11s22z", "1s2z"),        # two pairs
    ("123m456m789p134s", ""),              # 13 tiles that no tile completes
])
def test_waits(concealed: str, expected: str) -> None:
    hand = Hand.of(concealed)
    assert format_tiles(waits(hand)) == expected


def test_waits_with_melds_and_used_copies() -> None:
    hand = Hand.of("2345s", [meld("pung", "555s"), meld("chow", "123m"), meld("chow", "789p")])
    # 5s: three in the pung, one in the hand: all four used, so only 2s remains
    assert format_tiles(waits(hand)) == "2s"


def test_complete_hand_has_no_waits() -> None:
    assert waits(Hand.of("123m456m789p234s55p")) == ()
