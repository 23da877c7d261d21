"""The Italian scorer's quick wait checks agree with the shared engine's full ones."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.italian.scorer import single_wait
from scoring.waits import waits_for_counts

# Hands near completion are the interesting ones: draw from few tiles so sets form.
tiles = st.lists(st.integers(0, 33), min_size=1, max_size=14)
narrow = st.lists(st.sampled_from([0, 1, 2, 3, 4, 8, 9, 17, 26, 27, 31, 33]),
                  min_size=1, max_size=14)


def _counts(hand: list[int]) -> list[int] | None:
    counts = [0] * 34
    for t in hand:
        counts[t] += 1
    return counts if max(counts) <= 4 else None


@settings(max_examples=1500)
@given(st.one_of(tiles, narrow))
def test_single_wait_matches_counting_the_waits(hand: list[int]) -> None:
    counts = _counts(hand)
    if counts is None or len(hand) % 3 != 1:
        return
    melds = (13 - len(hand)) // 3
    expected = len(waits_for_counts(counts, melds, counts)) == 1
    assert single_wait(counts, melds, counts) == expected


def test_known_waits() -> None:
    edge = _counts([0, 1, 12, 13, 14, 24, 25, 26, 9, 10, 11, 31, 31])  # 12m: waits on 3m only
    assert edge is not None and single_wait(edge, 0, edge)
    open_ = _counts([1, 2, 12, 13, 14, 24, 25, 26, 9, 10, 11, 31, 31])  # 23m: 1m or 4m
    assert open_ is not None and not single_wait(open_, 0, open_)
    orphans = _counts([0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33])  # 13-sided
    assert orphans is not None and not single_wait(orphans, 0, orphans)
    one_missing = _counts([0, 0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32])  # needs 7z only
    assert one_missing is not None and single_wait(one_missing, 0, one_missing)
