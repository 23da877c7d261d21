"""The cached per-suit decomposition agrees with a brute-force enumeration of readings."""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.decompose import standard_splits


def brute_force(counts: list[int]) -> set[tuple[tuple[str, int], ...]]:
    """Every multiset of sets and one pair whose tiles are exactly ``counts`` (slow, obvious)."""
    total = sum(counts)
    n_sets = (total - 2) // 3
    if total < 2 or (total - 2) % 3:
        return set()
    candidates = [("pung", t) for t in range(34) if counts[t] >= 3]
    candidates += [("chow", t) for t in range(27) if t % 9 <= 6
                   and counts[t] and counts[t + 1] and counts[t + 2]]
    want = Counter({t: c for t, c in enumerate(counts) if c})
    found: set[tuple[tuple[str, int], ...]] = set()
    for pair in (t for t in range(34) if counts[t] >= 2):
        for sets in combinations_with_replacement(candidates, n_sets):
            used: Counter[int] = Counter({pair: 2})
            for kind, t in sets:
                used.update((t, t + 1, t + 2) if kind == "chow" else (t, t, t))
            if used == want:
                found.add(tuple(sorted([*sets, ("pair", pair)])))
    return found


def engine(counts: list[int]) -> set[tuple[tuple[str, int], ...]]:
    return {tuple(sorted((g.kind, g.tile) for g in split)) for split in standard_splits(counts)}


@st.composite
def complete_counts(draw: st.DrawFn) -> list[int]:
    counts = [0] * 34
    n_sets = draw(st.integers(0, 4))
    for _ in range(n_sets):
        if draw(st.booleans()):
            t = draw(st.sampled_from([s * 9 + r for s in range(3) for r in range(7)]))
            for i in (t, t + 1, t + 2):
                counts[i] += 1
        else:
            counts[draw(st.integers(0, 33))] += 3
    counts[draw(st.integers(0, 33))] += 2
    return counts


@st.composite
def one_suit_counts(draw: st.DrawFn) -> list[int]:
    """Dense single-suit hands, where readings multiply."""
    counts = [0] * 34
    base = draw(st.sampled_from((0, 9, 18)))
    size = draw(st.sampled_from((2, 5, 8, 11, 14)))
    for t in draw(st.lists(st.integers(base, base + 8), min_size=size, max_size=size)):
        counts[t] += 1
    return counts


@settings(max_examples=300, deadline=None)
@given(st.one_of(complete_counts(), one_suit_counts()))
def test_engine_matches_brute_force(counts: list[int]) -> None:
    assume(max(counts) <= 4)
    assert engine(counts) == brute_force(counts)
