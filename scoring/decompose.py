"""Every way to read a hand: four sets and a pair, seven pairs, thirteen orphans, flower wins.

Ambiguous hands are where scorers go wrong (``111222333s`` is three pungs *or*
three chows), so we enumerate every reading and let the scoring model pick the
best for the winner. Enumeration is cheap because each suit is split on its own
and the splits are cached by the suit's count tuple: a hand touches at most four
small table entries, and a session meets only a few thousand distinct ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Any, NamedTuple

from scoring.hand import Hand, flower_win_possible
from scoring.tiles import ALL_TILES, Tile, format_tiles

FORMS: tuple[str, ...] = ("standard", "seven_pairs", "thirteen_orphans", "flowers")
"""``standard`` four sets and a pair; ``flowers`` a win on seven or eight bonus tiles."""

GROUP_KINDS: tuple[str, ...] = ("chow", "pung", "kong", "pair", "orphans")


class Group(NamedTuple):
    """One part of a reading. A tuple, not a dataclass: readings are built by the thousand.

    ``tile`` is the index of the lowest tile (for ``orphans``: the duplicated
    tile). ``declared`` groups are the hand's melds; the others were read from
    the concealed tiles and are always concealed.
    """

    kind: str
    tile: int
    concealed: bool
    declared: bool = False
    claimed_from: str | None = None

    @property
    def tiles(self) -> tuple[Tile, ...]:
        t = self.tile
        if self.kind == "chow":
            return ALL_TILES[t], ALL_TILES[t + 1], ALL_TILES[t + 2]
        if self.kind == "orphans":
            return tuple(ALL_TILES[i] for i in sorted((*ORPHANS, t)))
        return (ALL_TILES[t],) * {"pung": 3, "kong": 4, "pair": 2}[self.kind]

    @property
    def is_set(self) -> bool:
        """A chow, pung or kong (one of the four sets of a standard hand)."""
        return self.kind in ("chow", "pung", "kong")

    def to_json(self) -> dict[str, Any]:
        return dict(_group_json(self))


@lru_cache(maxsize=4096)
def _group_json(g: Group) -> tuple[tuple[str, Any], ...]:
    """JSON fields of a group, cached: responses show the same few hundred groups."""
    out: list[tuple[str, Any]] = [("kind", g.kind), ("tiles", format_tiles(g.tiles)),
                                  ("concealed", g.concealed), ("declared", g.declared)]
    if g.claimed_from:
        out.append(("claimed_from", g.claimed_from))
    return tuple(out)


class Reading(NamedTuple):
    """One reading of a winning hand: its form and its groups (declared melds first).

    Immutable like every result type; a tuple because hands have several readings
    and the engine builds them in its inner loop.
    """

    form: str
    groups: tuple[Group, ...]

    @property
    def sets(self) -> tuple[Group, ...]:
        return tuple(g for g in self.groups if g.kind in ("chow", "pung", "kong"))

    @property
    def pair(self) -> Group | None:
        """The pair of a standard reading (``None`` for the other forms)."""
        if self.form != "standard":
            return None
        for g in self.groups:
            if g.kind == "pair":
                return g
        return None

    def to_json(self) -> list[dict[str, Any]]:
        """Groups as JSON: declared melds, then concealed sets, then the pair."""
        ordered = sorted(self.groups, key=lambda g: (not g.declared, g.kind == "pair"))
        return [g.to_json() for g in ordered]


ORPHANS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""Indices of the thirteen terminal and honour tiles."""

_PUNG = tuple(Group("pung", i, True) for i in range(34))
_CHOW = tuple(Group("chow", i, True) for i in range(34))
_PAIR = tuple(Group("pair", i, True) for i in range(34))

_Split = tuple[tuple[Group, ...], ...]


def _search(c: list[int], start: int, base: int, chows: bool,
            have_pair: bool) -> list[tuple[Group, ...]]:
    """All ways to use every tile of one suit as sets and at most one pair."""
    n = len(c)
    i = start
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return [()]
    out: list[tuple[Group, ...]] = []
    if c[i] >= 3:
        c[i] -= 3
        out.extend((_PUNG[base + i], *rest) for rest in _search(c, i, base, chows, have_pair))
        c[i] += 3
    if c[i] >= 2 and not have_pair:
        c[i] -= 2
        out.extend((_PAIR[base + i], *rest) for rest in _search(c, i, base, chows, True))
        c[i] += 2
    if chows and i + 2 < n and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        out.extend((_CHOW[base + i], *rest) for rest in _search(c, i, base, chows, have_pair))
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    return out


_BASES: tuple[tuple[int, int], ...] = ((0, 9), (9, 18), (18, 27), (27, 34))
_Entry = tuple[_Split, int, bool]
_TABLES: tuple[dict[tuple[int, ...], _Entry], ...] = ({}, {}, {}, {})
"""Per suit (characters, dots, bamboo, honours): count tuple -> (splits, pairs, empty)."""


def _entry(k: int, counts: tuple[int, ...]) -> _Entry:
    """The table entry of one suit: its splits, whether they hold a pair (1) or none (0),
    or -1 when no split exists; and whether the suit is empty."""
    hit = _TABLES[k].get(counts)
    if hit is None:
        base = _BASES[k][0]
        n = sum(counts)
        if n % 3 == 1:
            splits: _Split = ()
        else:
            # Taking a chow then a pung at the same tile finds the pung-then-chow
            # reading again; keep each multiset of groups once.
            found = _search(list(counts), 0, base, base < 27, False)
            splits = tuple(dict.fromkeys(tuple(sorted(r)) for r in found))
        pairs = -1 if not splits else (1 if n % 3 == 2 else 0)
        hit = _TABLES[k][counts] = (splits, pairs, n == 0)
    return hit


def split_suit(counts: tuple[int, ...], base: int) -> _Split:
    """Cached readings of one suit (``base`` 0, 9, 18) or of the honours (``base`` 27).

    Each reading uses every tile, as sets plus at most one pair; a suit whose
    tile count is 1 more than a multiple of three has none.
    """
    return _entry(base // 9, counts)[0]


def standard_splits(counts: Sequence[int]) -> list[tuple[Group, ...]]:
    """Every split of concealed tiles (34 counts) into sets and exactly one pair.

    Four table lookups (one per suit, keyed by the suit's count tuple) and a
    small product: the per-hand work the scorers' speed rests on.
    """
    parts: list[_Split] = []
    pairs = 0
    for k in range(4):
        base, end = _BASES[k]
        key = tuple(counts[base:end])
        hit = _TABLES[k].get(key)
        if hit is None:
            hit = _entry(k, key)
        splits, pair, empty = hit
        if empty:
            continue
        if pair < 0:
            return []
        pairs += pair
        parts.append(splits)
    if pairs != 1:
        return []
    if len(parts) == 1:
        return list(parts[0])
    return [sum(combo, ()) for combo in product(*parts)]


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Seven different pairs (four of a kind is not two pairs: documented in the presets)."""
    listed = counts if isinstance(counts, list) else list(counts)
    return listed.count(2) == 7 and sum(listed) == 14


def orphans_duplicate(counts: Sequence[int]) -> int | None:
    """The doubled tile of a thirteen-orphans hand, or ``None`` if it is not one."""
    if any(counts[1:8]) or any(counts[10:17]) or any(counts[19:26]) or sum(counts) != 14:
        return None
    dup = None
    for i in ORPHANS:
        c = counts[i]
        if c == 0 or c > 2:
            return None
        if c == 2:
            dup = i
    if dup is None or sum(counts[i] for i in ORPHANS) != 14:
        return None
    return dup


def concealed_counts(tiles: Sequence[Tile]) -> list[int]:
    """Counts of the 34 playing tiles among ``tiles`` (bonus and face-down tiles ignored)."""
    counts = [0] * 34
    for t in tiles:
        if t.index < 34:
            counts[t.index] += 1
    return counts


def meld_groups(hand: Hand) -> tuple[Group, ...]:
    """The declared melds as groups, in the order they were declared."""
    return tuple(Group(m.kind, m.first.index, not m.exposed, True, m.claimed_from)
                 for m in hand.melds)


def decompose(hand: Hand, counts: Sequence[int] | None = None) -> tuple[Reading, ...]:
    """Every reading of a hand whose tiles passed :func:`scoring.hand.check_winning_hand`.

    An empty result means the hand is not complete. Flower-win readings are
    included whenever the bonus tiles allow them, alongside any regular reading.
    ``counts`` may pass the concealed tiles' counts when the caller has them.
    """
    readings: list[Reading] = []
    if len(hand.concealed) == hand.tiles_expected:
        if counts is None:
            counts = concealed_counts(hand.concealed)
        declared = meld_groups(hand)
        readings.extend(Reading("standard", declared + split)
                        for split in standard_splits(counts))
        if not hand.melds:
            if is_seven_pairs(counts):
                readings.append(Reading("seven_pairs", tuple(
                    _PAIR[i] for i, c in enumerate(counts) if c == 2)))
            dup = orphans_duplicate(counts)
            if dup is not None:
                readings.append(Reading("thirteen_orphans", (Group("orphans", dup, True),)))
    if flower_win_possible(hand):
        readings.append(Reading("flowers", ()))
    return tuple(readings)


def is_complete(counts: Sequence[int], melds: int) -> bool:
    """Whether concealed tiles (34 counts) plus ``melds`` declared sets form a winning shape."""
    if standard_splits(counts):
        return True
    return melds == 0 and (is_seven_pairs(counts) or orphans_duplicate(counts) is not None)


def placements(reading: Reading, winning: Tile) -> tuple[int, ...]:
    """Indices of the concealed (undeclared) groups that may hold the winning tile.

    Where the winning tile sits matters to models that treat a set completed
    by a discard as exposed; a caller picks the placement that suits the winner.
    """
    w = winning.index
    out: list[int] = []
    for i, g in enumerate(reading.groups):
        if g.declared:
            continue
        if g.kind == "chow":
            if g.tile <= w <= g.tile + 2:
                out.append(i)
        elif g.kind == "orphans":
            if w in ORPHANS:
                out.append(i)
        elif g.tile == w:
            out.append(i)
    return tuple(out)
