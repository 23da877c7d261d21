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
The same readings, searched block by block and all of them, say which faces
of each unsure tile would also make a winning hand (:func:`other_winning_faces`):
a tile with none is settled and needs no check by the player (:func:`settled`),
and the others' are the faces to offer the player first.

Pure: it knows tile codes and probabilities, nothing of images. The blocks are
what the photo shows (tiles separated by gaps); which block is the concealed
hand, a meld or the bonus tiles follows from the codes, as on the page:
flowers and seasons are bonus tiles wherever they lie, the largest remaining
block is the concealed hand, the others are melds.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import combinations, product

from scoring.decompose import is_complete
from scoring.tiles import BACK, BONUS_TILES, PLAYING_TILES, TileParseError, tile

Option = tuple[str, float]
"""A possible reading of one tile: its code and the classifier's probability."""

MAX_CHANGES = 3
"""At most this many tiles are read as an alternative: a hand that needs more is
more likely a hand with a tile missing or extra than one misread that much."""
MIN_PROBABILITY = 0.01
"""Alternatives less probable than this are never chosen. 0.03 until the
twentieth session; an unseen set's plum set apart from the hand was read as
east or 1 bamboo (0.13-0.23) with the plum at 0.02-0.03 and no other bonus
tile much likelier: a tile alone cannot be a playing tile, but the plum
was out of reach. At 0.01, 7 more of 1 250 generated hands were read exactly
(4 of them the fresh-12 set's plums) and none fewer; below 0.01 nothing more."""
SURE = 0.7
"""A tile whose first reading is this probable or more is never changed: only
the tiles a player is already asked to check (the page marks them) may be."""
MAX_TRIES = 1500
"""Readings checked at most, so a hopeless photo costs about 11 ms (16 unsure tiles)."""
MAX_CHECKS = 5000
"""Readings of single blocks checked at most by :func:`other_winning_faces`, about
15 ms. Its search goes block by block (:meth:`_Search.winning_faces`), so it finishes
where :data:`MAX_TRIES` readings of the whole hand would not: four unsure tiles
with ten alternatives each make 4 640 readings of the hand, but a meld keeps
only the one or two of its own that are still a set."""


def most_likely(blocks: Sequence[Sequence[Sequence[Option]]]) -> list[list[str]] | None:
    """The codes of the most probable winning reading, block by block, tile by tile.

    ``blocks[b][t]`` lists tile ``t`` of block ``b``'s readings, most probable
    first (a face-down tile: ``[("back", 1.0)]``). Returns ``None`` when the
    first readings already make a winning hand, or when no reading with at
    most :data:`MAX_CHANGES` alternatives does.
    """
    search = _Search(blocks, SURE)
    if is_winning(search.codes):
        return None
    return next((reading for reading in search.readings() if is_winning(reading)), None)


def other_winning_faces(blocks: Sequence[Sequence[Sequence[Option]]],
                        unsure: float) -> list[list[tuple[str, ...]]] | None:
    """For each tile, the faces other than its first reading that some other
    winning reading gives it, most probable first; ``None`` when the first
    readings make no winning hand or when there are too many readings to try.

    Why: a tile the classifier reads less surely than ``unsure`` is marked for
    the player to check, and on about half the photos of hands read right
    some tile is (a 4 dots at 0.6, its 5 dots at 0.3). But the photo shows a
    winning hand. When the first readings make one, the readings that also
    win, with up to :data:`MAX_CHANGES` tiles below ``unsure`` read as one of
    their alternatives (as :func:`most_likely` searches), are the only
    questions left: a tile no other winning reading changes is settled
    (:func:`settled`; a 4 dots in 3-4-5 dots whose 5 dots would make 3-5-5),
    and for the others these are the faces to offer the player first (a 9
    characters after 7-8 when 6-7-8 wins as well; a flower or a season: any
    other bonus tile wins as well), whether or not the classifier ranked them
    second or fifth. The search stops (``None``) past :data:`MAX_CHECKS`."""
    search = _Search(blocks, unsure)
    if not is_winning(search.codes):
        return None
    return search.winning_faces()


def settled(blocks: Sequence[Sequence[Sequence[Option]]], unsure: float) -> list[list[bool]]:
    """For each tile, whether the hand settles its first reading: no other winning
    reading changes it (:func:`other_winning_faces`). Nothing is settled when the
    first readings make no winning hand or when the search stops short."""
    faces = other_winning_faces(blocks, unsure)
    if faces is None:
        return [[False] * len(block) for block in blocks]
    return [[not others for others in block] for block in faces]


class _Search:
    """Readings of a hand with one to :data:`MAX_CHANGES` of its unsure tiles read
    as an alternative: cheapest first (:meth:`readings`; a reading costs how much
    less probable the classifier finds it, the sum of log ratios to each tile's
    first reading), or every winning one (:meth:`winning_faces`)."""

    def __init__(self, blocks: Sequence[Sequence[Sequence[Option]]], sure: float) -> None:
        self.blocks = blocks
        self.slots = [(b, t) for b, block in enumerate(blocks) for t in range(len(block))]
        self.codes = [[options[0][0] for options in block] for block in blocks]
        self.steps: list[tuple[int, int, float]] = []  # slot, option, cost
        for s, (b, t) in enumerate(self.slots):
            options = blocks[b][t]
            best = max(options[0][1], 1e-9)
            if best >= sure:
                continue
            self.steps.extend((s, k, math.log(best / max(p, 1e-9)))
                              for k, (_, p) in enumerate(options[1:], 1) if p >= MIN_PROBABILITY)

    def readings(self) -> Iterator[list[list[str]]]:
        """Each reading's codes, block by block, cheapest first."""
        heap: list[tuple[float, tuple[int, ...]]] = [(0.0, ())]  # cost, indices into steps
        tries = 0
        while heap and tries < MAX_TRIES:
            cost, chosen = heapq.heappop(heap)
            tries += 1
            if chosen:
                reading = [list(block) for block in self.codes]
                for i in chosen:
                    s, k, _ = self.steps[i]
                    b, t = self.slots[s]
                    reading[b][t] = self.blocks[b][t][k][0]
                yield reading
            if len(chosen) == MAX_CHANGES:
                continue
            used = {self.steps[i][0] for i in chosen}
            for i in range(chosen[-1] + 1 if chosen else 0, len(self.steps)):
                if self.steps[i][0] not in used:
                    heapq.heappush(heap, (cost + self.steps[i][2], (*chosen, i)))

    def winning_faces(self) -> list[list[tuple[str, ...]]] | None:
        """For each tile, the faces that winning readings other than the first give
        it, in the order of its options; ``None`` past :data:`MAX_CHECKS`.

        Why block by block: every block of a winning hand is a set, a winning
        concealed hand or bonus tiles on its own, so each block's readings are
        checked alone first (:func:`_block_may_win`), and only the combinations
        of those that pass are checked as a whole hand. It finds the same
        readings as :meth:`readings` would, all of them, at a fraction of the
        cost."""
        by_block: dict[int, dict[int, list[int]]] = {}  # block -> tile -> its options' places
        for s, k, _ in self.steps:
            b, t = self.slots[s]
            by_block.setdefault(b, {}).setdefault(t, []).append(k)
        changing = {b: [tiles for n in range(1, MAX_CHANGES + 1)
                        for tiles in combinations(sorted(alternatives), n)]
                    for b, alternatives in by_block.items()}
        checks = sum(math.prod(len(by_block[b][t]) for t in tiles)
                     for b, sets in changing.items() for tiles in sets)
        if checks > MAX_CHECKS:
            return None  # known before any is tried
        passing: list[list[tuple[tuple[int, ...], list[str]]]] = []
        for b, block in enumerate(self.blocks):
            alternatives = by_block.get(b, {})
            kept: list[tuple[tuple[int, ...], list[str]]] = [((), self.codes[b])]
            for tiles in changing.get(b, []):
                for ks in product(*(alternatives[t] for t in tiles)):
                    codes = list(self.codes[b])
                    for t, k in zip(tiles, ks, strict=True):
                        codes[t] = block[t][k][0]
                    if _block_may_win(codes):
                        kept.append((tiles, codes))
            passing.append(kept)

        # the tiles changed so far (by block and place), the blocks read so far
        readings: list[tuple[tuple[tuple[int, int], ...], list[list[str]]]] = [((), [])]
        for b, kept in enumerate(passing):
            readings = [(done + tuple((b, t) for t in more), [*reading, block_codes])
                        for done, reading in readings for more, block_codes in kept
                        if len(done) + len(more) <= MAX_CHANGES]
            checks += len(readings)
            if checks > MAX_CHECKS:
                return None
        found = {(b, t, reading[b][t]) for done, reading in readings
                 if done and is_winning(reading) for b, t in done}
        if not found:
            return [[()] * len(block) for block in self.blocks]
        return [[tuple(code for code, _ in options[1:] if (b, t, code) in found)
                 for t, options in enumerate(block)] for b, block in enumerate(self.blocks)]


def _block_may_win(codes: Sequence[str]) -> bool:
    """Whether one block, read as ``codes``, may belong to a winning hand: bonus
    tiles once each, and the others a set, a winning concealed hand (with as many
    melds as its size leaves) or nothing. What only the whole hand can say (which
    block is the concealed hand, no tile five times) :func:`is_winning` checks."""
    parted = _parted(codes)
    if parted is None:
        return False
    bonus, group = parted
    if len(bonus) != len(set(bonus)):
        return False
    if not group:
        return True
    if len(group) % 3 != 2:
        return _meld_tiles(tuple(group)) is not None
    if len(group) > 14 or BACK.index in group:
        return False
    hidden = [0] * 34
    for i in group:
        hidden[i] += 1
    return max(hidden) <= 4 and is_complete(hidden, (14 - len(group)) // 3)


def is_winning(blocks: Sequence[Sequence[str]]) -> bool:
    """Whether blocks of tile codes, as laid out in a photo, make a winning hand.

    The concealed hand is the block of 3n+2 playing tiles (melds have 3 or 4).
    Works on tile indices (:mod:`scoring.tiles`), not tiles: the search calls it
    thousands of times."""
    bonus: list[int] = []
    groups: list[list[int]] = []
    for block in blocks:
        parted = _parted(block)
        if parted is None:
            return False
        bonus += parted[0]
        groups.append(parted[1])
    if len(bonus) != len(set(bonus)):
        return False
    hands = [g for g in groups if len(g) % 3 == 2]
    if len(hands) != 1 or BACK.index in hands[0]:
        return False
    counts = [0] * (BACK.index + 1)
    melds = 0
    for group in groups:
        if group is hands[0] or not group:
            continue
        stands_for = _meld_tiles(tuple(group))
        if stands_for is None:
            return False
        melds += 1
        for i in stands_for:
            counts[i] += 1
    hidden = [0] * 34
    for i in hands[0]:
        hidden[i] += 1
        counts[i] += 1
    return (max(counts) <= 4 and sum(hidden) == 14 - 3 * melds
            and is_complete(hidden, melds))


def _parted(codes: Sequence[str]) -> tuple[list[int], list[int]] | None:
    """One block's bonus tiles and its other tiles, as indices; ``None`` when a code
    names no tile ("none")."""
    try:
        faces = [_index(c) for c in codes]
    except TileParseError:
        return None
    return [i for i in faces if i in _BONUS], [i for i in faces if i not in _BONUS]


_BONUS = frozenset(t.index for t in BONUS_TILES)
_CHOW_STARTS = frozenset(t.index for t in PLAYING_TILES if t.is_suited and t.rank <= 7)
"""Indices of the tiles a chow may start at (the next two indices are its others)."""


@lru_cache(maxsize=64)
def _index(code: str) -> int:
    return tile(code).index


@lru_cache(maxsize=4096)
def _meld_tiles(meld: tuple[int, ...]) -> tuple[int, ...] | None:
    """The tiles a meld stands for if it is a set (pung, kong, chow), else None.

    Face-down tiles only belong at the ends of a concealed kong (four tiles),
    whose faces say what it is."""
    faces = [i for i in meld if i != BACK.index]
    if not faces or (len(faces) < len(meld) and len(meld) != 4):
        return None
    if len(set(faces)) == 1 and len(meld) in (3, 4):
        return (faces[0],) * len(meld)
    low = min(faces)
    if len(meld) == 3 and low in _CHOW_STARTS and sorted(faces) == [low, low + 1, low + 2]:
        return tuple(faces)  # a chow: three in a row of one suit
    return None
