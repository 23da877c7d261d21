"""Photo -> tiles: the one entry point of the vision pipeline.

``recognize(image)`` finds the tile faces (:mod:`vision.segment`), crops them
from the best-resolution image (:mod:`vision.rectify`), names them
(:mod:`vision.classify`), and reads them as the player laid them
(:mod:`vision.group`). The result is plain data with ``to_dict()`` in the JSON
shape shared with the API and the web page; warnings say what a player should
check (tiles cut by the photo's edge, unsure tiles, a count that is no hand).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

import numpy as np

from vision.allocator import keep_freed_memory
from vision.backs import crop_colour, has_faces_colour
from vision.group import is_flipped, lay_out, reading_direction
from vision.mend import (
    beyond_runs,
    crosswise_pairs,
    face_gaps,
    with_face_between,
    with_faces,
    with_kong_backs,
    with_one_face,
    with_other_cut,
    without,
)
from vision.photo import Photo, PhotoError
from vision.rectify import crop_tile, order_corners, side_lengths
from vision.segment import WORK_SIDE, WORK_SLACK, Segmentation, segment

LOW_CONFIDENCE = 0.75
"""Below this the tile is flagged for the player to check. 0.7 until the
sixteenth session; the classifier of run 36 is surer of itself than run 10, and
at 0.7 two wrong hands of the generated sets came without any warning (a 3
characters read as 5 at 0.70, generated scene 09045). At 0.75 none does on the
four sets it was chosen on (700 hands; a set generated afterwards, real-10, has
one in 51), and fewer right hands carry a warning than run 10 gave at 0.7
(benchmark: 138 of 193 against 155 of 192)."""
TOO_WIDE = 1.35
"""A face whose outline, as the player reads it, is this many times wider than
tall (or taller than wide, for a face read turned a quarter) is not one tile,
and is marked for the player to check however surely it was read. A tile is
about 0.75 as wide as tall, so turned a quarter 1.33. Two bonus tiles side by
side were cut as one face turned a quarter and read upright (4f at 0.8, its
outline 1.56 as wide as tall; fresh-54 54063); a hand of right tiles with no
other mark, the missing flower went unreported. On the benchmark and fresh-54
(5 128 faces) the faces of hands read right reach 1.27, and the only three
at 1.39-1.56 are in hands read wrong (forty-ninth session)."""
BONUS_CODES = frozenset({f"{i}{s}" for s in "fg" for i in range(1, 5)})
BONUS_IN_RUN = 0.1
"""How much less likely the hand reader finds a flower or a season inside a run of
playing tiles than the classifier alone says (:func:`_bonus_set_apart`). At 0.1
two more hands of the fifteen sets were read exactly (fresh-56 56053, fresh-60
60037) and none fewer; 0.03 read the same hands; 0.2 and 0.3 only the second:
the first needs its 5 characters, at 0.0019, weighed over ``MIN_PROBABILITY``
(fifty-first session)."""
CLOSER_WORK_SIDE = 1400
"""The segmenter's working copy, in pixels along its longest side, when a photo
whose tiles do not count as a winning hand is read again (:func:`_closer`). At
1400, 21 of the 53 hands of seventeen sets that still did not count right at
full size were read exactly, at 700 only 11; at 1200 or 1800, none of the 22
left that 1400 did not count right (fifty-first session)."""
UNSURE_TILES = 1
"""A photo whose tiles count as a winning hand is read again closer too
(:func:`_closer`) when at least this many of them are still hard to read
(``low_confidence``) once the hand has settled what it can; the closer read is
kept only when it counts right with fewer such tiles (:func:`_surer`).
Why: a run cut at the wrong pitch, or its faces cut with their tiles' sides and
without their tops, gives as many faces as tiles, each read unsurely (real-63
63108: 10 of 15; real-65 65119: a chow of characters cut below its numbers,
read as three souths at 0.11-0.16); and a bonus tile read unsurely at one
scale is often read surely, and rightly, at another. Over seven sets (1 050
hands, fifty-sixth session), at 3 four more hands were read exactly and one
lost (fresh-66 66134, a winter read as the bamboo flower at 1400 pixels, with
a warning); at 2, three more; at 1, seven more again, and the hands read right
that ask for a check fell by a fifth (295 -> 229). The cost is in the photos
read again, a third of them at 1: real-65's mean 248 -> 436 ms, its 90th
percentile 309 -> 914 ms, its median 199 -> 225 ms (``bench/bench_ab.py``;
at 2, a seventh of them: mean 267 -> 348 ms)."""
MIN_ONE_FACE = 0.5
"""Two faces of a tile set apart, cut across the photo's rows, are read as one face
(:func:`vision.segment.with_one_face`) when it reads at least this surely, and more
surely than both faces together (the product of their confidences)."""
MAX_BEYOND = 5
"""Most faces added one after another at a row's end (:func:`vision.segment.beyond_runs`)."""
SHOWN_READINGS = 3
"""A tile shows its reading and the next two as alternatives (the page offers
them), and after them any other face that would also make a winning hand
(:data:`HandAlternatives`); the hand reader sees them all."""


class _Guess(Protocol):
    @property
    def code(self) -> str: ...

    @property
    def confidence(self) -> float: ...

    @property
    def orientation(self) -> int: ...

    @property
    def top3(self) -> Sequence[Any]: ...


class Classifier(Protocol):
    """What :func:`recognize` needs of a classifier (``vision.classify.TileClassifier``)."""

    def classify(self, crops: Sequence[np.ndarray], *, rgb: bool = False) -> Sequence[_Guess]: ...


HandReader = Callable[[Sequence[Sequence[Sequence[tuple[str, float]]]]], list[list[str]] | None]
"""Picks the most probable winning reading of a hand from each tile's possible
readings (code, probability; most probable first), block by block; ``None``
keeps the classifier's first readings. The service passes
:func:`scoring.likely_hand.most_likely`: vision does not know what a winning
hand is."""
HandAlternatives = Callable[[Sequence[Sequence[Sequence[tuple[str, float]]]], float],
                            list[list[tuple[str, ...]]] | None]
"""Says, block by block, which faces other than each tile's first reading would
also make a winning hand, with the tiles less sure than the given mark read
otherwise; ``None`` when it cannot say (the first readings make no winning
hand). A tile with none is settled: the hand answers the question its mark
asks, so it is not marked for the player to check. The others' faces are
offered among its alternatives. The service passes
:func:`scoring.likely_hand.other_winning_faces`."""


@dataclass(frozen=True)
class Alternative:
    code: str
    confidence: float
    wins: bool = False  # it would also make a winning hand (HandAlternatives)


@dataclass(frozen=True)
class RecognizedTile:
    """One tile as read, in the player's left-to-right order."""

    index: int
    code: str  # a tile code, "back" for a face-down tile
    confidence: float
    alternatives: tuple[Alternative, ...]
    orientation: int  # 0 upright for the player, 180 upside down
    face_down: bool
    sideways: bool
    outline: tuple[tuple[float, float], ...]  # TL, TR, BR, BL as the player sees the face
    row: int
    group: int
    low_confidence: bool
    crop: np.ndarray | None = None  # the rectified face (RGB), not part of to_dict()

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index, "code": self.code, "confidence": round(self.confidence, 4),
            "alternatives": [{"code": a.code, "confidence": round(a.confidence, 4),
                              "wins": a.wins} for a in self.alternatives],
            "orientation": int(self.orientation), "face_down": bool(self.face_down),
            "sideways": bool(self.sideways),
            "outline": [[round(x, 1), round(y, 1)] for x, y in self.outline],
            "row": int(self.row), "group": int(self.group),
            "low_confidence": bool(self.low_confidence),
        }


@dataclass(frozen=True)
class Group:
    """A block of touching tiles: the concealed hand, one meld, or the bonus tiles."""

    id: int
    row: int
    kind: str  # concealed | meld | bonus
    tiles: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "row": self.row, "kind": self.kind, "tiles": list(self.tiles)}


WARNING_CODES = ("no_tiles", "too_many_faces", "cut_by_edge", "low_confidence", "tile_count",
                 "read_as_winning_hand", "kong_backs", "face_in_gap", "face_beyond_row")
"""Every :attr:`Warning.code` a reading can carry (``docs/api.md`` says what each
means; the web page words each in its languages, ``warn_<code>`` in
``api/static/i18n.js``, but the two of a reading with no tiles, which the
service answers with an error: ``no_tiles`` with ``no_tiles_found``,
``too_many_faces`` with ``too_many_tiles``)."""
MAX_FACES = 200
"""A photo in which the segmenter finds more faces than this is not read: no
photo of mahjong tiles shows so many (a whole set is 144 tiles, 152 or 160 with
jokers and spare flowers; ``real-dev`` photo 11 lays out 144), but a pattern
of light cells does: stripes, a grid, squared paper (a picture of stripes 10
pixels wide, 800x600, is cut into 2 960 faces). Reading each face would take
minutes of CPU and, with the hand readers, gigabytes of memory for one upload
(fifty-seventh session: the service was found stuck and killed for memory on
such a picture)."""

PATTERN_CELLS = 2 * MAX_FACES
"""The segmenter stops cutting runs once their cells pass this many
(:func:`vision.segment.segment`'s ``max_faces``): a picture of stripes was cut
into all of its 2 960 cells in 7-10 s of two cores before it was refused, and is
now refused in under a second. Twice :data:`MAX_FACES`, because a photo's runs
are first cut into more cells than its faces (slivers are merged and miscut runs
cut again later): real-69 69080's checked cloth, 221 cells for 119 faces, is
read as before."""

NOT_A_HAND = 100
"""A photo read as more tiles than this is not read again closer (:func:`_closer`):
the closer read is kept only when its tiles count as a winning hand, and a hand
shows at most 26 tiles (four kongs' 18 and 8 bonus tiles), under 80 faces even
with each cut in three on the working copy, the miscut a closer read mends.
Such a photo is a whole set laid out (real-dev 4, 5 and 11: 144 to 156 tiles),
whose closer read took as long as the first, three seconds, and was never kept."""


@dataclass(frozen=True)
class Warning:
    code: str  # one of WARNING_CODES
    message: str
    tiles: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "tiles": list(self.tiles)}


@dataclass(frozen=True)
class Recognition:
    """Everything read from one photo."""

    width: int  # of the original photo
    height: int
    tiles: tuple[RecognizedTile, ...]
    groups: tuple[Group, ...]
    warnings: tuple[Warning, ...]
    flipped: bool = False  # the photo was taken from across the table

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]

    def to_dict(self) -> dict[str, Any]:
        return {
            "image": {"width": self.width, "height": self.height},
            "tiles": [t.to_dict() for t in self.tiles],
            "groups": [g.to_dict() for g in self.groups],
            "warnings": [w.to_dict() for w in self.warnings],
        }


def recognize(
    image: np.ndarray,
    *,
    scale: float = 1.0,
    classifier: Classifier | None = None,
    keep_crops: bool = False,
    hand_reader: HandReader | None = None,
    hand_alternatives: HandAlternatives | None = None,
    full_size: Callable[[], Photo] | None = None,
    read_again_unsure: bool | Callable[[], bool] = True,
) -> Recognition:
    """Find, name and group the tiles in an RGB photo.

    ``scale`` is ``image``'s pixels per original photo pixel (a photo decoded at
    reduced size, :class:`vision.photo.Photo.scale`): outlines are reported in
    the original photo's pixels. ``classifier`` defaults to the bundled model.
    ``hand_reader`` may replace unsure readings by alternatives that make a
    winning hand (:data:`HandReader`); the tiles it changed are listed in a
    ``read_as_winning_hand`` warning and keep their low-confidence mark.
    ``hand_alternatives`` lifts that mark from the other tiles whose reading
    the hand settles, and adds to the alternatives of the rest the faces that
    would also make a winning hand, marked ``wins`` (:data:`HandAlternatives`);
    a face too wide to be one tile (:data:`TOO_WIDE`) is marked however surely
    it was read.
    A photo whose tiles do not count as a winning hand, or (unless
    ``read_again_unsure`` is false) whose hand leaves tiles hard to read
    (:data:`UNSURE_TILES`), is read again closer (:func:`_closer`): from
    ``full_size()``, the photo at its full size when ``image`` is smaller, and
    with a larger working copy. ``read_again_unsure`` may be a function, asked
    once the first read is done: a caller serving many photos can spend the
    closer read only when it has the time (the service: while no other photo
    waits).
    The first call tunes the process's allocator to keep freed memory for the
    next photo (:func:`vision.allocator.keep_freed_memory`).
    """
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 or (
            image.dtype != np.uint8):
        shape = getattr(image, "shape", None)
        raise ValueError(f"recognize() needs an RGB uint8 image of shape (H, W, 3), got {shape}")
    if not scale > 0:
        raise ValueError(f"scale must be positive, got {scale}")
    keep_freed_memory()
    if classifier is None:
        from vision.classify import default_classifier

        classifier = cast(Classifier, default_classifier())
    read = _recognize_at(image, scale, classifier, keep_crops, hand_reader, hand_alternatives)
    again = read_again_unsure() if callable(read_again_unsure) else read_again_unsure
    unsure_tiles = UNSURE_TILES if again else None
    if _settled(read, unsure_tiles) or len(read.tiles) > NOT_A_HAND:
        return read
    return _closer(read, image, scale, full_size, classifier, keep_crops, hand_reader,
                   hand_alternatives, unsure_tiles)


def _closer(read: Recognition, image: np.ndarray, scale: float,
            full_size: Callable[[], Photo] | None, classifier: Classifier, keep_crops: bool,
            hand_reader: HandReader | None, hand_alternatives: HandAlternatives | None,
            unsure_tiles: int | None) -> Recognition:
    """The photo read again, closer, until its tiles count as a winning hand with
    fewer than ``unsure_tiles`` hard to read (any number when ``None``): at its
    full size (``full_size()``, when ``image`` is smaller), then with the
    segmenter's working copy :data:`CLOSER_WORK_SIDE` pixels long. The best read
    is kept (:func:`_surer`): ``read`` if no closer one counts right with fewer
    tiles hard to read.

    Why: photos are read at about 2000 pixels (decoding a phone's JPEG at half
    size is several times faster) and cut into faces on a copy of 1000 pixels
    (:data:`vision.segment.WORK_SIDE`), and a run of small faces may be cut into
    the wrong number of faces there: a tile split in two, a meld cut as a face
    and a half, the faces of a photo taken from afar each cut in three. More
    pixels cut them again otherwise. A hand that does not count right is read
    again, about one photo in thirty of the generated sets (fifty-first session,
    docs/vision.md: of 71 such hands of seventeen sets, 10 were read exactly at
    full size and 21 more with the larger copy, and none was read wrong without
    a warning), and since the fifty-sixth session one with a tile still hard to
    read (:data:`UNSURE_TILES`). A photo that cannot be decoded at full size is
    read closer as it is."""
    sides: list[int] = []
    if full_size is not None and scale < 1:
        try:
            photo: Photo | None = full_size()
        except PhotoError:
            photo = None
        if photo is not None and photo.scale > scale:
            image, scale = photo.image, photo.scale
            sides.append(WORK_SIDE)
    if max(image.shape[:2]) > WORK_SIDE * WORK_SLACK:  # else the same working copy
        sides.append(CLOSER_WORK_SIDE)
    for side in sides:
        again = _recognize_at(image, scale, classifier, keep_crops, hand_reader,
                              hand_alternatives, side)
        if _surer(again, read):
            read = again
        if _settled(read, unsure_tiles):
            break
    return read


def _settled(read: Recognition, unsure_tiles: int | None) -> bool:
    """Whether a read needs no closer look: its tiles count as a winning hand, and
    fewer than ``unsure_tiles`` of them are still hard to read (``None``: however
    many)."""
    return not _miscounted(read) and (unsure_tiles is None or _unsure(read) < unsure_tiles)


def _unsure(read: Recognition) -> int:
    """How many tiles are still marked hard to read."""
    return sum(t.low_confidence for t in read.tiles)


def _surer(again: Recognition, read: Recognition) -> bool:
    """Whether a closer read ``again`` is better than ``read``: it counts right where
    ``read`` does not, or both count right and ``again`` has fewer tiles hard to read.
    On a tie the earlier read stays (the closer reads cost more and were not needed).
    A closer read with no tiles is never better (it found none, or a pattern of
    more than :data:`MAX_FACES` faces on the larger working copy)."""
    if _miscounted(again) or not again.tiles:
        return False
    return _miscounted(read) or _unsure(again) < _unsure(read)


def _recognize_at(image: np.ndarray, scale: float, classifier: Classifier, keep_crops: bool,
                  hand_reader: HandReader | None, hand_alternatives: HandAlternatives | None,
                  work_side: int = WORK_SIDE) -> Recognition:
    """:func:`recognize` of one image, at its one size, cut into faces on a working
    copy ``work_side`` pixels long."""
    h, w = image.shape[:2]
    width, height = round(w / scale), round(h / scale)
    seg = segment(image, work_side=work_side, max_faces=PATTERN_CELLS)
    if not seg.quads:
        return Recognition(width, height, (), (), (Warning(
            "no_tiles", "No tiles were found: photograph the hand from above, "
            "filling most of the picture, on a plain table."),))
    if len(seg.quads) > MAX_FACES:
        return Recognition(width, height, (), (), (Warning(
            "too_many_faces", f"At least {len(seg.quads)} tile-like shapes were found, more than a "
            "whole set of mahjong tiles has: this looks like a pattern (stripes, a grid, a "
            "checked cloth), not a hand. Photograph the hand alone, on a plain table."),))
    memo: _Memo = {}  # a re-read below changes a few quads: the rest are not read again

    def read_with(cut: Segmentation) -> tuple[Recognition, list[int]]:
        return _read(image, cut, scale, classifier, keep_crops, width, height, hand_reader,
                     hand_alternatives, memo)

    read, quads = read_with(seg)
    # a tile set apart cut across its height into two faces, likelier read as one
    rows = reading_direction([q.corners for q in seg.quads], [q.blob for q in seg.quads])
    for blob in crosswise_pairs(seg, rows):
        one = with_one_face(seg, blob, rows)
        again, placed = read_with(one)
        face = len(one.quads) - 1
        halves = [read.tiles[t].confidence for t, q in enumerate(quads)
                  if seg.quads[q].blob == blob]
        if (face in placed and (_miscounted(read) or not _miscounted(again))
                and again.tiles[placed.index(face)].confidence
                >= max(MIN_ONE_FACE, float(np.prod(halves)))):
            seg, read, quads = one, again, placed
    if table := table_backs(read.tiles, read.groups):
        seg = without(seg, [quads[i] for i in table])
        read, quads = read_with(seg)
    if not _miscounted(read):
        return read
    # a back at an end of a run longer than a kong's: a kong that lost a back
    # leaves three tiles ("back, 1, 1 dots"), whose other back is a tile
    # (real-18 31100)
    ends = {i for g in read.groups if len(g.tiles) > 4 for i in (g.tiles[0], g.tiles[-1])}
    for other in ([without(seg, [quads[i]]) for i in stray_backs(read.tiles, read.groups)
                   if i in ends and read.tiles[i].face_down]
                  + [with_other_cut(seg, other) for other in seg.other_cuts]):
        again, _ = read_with(other)
        if not _miscounted(again):
            return again
    # two faces of one tile set apart: a concealed kong whose backs the segmenter
    # took for the table
    for faces, backs in kong_pairs(read.tiles, read.groups):
        kong = with_kong_backs(seg, [quads[i] for i in faces], [quads[i] for i in backs])
        if kong is None:
            continue
        again, placed = read_with(kong)
        if not _miscounted(again):
            return _warned_of_added(
                again, placed, len(seg.quads), "kong_backs", "{count} face-down tile(s) were "
                "assumed beside two faces of one tile set apart, as a concealed kong shows "
                "them: check them.")
    # a face the mask lost, in a gap one face wide in a row, read surely as a tile
    for left, right, corners in face_gaps(seg):
        again, placed = read_with(with_face_between(seg, left, right, corners))
        if _miscounted(again) or len(seg.quads) not in placed:
            continue
        found = placed.index(len(seg.quads))
        if again.tiles[found].code != "none" and again.tiles[found].confidence >= LOW_CONFIDENCE:
            return _warned_of_added(
                again, placed, len(seg.quads), "face_in_gap", "1 tile was found in a gap "
                "one tile wide between two others, where the first look saw none: check it.")
    # faces the mask lost at the ends of rows, read surely as tiles
    grown = seg
    for _ in range(MAX_BEYOND):
        beyond = beyond_runs(grown)
        if not beyond:
            break
        trial = with_faces(grown, beyond)
        again, placed = read_with(trial)
        sure = [q - len(grown.quads) for t, q in enumerate(placed) if q >= len(grown.quads)
                and again.tiles[t].confidence >= LOW_CONFIDENCE]
        if not sure:
            break
        grown = with_faces(grown, [beyond[k] for k in sure])
        again, placed = read_with(grown)
        if not _miscounted(again):
            return _warned_of_added(
                again, placed, len(seg.quads), "face_beyond_row", "{count} tile(s) were "
                "found at the end of a row, where the first look saw none: check them.")
    return read


def _warned_of_added(read: Recognition, placed: Sequence[int], first: int, code: str,
                     message: str) -> Recognition:
    """``read`` with a warning that points at the tiles read from the quads the photo
    did not show at first (``placed`` indices from ``first`` on, added to the cut),
    ``message`` saying how many (``{count}``): the player checks what was assumed."""
    added = tuple(t for t, q in enumerate(placed) if q >= first)
    return replace(read, warnings=(*read.warnings, Warning(
        code, message.format(count=len(added)), added)))


def _miscounted(read: Recognition) -> bool:
    """Whether the tiles read are not as many as a winning hand has.

    Why this settles whether a back at the end of a group that no kong explains
    is a tile (a kong with one back lost) or a patch of the table (a gap before
    a meld: fresh-17 28136), and between two ways to cut a run
    (:class:`vision.segment.OtherCut`):
    a meld's seams are few, and an 8 dots tile's two columns of dots part more
    plainly than the seams beside it, so a chow of 7, 8 and 9 dots cut as a
    face and a half and a turned face and a half scored as well by its seams
    and sizes as three faces (fresh-19 32087, 32135), and the classifier reads
    a face and a half as surely as the face (7 dots at 0.85, the whole 7 dots
    at 0.88). Players photograph winning hands: the cut that makes the hand's
    count right is the likely one, and the first one is kept when neither or
    both do."""
    return any(w.code == "tile_count" for w in read.warnings)


def _read(image: np.ndarray, seg: Segmentation, scale: float, classifier: Classifier,
          keep_crops: bool, width: int, height: int, hand_reader: HandReader | None,
          hand_alternatives: HandAlternatives | None,
          memo: _Memo) -> tuple[Recognition, list[int]]:
    """The photo read with ``seg``'s quads, and the quad each tile was read from."""
    quads = [q.corners for q in seg.quads]
    right = reading_direction(quads, [q.blob for q in seg.quads])
    ordered = [order_corners(q, right) for q in quads]
    crops = [crop_tile(image, c, sideways=q.sideways) for c, q in zip(ordered, seg.quads,
                                                                       strict=True)]
    faces = [i for i, q in enumerate(seg.quads) if not q.face_down]
    # faces in doubt about their turn are also read turned the other way
    other_way = {i: crop_tile(image, ordered[i], sideways=not seg.quads[i].sideways)
                 for i in faces if seg.quads[i].turn_unsure}
    named, sure, ranked = _classify(classifier, [crops[i] for i in faces]
                                    + list(other_way.values()), memo)
    n = len(faces)
    guesses = dict(zip(faces, named[:n], strict=True))
    certainty = dict(zip(faces, sure[:n], strict=True))
    ranking = dict(zip(faces, ranked[:n], strict=True))
    other_guess = dict(zip(other_way, named[n:], strict=True))
    both_ways = {i: (ranking[i], turned) for i, turned in zip(other_way, ranked[n:], strict=True)}
    for i, (as_cut, turned) in both_ways.items():
        ranking[i] = _either_way(as_cut, turned)
    _no_backs_of_faces_colour(ranking, crops, {i for i in faces if seg.quads[i].blank})
    # Crops the model is sure are not tiles are table patterns, not tiles (but a
    # blank face is a tile: the segmenter saw it plain, of the faces' colour, in a run).
    keep = [i for i in range(len(quads))
            if i not in guesses or seg.quads[i].blank
            or not (guesses[i].top3 and guesses[i].top3[0].code == "none"
                    and guesses[i].confidence >= 0.5)]
    flipped = is_flipped([guesses[i].orientation for i in keep if i in guesses],
                         [certainty[i] for i in keep if i in guesses])
    layout = lay_out([quads[i] for i in keep], flipped=flipped, right=right,
                     runs=[seg.quads[i].blob for i in keep])
    readings: list[list[tuple[str, float]]] = []  # per place: code, probability
    for place in layout.order:
        i = keep[place.tile]
        if seg.quads[i].face_down:
            readings.append([("back", 1.0)])
        else:
            readings.append(ranking[i] or [("none", float(guesses[i].confidence))])
    members = _members([p.block for p in layout.order])
    changed = _read_as_hand(readings, members, hand_reader)
    winning = _winning_faces(readings, members, hand_alternatives)
    tiles: list[RecognizedTile] = []
    for n, (place, options) in enumerate(zip(layout.order, readings, strict=True)):
        i = keep[place.tile]
        q = seg.quads[i]
        outline = ordered[i] if not flipped else ordered[i][[2, 3, 0, 1]]
        outline = outline / scale
        code, conf = options[0]
        wins = winning.get(n, ())
        alts = tuple(Alternative(c, p, c in wins) for k, (c, p) in enumerate(options[1:], 1)
                     if k < SHOWN_READINGS or c in wins)
        guess, crop, sideways = guesses.get(i), crops[i], q.sideways
        if i in both_ways:  # the face lies the way that gives its reading more weight
            as_cut, turned = both_ways[i]
            if _likelier(code, turned, as_cut):
                guess, crop, sideways = other_guess[i], other_way[i], not sideways
        orient = 0 if guess is None else (guess.orientation + (180 if flipped else 0)) % 360
        tiles.append(RecognizedTile(
            len(tiles), code, conf, alts, orient, q.face_down, sideways,
            tuple((float(x), float(y)) for x, y in outline), place.row, place.block,
            (conf < LOW_CONFIDENCE and (n in changed or n not in winning or bool(wins)))
            or (not q.face_down and too_wide(outline, sideways)),
            crop if keep_crops else None,
        ))
    groups = _groups(tiles)
    tiles = [_regroup(t, groups) for t in tiles]
    return Recognition(width, height, tuple(tiles), tuple(groups),
                       tuple(_warnings(tiles, groups, seg, keep, layout.order, changed)),
                       flipped), [keep[place.tile] for place in layout.order]


def too_wide(outline: np.ndarray, sideways: bool) -> bool:
    """Whether a face with ``outline`` (TL, TR, BR, BL as the player reads it) is
    too wide, or for a face read turned a quarter too tall, to be one tile
    (:data:`TOO_WIDE`)."""
    width, height = side_lengths(outline)
    long, short = (height, width) if sideways else (width, height)
    return long >= TOO_WIDE * max(short, 1e-9)


def _read_as_hand(readings: list[list[tuple[str, float]]], members: list[list[int]],
                  hand_reader: HandReader | None) -> list[int]:
    """Let ``hand_reader`` choose among each tile's readings (``members``: the
    positions in each block); put the chosen one first (in place) and return the
    positions whose reading changed."""
    if hand_reader is None or not readings:
        return []
    view = _bonus_set_apart(readings, members)
    chosen = hand_reader([[view[n] for n in m] for m in members])
    if chosen is None:
        return []
    changed = []
    for m, codes in zip(members, chosen, strict=True):
        for n, code in zip(m, codes, strict=True):
            if code != readings[n][0][0]:
                readings[n].sort(key=lambda option: option[0] != code)
                changed.append(n)
    return sorted(changed)


def _winning_faces(readings: list[list[tuple[str, float]]], members: list[list[int]],
                   hand_alternatives: HandAlternatives | None) -> dict[int, tuple[str, ...]]:
    """For each position, the other faces that ``hand_alternatives`` says would
    also make a winning hand; empty when it cannot say."""
    if hand_alternatives is None or not readings:
        return {}
    view = _bonus_set_apart(readings, members)
    says = hand_alternatives([[view[n] for n in m] for m in members], LOW_CONFIDENCE)
    if says is None:
        return {}
    return {n: faces for m, block in zip(members, says, strict=True)
            for n, faces in zip(m, block, strict=True)}


def _bonus_set_apart(readings: list[list[tuple[str, float]]], members: list[list[int]]
                     ) -> list[list[tuple[str, float]]]:
    """The readings as the hand weighs them: on a tile read as a flower or a season
    that lies in a run of playing tiles (two or more), each playing face counts
    1 / :data:`BONUS_IN_RUN` times as likely against it (at most as likely).

    Why: players set their flowers and seasons apart from the hand, so a playing
    tile of an unseen set read as a flower (a 5 characters read as the bamboo
    at 0.70, its own face at 0.002, between 6 and 7 characters) is more likely a
    playing tile than the classifier alone says; weighed so, its faces come
    within the hand reader's reach (:data:`scoring.likely_hand.MIN_PROBABILITY`),
    and the hand says which one wins. The first reading stays first, with its
    own probability, so a hand that wins as read is read so, and the tiles show
    the classifier's figures: a set laid out in rows for a photo has its
    flowers among the other tiles (real-dev photo 4), and weighing what the
    page shows turned them into white dragons."""
    view = [list(options) for options in readings]
    for block in members:
        playing = [n for n in block if readings[n][0][0] not in BONUS_CODES]
        if len(playing) < 2:
            continue
        for n in block:
            first, p0 = readings[n][0]
            if first not in BONUS_CODES:
                continue
            rest = [(c, p if c in BONUS_CODES else min(p0, p / BONUS_IN_RUN))
                    for c, p in readings[n][1:]]
            view[n] = [(first, p0), *sorted(rest, key=lambda cp: -cp[1])]
    return view


def _members(blocks: Sequence[int]) -> list[list[int]]:
    """The positions in each block, blocks in the order of their ids."""
    return [[n for n, b in enumerate(blocks) if b == block] for block in sorted(set(blocks))]


TURN_TRUST = 0.6
"""How much a face's readings as cut count against its readings turned a quarter,
for a face that the segmenter was unsure it saw turned (``TileQuad.turn_unsure``)."""


def _either_way(as_cut: Sequence[tuple[str, float]], turned: Sequence[tuple[str, float]]
                ) -> list[tuple[str, float]]:
    """One face's readings, as cut and turned a quarter, weighed together.

    Why read a face both ways: one cut a little wider than tall may be a tile
    turned sideways or an upright one with a sliver of its neighbour (in a photo
    taken at an angle, upright faces are nearly square), and the crop turned the
    wrong way reads as another tile (a 7 bamboo as 9 dots, a 2 dots as 4). The
    crop's own confidence cannot say which way is right (a 9 bamboo turned
    reads as 9 dots as surely as it reads as itself), so both readings go to the
    hand reader, the segmenter's way first unless the other is much surer
    (:data:`TURN_TRUST`). When the two ways disagree, no reading reaches
    ``LOW_CONFIDENCE`` and the tile is marked for the player to check; when they
    agree, the tile is as sure as either."""
    p: dict[str, float] = {}
    for readings, weight in ((as_cut, TURN_TRUST), (turned, 1 - TURN_TRUST)):
        for code, prob in readings:
            p[code] = p.get(code, 0.0) + weight * prob
    return sorted(p.items(), key=lambda cp: -cp[1])


def _no_backs_of_faces_colour(ranking: dict[int, list[tuple[str, float]]],
                              crops: Sequence[np.ndarray], blank: set[int]) -> None:
    """Drop the reading "back" (in place) from face-up tiles of the faces' colour.

    Why: the classifier normalises each crop's brightness, so a blank face (a
    Japanese set's white dragon) and a plain back look alike to it; their colour
    tells them apart (:mod:`vision.backs`). The faces' colour is the median of the
    other face-up tiles'; the tiles in ``blank`` the segmenter found of that
    colour already. The remaining readings are renormalised (they are the
    classifier's, given that the tile is not a back)."""
    doubted = [i for i, r in ranking.items() if i in blank or (r and r[0][0] == "back")]
    if not doubted:
        return
    others = [crop_colour(crops[i]) for i in ranking if i not in doubted and i not in blank]
    faces = np.median(np.array(others), axis=0) if len(others) >= 2 else None
    for i in doubted:
        rest = [(c, p) for c, p in ranking[i] if c != "back"]
        total = sum(p for _, p in rest)
        if total > 0 and (i in blank or has_faces_colour(crop_colour(crops[i]), faces)):
            ranking[i] = [(c, p / total) for c, p in rest]


def _likelier(code: str, a: Sequence[tuple[str, float]], b: Sequence[tuple[str, float]]
              ) -> bool:
    """Whether readings ``a`` give ``code`` a higher probability than readings ``b``."""
    return dict(a).get(code, 0.0) > dict(b).get(code, 0.0)


_CropReading = tuple[_Guess, float, list[tuple[str, float]]]
_Memo = dict[bytes, _CropReading]
"""One photo's crops already read (:func:`_classify`), by their pixels."""


def _classify(classifier: Classifier, crops: Sequence[np.ndarray], memo: _Memo
              ) -> tuple[list[_Guess], list[float], list[list[tuple[str, float]]]]:
    """:func:`_classify_new` for the crops not in ``memo`` (which it then holds too).

    Why: a photo whose count is wrong is read again with another cut
    (:func:`recognize`), which changes one run's quads or drops a back; every
    other crop is the same pixels, and its reading would be the same."""
    keys = [repr(c.shape).encode() + hashlib.blake2b(c.tobytes(), digest_size=16).digest()
            for c in crops]
    new = {k: c for k, c in zip(keys, crops, strict=True) if k not in memo}  # (one per key)
    if new:
        guesses, sure, ranked = _classify_new(classifier, list(new.values()))
        memo.update(zip(new, zip(guesses, sure, ranked, strict=True), strict=True))
    read = [memo[k] for k in keys]
    # (the readings copied: the hand reader sorts them in place)
    return [r[0] for r in read], [r[1] for r in read], [list(r[2]) for r in read]


def _classify_new(classifier: Classifier, crops: Sequence[np.ndarray]
                  ) -> tuple[list[_Guess], list[float], list[list[tuple[str, float]]]]:
    """The classifier's guesses, how sure it is of each tile's way up (0..1), and
    each tile's possible readings (code, probability; most probable first, no
    ``none``).

    Many faces look the same upside down (2, 4, 6, 8 dots or bamboo): their
    votes on whether the photo was taken from across the table are noise, and
    the model says so with an orientation probability near one half. The
    bundled classifier exposes its probabilities, so the model runs once for
    both, and the readings are all its labels: the right one is not always
    among the first three (an unseen set's flower read as 1 bamboo, red
    dragon, east, and only then plum). Given them all, the hand reader read 4
    more of the 200 benchmark hands exactly (87.5 against 85.5 %), and as many
    of the 120 dev-set hands (85.0 %).
    """
    if not crops:
        return [], [], []
    probabilities = getattr(classifier, "probabilities", None)
    labels = getattr(classifier, "labels", None)
    if probabilities is None or labels is None:
        guesses = list(classifier.classify(crops, rgb=True))
        ranked = [[(a.code, float(a.probability)) for a in g.top3 if a.code != "none"]
                  for g in guesses]
        return guesses, [g.confidence for g in guesses], ranked
    from vision.classify import guess

    probs, p_up = probabilities(crops, rgb=True)
    out: list[_Guess] = [guess(labels, p, 180 if up > 0.5 else 0)
                         for p, up in zip(probs, p_up, strict=True)]
    ranked = [[(labels[j], float(p[j])) for j in np.argsort(-p) if labels[j] != "none"]
              for p in probs]
    return out, [float(abs(up - 0.5) * 2) for up in p_up], ranked


def _groups(tiles: Sequence[RecognizedTile]) -> list[Group]:
    """Blocks -> groups: all-bonus blocks are bonus; the concealed hand is the block
    of 3n+2 playing tiles (melds have 3 or 4: with four melds it is the pair beside
    them), the longest one if several or none are; the rest are melds."""
    blocks: dict[int, list[RecognizedTile]] = {}
    for t in tiles:
        blocks.setdefault(t.group, []).append(t)
    playing = {b: sum(t.code not in BONUS_CODES for t in ts) for b, ts in blocks.items()}
    candidates = [b for b, n in playing.items() if n]
    concealed = max(candidates, key=lambda b: (playing[b] % 3 == 2, len(blocks[b]), -b),
                    default=None)
    groups = []
    for gid, (b, ts) in enumerate(sorted(blocks.items())):
        kind = ("bonus" if not playing[b] else "concealed" if b == concealed else "meld")
        groups.append(Group(gid, ts[0].row, kind, tuple(t.index for t in ts)))
    return groups


def _regroup(t: RecognizedTile, groups: Sequence[Group]) -> RecognizedTile:
    gid = next(g.id for g in groups if t.index in g.tiles)
    return replace(t, group=gid)


def _warnings(tiles: Sequence[RecognizedTile], groups: Sequence[Group], seg: Segmentation,
              keep: Sequence[int], order: Sequence[Any], changed: Sequence[int]) -> list[Warning]:
    out: list[Warning] = []
    if changed:
        out.append(Warning("read_as_winning_hand", f"{len(changed)} tile(s) were read as their "
                           "next most likely face, which makes a winning hand: check them.",
                           tuple(changed)))
    position = {keep[p.tile]: n for n, p in enumerate(order)}
    cut = sorted(position[i] for i in seg.cut_by_edge if i in position)
    if cut:
        out.append(Warning("cut_by_edge", f"{len(cut)} tile(s) touch the photo's edge and may "
                           "be cut off: leave a margin around the hand.", tuple(cut)))
    low = [t.index for t in tiles if t.low_confidence]
    if low:
        out.append(Warning("low_confidence", f"{len(low)} tile(s) are hard to read: check "
                           "them.", tuple(low)))
    playing = [t for t in tiles if t.code not in BONUS_CODES]
    kongs = sum(1 for g in groups if g.kind == "meld" and len(g.tiles) == 4)
    expected = 14 + kongs
    if len(playing) != expected:
        out.append(Warning("tile_count", f"Found {len(playing)} playing tiles; a winning hand "
                           f"with {kongs} kong(s) has {expected}: a tile may be missing, "
                           "hidden or extra.", ()))
    elif stray := stray_backs(tiles, groups):
        out.append(Warning("tile_count", f"{len(stray)} face-down tile(s) that are not a "
                           "kong's two backs: a tile beside them may be missing or hidden, or "
                           "a shadow taken for a tile.", tuple(stray)))
    return out


def kong_pairs(tiles: Sequence[RecognizedTile], groups: Sequence[Group]
               ) -> list[tuple[list[int], list[int]]]:
    """Groups that are a concealed kong with one back or both lost: two faces of one
    tile side by side, alone or with one back at an end (its faces' and backs' tile
    indices).

    Why: a concealed kong lies as back, face, face, back, and a back of the
    table's colour or near it (blue backs on a blue checked cloth, yellow ones on
    a pale yellow-green table) is not told from the table, so the hand comes out
    two tiles short with a pair set apart (fresh-22 38028, 38106). No meld is two
    tiles: a pair on its own is the kong's middle, and the hand's count, right
    once the backs are there, says so (:func:`recognize`)."""
    out = []
    for g in groups:
        faces = [i for i in g.tiles if not tiles[i].face_down]
        backs = [i for i in g.tiles if tiles[i].face_down]
        codes = {tiles[i].code for i in faces}
        if (len(faces) == 2 and len(codes) == 1 and not codes & (BONUS_CODES | {"back", "none"})
                and not any(tiles[i].sideways for i in faces)
                and len(backs) <= 1 and set(backs) <= {g.tiles[0], g.tiles[-1]}):
            out.append((faces, backs))
    return out


def table_backs(tiles: Sequence[RecognizedTile], groups: Sequence[Group]) -> list[int]:
    """Face-down tiles that are a patch of the table: the one back, at an end, of a
    group of four whose other three tiles are one tile.

    Why: a gap of a dark table between the concealed tiles and a pung is a
    face-sized dark patch beside a run, where a back would lie, and was read as
    one: "back, 8, 8, 8 characters", a kong that no player lays (a kong shows
    two backs, or none) with the hand's count right (fresh-12 20041, fresh-17
    28059). Without it the three are a pung."""
    out = []
    for g in groups:
        backs = [i for i in g.tiles if tiles[i].face_down]
        faces = {tiles[i].code for i in g.tiles if not tiles[i].face_down}
        if (len(g.tiles) == 4 and len(backs) == 1 and backs[0] in (g.tiles[0], g.tiles[-1])
                and len(faces) == 1 and "back" not in faces):
            out += backs
    return out


def stray_backs(tiles: Sequence[RecognizedTile], groups: Sequence[Group]) -> list[int]:
    """Face-down tiles that are not a kong's backs: in a group that is not four
    tiles long, or one of four with one or three backs.

    Why: a tile lies face down only in a concealed kong, shown as four tiles
    with two of them (or all four) face down. With one of its backs lost
    (against a table of its colour) and another tile missed elsewhere, the
    count can still come out right: a kong read as "red dragon, red dragon,
    back" made a 14-tile hand with no warning at all (generated scene 19067).
    So did a patch of a dark table in the gap before a pung, taken for a back:
    "back, 8, 8, 8 characters" was a kong, and the hand's count right (fresh-12
    20041). A back is a tile the segmenter found face down or the classifier
    read as a back (a kong's two backs, one of each: fresh-12 20173)."""
    out = []
    for g in groups:
        backs = [i for i in g.tiles if tiles[i].face_down or tiles[i].code == "back"]
        if backs and (len(g.tiles) != 4 or len(backs) % 2):
            out += backs
    return out
