"""The most probable winning hand among the possible readings of its tiles.

Why: a photo's tiles are named one at a time, and one tile the classifier is
unsure of (a small corner "3" read as a "5", an unfamiliar flower) turns a
winning hand into an impossible one. The hand itself says which reading is
right: players photograph winning hands, so among the classifier's
alternatives, the reading that makes one (every meld a set, the concealed
tiles a winning shape, no tile more than four times, each flower and season
once) is the likely one. :func:`most_likely` searches those readings,
cheapest first (a reading costs how much less probable the classifier finds
it), and changes nothing when the first reading already is a winning hand or
when no reading within a few changes is: a tile that the photo does not show
is not invented, and only tiles the classifier is unsure of are changed.

Pure: it knows tile codes and probabilities, nothing of images. The blocks are
what the photo shows (tiles separated by gaps); which block is the concealed
hand, a meld or the bonus tiles follows from the codes, as on the page:
flowers and seasons are bonus tiles wherever they lie, the largest remaining
block is the concealed hand, the others are melds.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from scoring.decompose import is_complete
from scoring.tiles import BACK, Tile, TileParseError, tile

Option = tuple[str, float]
"""A possible reading of one tile: its code and the classifier's probability."""

MAX_CHANGES = 3
"""At most this many tiles are read as an alternative: a hand that needs more is
more likely a hand with a tile missing or extra than one misread that much."""
MIN_PROBABILITY = 0.03
"""Alternatives less probable than this are never chosen."""
SURE = 0.7
"""A tile whose first reading is this probable or more is never changed: only
the tiles a player is already asked to check (the page marks them) may be."""
MAX_TRIES = 4000
"""Readings checked at most, so a hopeless photo costs a few milliseconds."""


def most_likely(blocks: Sequence[Sequence[Sequence[Option]]]) -> list[list[str]] | None:
    """The codes of the most probable winning reading, block by block, tile by tile.

    ``blocks[b][t]`` lists tile ``t`` of block ``b``'s readings, most probable
    first (a face-down tile: ``[("back", 1.0)]``). Returns ``None`` when the
    first readings already make a winning hand, or when no reading with at
    most :data:`MAX_CHANGES` alternatives does.
    """
    slots = [(b, t) for b, block in enumerate(blocks) for t in range(len(block))]
    codes = [[options[0][0] for options in block] for block in blocks]
    steps: list[tuple[int, int, float]] = []  # slot, option, cost
    for s, (b, t) in enumerate(slots):
        options = blocks[b][t]
        best = max(options[0][1], 1e-9)
        if best >= SURE:
            continue
        steps.extend((s, k, math.log(best / max(p, 1e-9)))
                     for k, (_, p) in enumerate(options[1:], 1) if p >= MIN_PROBABILITY)
    if is_winning(codes):
        return None
    heap: list[tuple[float, tuple[int, ...]]] = [(0.0, ())]  # cost, indices into steps
    tries = 0
    while heap and tries < MAX_TRIES:
        cost, chosen = heapq.heappop(heap)
        tries += 1
        if chosen:
            reading = [list(block) for block in codes]
            for i in chosen:
                s, k, _ = steps[i]
                b, t = slots[s]
                reading[b][t] = blocks[b][t][k][0]
            if is_winning(reading):
                return reading
        if len(chosen) == MAX_CHANGES:
            continue
        used = {steps[i][0] for i in chosen}
        for i in range(chosen[-1] + 1 if chosen else 0, len(steps)):
            if steps[i][0] not in used:
                heapq.heappush(heap, (cost + steps[i][2], (*chosen, i)))
    return None


def is_winning(blocks: Sequence[Sequence[str]]) -> bool:
    """Whether blocks of tile codes, as laid out in a photo, make a winning hand.

    The concealed hand is the block of 3n+2 playing tiles (melds have 3 or 4)."""
    try:
        faces = [[_tile(c) for c in block] for block in blocks]
    except TileParseError:
        return False  # "none" or another non-tile
    bonus = [f for block in faces for f in block if f.is_bonus]
    if len(bonus) != len(set(bonus)):
        return False
    groups = [tuple(f for f in block if not f.is_bonus) for block in faces]
    hands = [g for g in groups if len(g) % 3 == 2]
    if len(hands) != 1:
        return False
    melds = [g for g in groups if g and g is not hands[0]]
    total = Counter(hands[0])
    for meld in melds:
        stands_for = _meld_tiles(meld)
        if stands_for is None:
            return False
        total.update(stands_for)
    if BACK in total or any(n > 4 for n in total.values()):
        return False
    counts = [0] * 34
    for f in hands[0]:
        counts[f.index] += 1
    return sum(counts) == 14 - 3 * len(melds) and is_complete(counts, len(melds))


@lru_cache(maxsize=64)
def _tile(code: str) -> Tile:
    return tile(code)


def _meld_tiles(meld: tuple[Tile, ...]) -> list[Tile] | None:
    """The tiles a meld stands for if it is a set (pung, kong, chow), else None.

    Face-down tiles only belong at the ends of a concealed kong (four tiles),
    whose faces say what it is."""
    faces = [f for f in meld if f != BACK]
    if not faces or (len(faces) < len(meld) and len(meld) != 4):
        return None
    if len(set(faces)) == 1 and len(meld) in (3, 4):
        return [faces[0]] * len(meld)
    ranks = sorted(f.rank for f in faces)
    if len(meld) == 3 and len(faces) == 3 and faces[0].is_suited and all(
            f.suit is faces[0].suit for f in faces) and ranks == [ranks[0] + i for i in range(3)]:
        return faces
    return None
