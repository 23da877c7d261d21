"""Find every tile face in a photo, including tiles that touch their neighbours.

Why not plain contours: in a hand the tiles touch, so the light faces merge into
one blob per row (or one blob per grid of rows). Each blob is therefore cut
using the regularity of a row of tiles, in three modules:

1. :mod:`vision.face_mask`: light, unsaturated pixels unlike the table, closed
   and their holes filled, one blob per run of touching tiles;
2. :mod:`vision.seams`: each blob turned upright along its long axis and cut at
   the seams between its faces, at a pitch that fits the seams and the face's
   aspect (a grid's rows also weigh the seams all rows share);
3. :mod:`vision.face_down`: the face-down tiles that continue a run.

This module then judges the cuts by the photo's own face (size and aspect,
from its long runs): a meld is cut again at the hand's aspect and at its face's
pitch (ink drawn in columns repeats faster than faces), a sliver joins its
neighbour, a lone tile crossed by ink stays one tile, a run of cells under half
a face is pieces of one and is dropped; a short run's second best cut into
another number of tiles, when nearly as good, is kept beside the first
(:class:`OtherCut`) for the hand's count to choose (:mod:`vision.mend`).

All of it runs on a copy scaled to :data:`WORK_SIDE` pixels (or a little over:
:data:`WORK_SLACK`); quadrilaterals are returned in the input image's pixels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

import cv2
import numpy as np

from vision.face_down import Plain, with_face_down
from vision.face_mask import FACE_ASPECT, face_mask, find_blobs, ink_bays_closed
from vision.rectify import side_lengths
from vision.seams import OTHER_CUT_RUN, Strip, cut_strip, upright_strip, without_side

WORK_SIDE = 1000
"""Longest side of the working copy (pixels): tiles stay >= ~25 px wide in a hand photo."""
WORK_SLACK = 1.05
"""The working copy may be up to this much over :data:`WORK_SIDE` when the photo then
shrinks by a whole number (:func:`_work_scale`): OpenCV's area mean takes a fast path at
a whole ratio. A 12-MP phone photo is decoded at 2016 px (``vision.photo``): halved to
1008 px in 0.5 ms, against 10 ms to 1000 px."""
DETAIL_BELOW_PX = 55
"""Runs of faces shorter than this (working pixels) are cut on a sharper copy."""
SURELY_TURNED = 1.3
"""Faces cut between :data:`vision.seams.TURNED` and this much wider than tall may be
turned tiles or upright ones: a photo taken at an angle makes upright faces nearly square (0.94 at
35 degrees), and a face cut with a sliver of its neighbour is then as wide as
1.2 times its height. Such faces are marked ``turn_unsure`` and read both ways
(``vision/recognize.py``)."""
WIDTH_SHRINK = 0.5
"""How fast (in log) a face's width shrinks with depth against its height. Farther faces
are seen more slantwise as well as smaller, so their height shrinks faster than their
width (the dev set's 34° photo: 0.66 and 0.84; the square root of the height's factor
gives 0.81)."""
SIZE_OUTLIER = 0.5
"""A face whose height is this far (log units) from the photo's median is a miscut one,
left out of the fit of the size on the depth (a 34° photo's far faces: 0.4)."""
SHARED_SIZE = 0.15
"""How far (log) a run's face width or height may be from another's for the two to
share a size."""
SEAMED_VOTE = 1.5
"""How much a face of a run cut at seams counts in the vote on the photo's face size
(:func:`_sharing_size`), against 1 for a run whose seams are faint: between the 7/6
that lets two melds of three cut at seams outvote a run of seven cut at none, and
the 2 at which three cells of a meld cut wrong tie with a steep photo's run of eight."""
NO_SEAMS = -0.1
"""A run's seam score (:func:`vision.seams.cut_strip`) under which its cuts found no seams: its
cells say nothing of the photo's face size (:func:`_sharing_size`). Runs of a hand
cut right but with faint seams score -0.04 to 0; specks of a patterned table
read as runs, -0.24 to -0.35."""
MISFIT = 0.6
"""A run whose best reading is this far from the photo's face size (:func:`_size_penalty`)
is cut again at the face's pitch, however many cells that reading has: a chow of
dots read as the grid of its circles (36 cells) was otherwise left so, and lost;
so was a kong of 8 dots read as six faces 0.7 as wide as the photo's (0.71;
fresh-12 20036, at 1.0 before)."""
LONE_SIDE = (0.15, 0.5)
"""How much taller (log units) than the photo's face a lone tile's one cell may be
for its near end to be taken for the tile's side (:func:`_face_and_side`): a
side shows a third to a half of a face's height from 30° to 45° of tilt (a
tile is half as thick as it is high); past 0.5 the cell is two faces."""
LONE_WIDTH = 0.2
"""...and how close (log units) its width must be to the photo's face width."""
SLIVER = 0.7
"""A face narrower than this share of its row's face width is a fragment of a cut."""
FACE_WIDE = 0.85
"""Share of the photo's face width (at its depth) that a face needs to be no sliver,
however tall (:func:`_merge_slivers`); a lone tile cut across its ink gives two
cells of about 0.7."""
FRAGMENT = 0.5
"""A run whose cells are all under this share of the photo's face height is not tiles."""
OTHER_CUT = 0.3
"""How close (in seam score less size penalty) a second way to cut a run, into
another number of tiles, must come to the best to be kept beside it
(:class:`OtherCut`). At 0.6 it mended nothing more on ten generated sets and
lost a tile of one hand."""


@dataclass(frozen=True)
class TileQuad:
    """One tile face found in the image.

    ``corners`` are TL, TR, BR, BL in the frame of the tile's row (the row's
    long axis is left-to-right; whether that is the player's left is decided
    later by :mod:`vision.group`), in the input image's pixels.
    """

    corners: np.ndarray  # (4, 2) float64
    blob: int  # index of the run of touching tiles the quad was cut from
    line: int  # row within the blob (grids have several)
    sideways: bool  # a face wider than tall (a turned tile in a meld)
    face_down: bool = False  # the tile's back, beside a run of faces (a concealed kong)
    turn_unsure: bool = False  # only a little wider than tall: may be upright, read both ways
    blank: bool = False  # plain, of the faces' colour, beside a run: a blank face (vision.backs)

    @property
    def centre(self) -> np.ndarray:
        c: np.ndarray = self.corners.mean(axis=0)
        return c

    @property
    def height(self) -> float:
        """Length of the face along the row's up direction (pixels)."""
        return side_lengths(self.corners)[1]

    @property
    def width(self) -> float:
        return side_lengths(self.corners)[0]


@dataclass(frozen=True)
class OtherCut:
    """A second way to cut one run of touching faces into another number of
    tiles, nearly as likely by its seams and sizes as the one taken
    (:data:`OTHER_CUT`): when the first leaves the hand a tile short or over,
    the hand's count says which is right (:func:`vision.recognize.recognize`,
    :func:`vision.mend.with_other_cut`)."""

    blob: int  # the run (``TileQuad.blob``)
    quads: tuple[TileQuad, ...]


@dataclass(frozen=True)
class Segmentation:
    """All tiles found, and where the faces touch the photo's border."""

    quads: tuple[TileQuad, ...]
    image_size: tuple[int, int]  # (width, height) of the input image
    cut_by_edge: tuple[int, ...]  # indices into ``quads`` of faces touching the border
    border: float = 0.0  # how near the border (image pixels) a face touches it
    other_cuts: tuple[OtherCut, ...] = ()


def touching_border(quads: Sequence[TileQuad], size: tuple[int, int], border: float
                     ) -> tuple[int, ...]:
    """Indices of the quads within ``border`` pixels of the image's edge."""
    w, h = size
    return tuple(i for i, q in enumerate(quads)
                 if (q.corners[:, 0].min() < border or q.corners[:, 1].min() < border
                     or q.corners[:, 0].max() > w - 1 - border
                     or q.corners[:, 1].max() > h - 1 - border))


def drop_duplicates(quads: list[TileQuad]) -> list[TileQuad]:
    """A back found from both sides of a concealed kong is one tile."""
    out: list[TileQuad] = []
    centres: list[np.ndarray] = []
    widths: list[float] = []
    for q in quads:
        c, w = q.centre, q.width
        if centres:
            near = np.linalg.norm(np.array(centres) - c, axis=1) < 0.35 * np.minimum(
                np.array(widths), w)
            if near.any():
                continue
        out.append(q)
        centres.append(c)
        widths.append(w)
    return out


def _sharper(image: np.ndarray, contour: np.ndarray, scale: float, detail: float,
             inside: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The blob's region from the full image at ``detail`` x the working scale: gray,
    blob mask, contour, and the homography back to working pixels."""
    x, y, bw, bh = cv2.boundingRect(contour)
    pad = 4 if inside else 0
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = x + bw + pad, y + bh + pad
    h, w = image.shape[:2]
    ox0, oy0 = int(x0 / scale), int(y0 / scale)
    ox1, oy1 = min(w, int(np.ceil(x1 / scale))), min(h, int(np.ceil(y1 / scale)))
    size = (max(1, round((x1 - x0) * detail)), max(1, round((y1 - y0) * detail)))
    region = cv2.resize(image[oy0:oy1, ox0:ox1], size, interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(region, cv2.COLOR_RGB2GRAY)
    fine = ((contour.astype(np.float64) - [x0, y0]) * detail).round().astype(np.int32)
    mask = np.zeros(gray.shape, np.uint8)
    cv2.drawContours(mask, [fine], -1, 255, -1)
    back = np.array([[1 / detail, 0, x0], [0, 1 / detail, y0], [0, 0, 1]], np.float64)
    return gray, mask, fine, back


@dataclass(frozen=True)
class _Reading:
    """One way of cutting a blob into faces (along its long axis, or across it)."""

    cut: list[tuple[np.ndarray, int, bool]]  # strip-pixel quads, line, sideways
    score: float
    strip: Strip
    with_side: bool = False  # one cell, a face and its tile's side (:func:`_face_and_side`)
    other_count: list[tuple[np.ndarray, int, bool]] | None = None
    """A long row cut into one face fewer or more (:func:`vision.seams.cut_strip`): its
    other cut."""

    @property
    def lines(self) -> int:
        """How many rows of faces the blob is read as (1: a row, more: a grid)."""
        return len({line for _, line, _ in self.cut})

    @cached_property
    def _corners(self) -> list[np.ndarray]:
        """Each face's corners in working pixels (strips differ in scale); worked out
        once, as a reading's sizes are asked for by each judge of the cut."""
        return [self.strip.to_working(corners) for corners, _, _ in self.cut]

    def sizes(self) -> list[tuple[float, float, bool]]:
        """Width and height of each face in working pixels."""
        out = []
        for p, (_, _, sideways) in zip(self._corners, self.cut, strict=True):
            w = (np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[3])) / 2
            h = (np.linalg.norm(p[3] - p[0]) + np.linalg.norm(p[2] - p[1])) / 2
            out.append((float(w), float(h), sideways))
        return out

    def depths(self) -> list[float]:
        """Each face's centre row in working pixels: how far from the camera it lies."""
        return [float(p[:, 1].mean()) for p in self._corners]

    def upright(self) -> list[tuple[float, float, float]]:
        """Width, height and centre row (working pixels) of each face not turned: what
        the reading says of the photo's face size."""
        return [(w, h, y) for (w, h, sideways), y in zip(self.sizes(), self.depths(),
                                                         strict=True) if not sideways]


@dataclass(frozen=True)
class _FaceSize:
    """The photo's typical upright face (working pixels), learnt from its longest runs,
    and how it shrinks towards the top of the photo (away from the camera)."""

    width: float
    height: float
    row: float = 0.0  # the working-pixel row where the face is width x height
    shrink: float = 0.0  # d log(size) / d row
    from_rows: bool = False  # learnt from rows (a grid's cells then judged too)

    @property
    def aspect(self) -> float:
        return self.width / self.height

    def at(self, row: float) -> tuple[float, float]:
        """The face's width and height at this row of the photo (:data:`WIDTH_SHRINK`)."""
        s = float(np.clip(np.exp(self.shrink * (row - self.row)), 0.5, 2.0))
        return self.width * s ** WIDTH_SHRINK, self.height * s


def _face_size(readings: list[_Reading]) -> _FaceSize | None:
    """Median upright face of the runs of three or more faces (a hand always has one):
    single tiles and fragments are then judged against it.

    A photo taken at an angle shows the melds laid behind the hand smaller (their
    faces 52-55 px high against the hand's 79 in a 34° photo of the dev set), so
    when such runs lie at different depths the size follows the row in the photo
    (their heights' log fitted on their rows); the runs' heights are right even
    when a run is cut at the wrong pitch, but not when it is cut across its
    height, so such faces (:data:`SIZE_OUTLIER`) are left out of that fit.

    The median face is that of the rows whose cuts found seams (score above 0)
    when they have three faces and a quarter of all: a run read at a wrong pitch
    (7 narrow faces for 5, no seam at its cuts) outvoted two melds read right,
    and every short run was then cut at its narrow aspect (seen in development
    scene 161 as a change of its mask left it; fresh scene 4021: 1 tile missed
    with this, 7 missed and 15 extra outlines before). Not fewer: in a 42° photo
    whose long run has faint seams (a score under 0), three cells of a meld cut
    wrong were the only faces with seams (3 of 14), and a bonus tile was cut in
    two at their width. The hand's aspect (:func:`_strip_aspect`) still comes
    from every long run: with only the runs with seams, that photo's melds were
    cut at the upright aspect."""
    def faces_of(runs: list[_Reading]) -> list[tuple[float, float, float]]:
        return [face for r in runs if len(r.cut) >= 3 for face in r.upright()]

    # Rows, when there are any: the dots of a dense 5 or 6 dots repeat like a grid of
    # tiny faces, and one run read so (14 cells, development scene 161) outvoted the
    # photo's melds; a close-up of a set laid in a grid has only grids.
    faces = faces_of([r for r in readings if r.lines == 1])
    from_rows = len(faces) >= 3
    if not from_rows:
        faces = faces_of(readings)
    if len(faces) < 3:
        return None
    every_face = faces
    shared = _sharing_size([r for r in readings if r.lines == 1 or not from_rows],
                            _shrink(faces, float(np.median([f[1] for f in faces]))))
    if len(faces_of(shared)) >= 3:
        readings, faces = shared, faces_of(shared)
    sure = faces_of([r for r in readings if r.lines == 1 and r.score > 0])
    w, h, row = np.median(np.array(sure if len(sure) >= max(3, len(faces) / 4) else faces),
                          axis=0)
    aspect = float(np.clip(w / h, 0.5, 1.4))
    return _FaceSize(aspect * float(h), float(h), float(row), _shrink(every_face, float(h)),
                     from_rows)


def _shrink(faces: list[tuple[float, float, float]], height: float) -> float:
    """How the faces' height (log) changes with their row, fitted on the faces about
    ``height`` high (width, height, row each), when they lie at different depths."""
    near = np.array([f for f in faces if abs(np.log(f[1] / height)) < SIZE_OUTLIER])
    if len(near) >= 6 and np.ptp(near[:, 2]) > 0.5 * height:
        return float(np.polyfit(near[:, 2], np.log(near[:, 1]), 1)[0])
    return 0.0


def _sharing_size(runs: list[_Reading], shrink: float) -> list[_Reading]:
    """The runs whose faces share the size that most faces share.

    Every run of two faces or more says how large its faces are, and a photo's faces
    are all one size (once their depth is allowed for: ``shrink``, as
    :meth:`_FaceSize.at`). A run cut at its ink says another size, but it says it
    alone: three 9 bamboos cut in four at the gaps between their columns of sticks
    (even cells with seams between them) set the photo's face width by the
    faces' median, and the rest of the hand was judged too wide (fresh-10 15132,
    fresh-12 20036, fresh-14 24047); so did a run whose faces kept their pale
    sides, and were taller. So the size is the one that the most faces share
    (within :data:`SHARED_SIZE` of it in width and height; a tie goes to more
    faces), a face of a run cut at seams (a score above 0) counting more
    (:data:`SEAMED_VOTE`) and one of a run cut where no seams are
    (:data:`NO_SEAMS`) not at all: two short runs cut alike at their ink must
    not outvote a long run of a hand cut at its seams (real-10 16006), nor a
    patterned table's specks, read as runs of tiny cells, the hand (real-13
    21091); but a meld of three cut wrong at seams must not outvote a steep
    photo's long run of eight whose seams are faint (its score just under 0)."""
    sizes = []
    for r in runs:
        upright = r.upright()
        if len(r.cut) >= 2 and upright:
            w, h, y = np.median(np.array(upright), axis=0)
            sizes.append((np.log([w, h]) - shrink * y * np.array([WIDTH_SHRINK, 1.0]), r))
    if not sizes:
        return runs

    def sharing(size: np.ndarray) -> list[_Reading]:
        return [r for s, r in sizes if np.abs(s - size).max() < SHARED_SIZE]

    def votes(group: list[_Reading]) -> tuple[float, int]:
        return (sum(len(r.cut) * (SEAMED_VOTE if r.score > 0 else 1 if r.score > NO_SEAMS
                                  else 0) for r in group),
                sum(len(r.cut) for r in group))

    best = max((sharing(s) for s, _ in sizes), key=votes)
    return best if votes(best)[0] > 0 else runs


def _as_one_face(reading: _Reading, face: _FaceSize | None) -> _Reading | None:
    """The reading's two or three cells as one face, when together they are a face's size.

    A lone tile (a bonus tile set apart) has strong ink lines across it that look
    like seams; the photo's face size says it is one tile."""
    if face is None or not 2 <= len(reading.cut) <= 3 or any(sw for _, _, sw in reading.cut):
        return None
    pts = np.concatenate([c for c, _, _ in reading.cut])
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)
    one = _Reading([(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64),
                     reading.cut[0][1], False)], 0.0, reading.strip)
    (w, h, _), = one.sizes()
    fw, fh = face.at(one.depths()[0])
    if abs(np.log(w / fw)) > 0.25 or abs(np.log(h / fh)) > 0.25:
        return None
    aspect_err = abs(np.log((x1 - x0) / max(y1 - y0, 1e-3) / FACE_ASPECT))
    return _Reading(one.cut, 0.3 - 3 * aspect_err, reading.strip)


def _face_and_side(reading: _Reading, face: _FaceSize | None) -> _Reading | None:
    """A lone tile's one cell read as a face and its tile's side, when the cell is
    the photo's face width and taller than its face by about a side
    (:data:`LONE_SIDE`): its size is then judged by the face's width alone
    (:func:`_size_penalty`).

    A tile set apart (a bonus tile) shows its side along its near edge, the lower
    one in the photo; a side as pale and bright as the face leaves no step of
    shade for :func:`vision.seams._trim_sides` to find, so the one cell was a face and a
    half high, and the blob cut across its height as two turned tiles fitted
    the photo's face better (real-18 31035, 31125 and 31136: three bonus tiles
    set apart, each read as two). The outline keeps the side: cut to the
    photo's face height at the far end, it cut off the near end of a face
    that was taller (real-17 29021, an upside-down winter whose name was
    lost with it). A cell whose height lies across the photo is no tile
    standing on its side: a pair of bonus tiles read as one face turned
    (fresh-14 24087) is as wide as a face and a side is high."""
    if face is None or len(reading.cut) != 1 or reading.cut[0][2] or reading.with_side:
        return None
    (w, h, _), = reading.sizes()
    fw, fh = face.at(reading.depths()[0])
    if abs(np.log(w / fw)) > LONE_WIDTH or not LONE_SIDE[0] < np.log(h / fh) < LONE_SIDE[1]:
        return None
    p = reading.strip.to_working(reading.cut[0][0])
    down = p[2:].mean(axis=0) - p[:2].mean(axis=0)  # the cell's height, in the photo
    if abs(down[1]) < abs(down[0]):
        return None  # its height lies across the photo: a pair of faces side by side
    return replace(reading, with_side=True)


def _size_penalty(reading: _Reading, face: _FaceSize | None) -> float:
    """How far a short run's faces (six or fewer) are from the photo's face size (log units, x2).

    A lone tile cut across its height gives two cells of a plausible aspect, and
    its seam score alone cannot tell; their size can (so can a meld read as a grid
    of half-height faces). Long runs set the size and are not judged, unless the
    size comes from rows and the run is read as a grid (a run of dots read as a
    grid of its dots)."""
    if face is None or not reading.cut or (
            len(reading.cut) > 6 and not (reading.lines > 1 and face.from_rows)):
        return 0.0
    err = []
    for (w, h, sideways), row in zip(reading.sizes(), reading.depths(), strict=True):
        fw, fh = face.at(row)
        fw, fh = (fh, fw) if sideways else (fw, fh)
        tall = 0.0 if reading.with_side else abs(np.log(max(h, 1e-3) / fh))
        err.append(abs(np.log(max(w, 1e-3) / fw)) + tall)
    return 2.0 * float(np.mean(err))


def _turned_column(reading: _Reading) -> bool:
    """Whether a reading is a column of turned tiles, one per line."""
    return reading.lines == len(reading.cut) > 1 and all(sw for _, _, sw in reading.cut)


def _upright_rows_first(readings: list[_Reading]) -> list[_Reading]:
    """The readings, less those that read as a column of turned tiles, one per line,
    the cells that another reading reads as one row of as many upright faces.

    Both cut the blob at the same place, and differ only in which way the tiles
    stand: a hand lays its tiles upright in rows, and a column of tiles each turned
    on its own line is no way to lay one. The column had the better seam score
    for a concealed kong's two faces between its backs (real-8 12116, real-15
    25093): turned, the two 9 characters were read as flowers, and the backs,
    looked for beside a row only, were lost."""
    rows = {len(r.cut) for r in readings
            if r.lines == 1 and not any(sw for _, _, sw in r.cut)}
    return [r for r in readings if not (_turned_column(r) and len(r.cut) in rows)]


def _fragments(reading: _Reading, face: _FaceSize | None) -> bool:
    """Whether every cell of a run is under half the photo's face height either way.

    Such a run is pieces of a face that the mask broke apart (ink across a face in
    a shadow's edge), or specks: no tile in one photo of a hand is half the size of
    the hand's own faces (a 45° tilt changes the scale across a hand by far less)."""
    if face is None or not reading.cut:
        return False
    return all(max(w, h) < FRAGMENT * face.height for w, h, _ in reading.sizes())


def _merge_slivers(reading: _Reading, face: _FaceSize | None,
                   inside: bool) -> list[tuple[np.ndarray, int, bool]]:
    """Merge faces much narrower than the row's faces into a touching neighbour.

    A cut on a strong false seam (ink, a turned tile's edge) leaves a sliver
    next to a face; real faces in a row share their aspect, so a face under
    :data:`SLIVER` of the expected width (the photo's aspect x its own height)
    joins the narrower of its upright neighbours, or is dropped when it stands
    alone (never at the photo's edge, where faces are cut short).

    A face as wide as the photo's own faces where it lies (:data:`FACE_WIDE`) is
    no sliver: a pair of bonus tiles set apart kept their pale sides in the
    mask, so each face was half as tall again as a face and its width looked a
    sliver of that height, and the pair became one tile (fresh-12 20156,
    fresh-13 22038)."""
    cut = reading.cut
    if face is None or len(cut) < 1 or len({ln for _, ln, _ in cut}) != 1:
        return cut
    # (known by identity: a merged cell is a new array, judged by its aspect alone)
    wide = {id(c) for (c, _, _), (w, _, _), row
            in zip(cut, reading.sizes(), reading.depths(), strict=True)
            if w >= FACE_WIDE * face.at(row)[0]}
    cells = sorted(cut, key=lambda t: float(t[0][0, 0]))
    changed = True
    while changed:
        changed = False
        for i, (c, ln, sw) in enumerate(cells):
            w, h = c[1, 0] - c[0, 0], c[2, 1] - c[0, 1]
            if sw or w >= SLIVER * face.aspect * h or id(c) in wide:
                continue
            near = [j for j in (i - 1, i + 1) if 0 <= j < len(cells) and not cells[j][2]
                    and _gap(cells[min(i, j)][0], cells[max(i, j)][0]) <= 2]
            if not near:
                if len(cells) == 1 and inside:
                    return []
                continue
            j = min(near, key=lambda k: float(cells[k][0][1, 0] - cells[k][0][0, 0]))
            o = cells[j][0]
            x0, x1 = min(c[0, 0], o[0, 0]), max(c[1, 0], o[1, 0])
            y0, y1 = min(c[0, 1], o[0, 1]), max(c[2, 1], o[2, 1])
            merged = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64)
            cells[min(i, j)] = (merged, ln, False)
            del cells[max(i, j)]
            changed = True
            break
    return cells


@dataclass(frozen=True)
class _Source:
    """What a blob is cut on: gray and blob mask (working pixels or a sharper copy),
    the blob's outline there, and the homography back to working pixels."""

    gray: np.ndarray
    mask: np.ndarray
    contour: np.ndarray
    back: np.ndarray
    strips: dict[tuple[bool, bool], Strip] = field(default_factory=dict, compare=False,
                                                    repr=False)
    """The blob's upright strips by ``(transpose, refine)``, each rectified once: a short run
    is cut up to four times (at each aspect and pitch that :func:`segment`
    tries), on the same two strips."""


def _readings(src: _Source, inside: bool, aspect: float, at_aspect: bool = False,
              face_width: float | None = None) -> list[_Reading]:
    """The blob cut along its long axis, and across it unless that is plainly a row.

    ``at_aspect``: cut at the pitch of the photo's own face instead of the seams'
    period. Two or three faces have too few seams to show a period, and ink drawn
    in columns (a flower's stems, a bamboo tile's sticks) repeats at a third of a
    face: a bonus pair was cut into three cells, then merged into one tile. That
    pitch is ``aspect`` x the strip's height, or ``face_width`` (working pixels)
    when given: a strip that keeps the tiles' sides is taller than the faces, and
    a bonus pair at aspect x its height was one cell."""
    out = []
    for transpose in (False, True):
        if (transpose, inside) not in src.strips:
            src.strips[transpose, inside] = upright_strip(src.gray, src.mask, src.contour,
                                                           transpose, refine=inside)
        strip = src.strips[transpose, inside]
        to_image = src.back @ strip.to_image
        pitch = None if face_width is None else face_width / _strip_scale(strip, to_image)
        cut, score, other_count = cut_strip(strip, open_ends=not inside, aspect=aspect,
                                             at_aspect=at_aspect or pitch is not None,
                                             pitch=pitch)
        out.append(_Reading(cut, score, replace(strip, to_image=to_image),
                            other_count=other_count))
        if out[-1].lines == 1 and len(cut) >= 4:
            break  # one row along the blob's long axis: the usual hand, no doubt left
    return out


def _strip_scale(strip: Strip, to_image: np.ndarray) -> float:
    """Working pixels per strip pixel along the strip's rows, at its centre."""
    h, w = strip.mask.shape
    pts = np.array([[w / 2, h / 2, 1.0], [w / 2 + 1, h / 2, 1.0]]) @ to_image.T
    xy = pts[:, :2] / pts[:, 2:3]
    return max(float(np.linalg.norm(xy[1] - xy[0])), 1e-6)


def _wide(corners: np.ndarray) -> float:
    """Width / height of a face cut in its upright strip (axis-aligned corners)."""
    return float((corners[1, 0] - corners[0, 0]) / max(corners[2, 1] - corners[0, 1], 1e-3))


def _strip_aspect(readings: list[_Reading]) -> float | None:
    """Width / height of the upright faces of the photo's long runs, in their upright
    strips (a steep photo foreshortens them well past :data:`vision.face_mask.FACE_ASPECT`)."""
    ratios = [_wide(c) for r in readings if len(r.cut) >= 6 and r.lines == 1
              for c, _, sw in r.cut if not sw]
    if len(ratios) < 6:
        return None
    return float(np.clip(np.median(ratios), 0.5, 1.4))


def _gap(left: np.ndarray, right: np.ndarray) -> float:
    """Strip pixels between two faces of a row (0 when they touch)."""
    return abs(float(right[0, 0] - left[1, 0]))


def segment(image: np.ndarray, *, work_side: int = WORK_SIDE,
            max_faces: int | None = None) -> Segmentation:
    """Find the tile faces in an RGB image; quads are in the image's own pixels.

    With ``max_faces``, the runs stop being cut once their cells pass that many:
    the picture is a pattern (stripes, a grid), whose faces are not worth finding,
    and the cells cut so far are returned as they are, more than ``max_faces``
    (a picture of stripes 10 pixels wide, 800x600: 2 960 cells in 7-10 s on
    two cores, or the first 300 at once)."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an RGB uint8 image (H, W, 3), got {image.dtype} "
                         f"{image.shape}")
    h, w = image.shape[:2]
    scale = _work_scale(max(h, w), work_side)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA) if scale < 1 else image
    gray = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB).astype(np.float32)
    mask, table = face_mask(small, lab)
    quads: list[TileQuad] = []
    others: list[OtherCut] = []
    blobs: list[tuple[list[_Reading], bool, _Source]] = []
    depths: list[float] = []  # each blob's centre row (working pixels)
    best_readings: list[_Reading] = []  # each blob's likeliest reading, as first cut
    for contour in find_blobs(mask, lab, table):
        contour = ink_bays_closed(contour, lab, table)
        blob_mask = np.zeros_like(mask)
        cv2.drawContours(blob_mask, [contour], -1, 255, -1)
        # a blob cut by the photo's edge has no outline of its own to rectify with
        x, y, bw, bh = cv2.boundingRect(contour)
        inside = x > 1 and y > 1 and x + bw < mask.shape[1] - 1 and y + bh < mask.shape[0] - 1
        src = _Source(gray, blob_mask, contour, np.eye(3))
        (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
        detail = min(1 / scale, DETAIL_BELOW_PX / max(1.0, min(rw, rh)), 2.5)
        if detail > 1.2:  # small faces: cut them on a sharper copy of their region
            src = _Source(*_sharper(image, contour, scale, detail, inside))
        readings = _readings(src, inside, FACE_ASPECT)
        blobs.append((readings, inside, src))
        best_readings.append(max(readings, key=lambda x: x.score))
        depths.append(y + bh / 2)
        if max_faces is not None and sum(len(r.cut) for r in best_readings) > max_faces:
            return _pattern(best_readings, (w, h), scale)
    face = _face_size(best_readings)
    aspect = _strip_aspect(best_readings)
    for bi, (readings, inside, src) in enumerate(blobs):
        own = aspect if aspect is not None else face.aspect if face is not None else None
        if own is not None and (len(best_readings[bi].cut) <= 5
                                or _size_penalty(best_readings[bi], face) > MISFIT):
            # a short run (a meld) has too few seams to find its own pitch: cut it
            # again with the faces' aspect the hand shows in this photo, and at that
            # face's pitch (the photo's face size then judges the readings); so is
            # a run read as cells far from the photo's face (:data:`MISFIT`)
            if aspect is not None:
                readings = _readings(src, inside, aspect)
            readings = readings + _readings(src, inside, own, True)
            if face is not None:  # (two faces or more: a lone tile's own outline is right)
                readings = readings + [r for r in _readings(src, inside, own, True,
                                                            face.at(depths[bi])[0])
                                       if len(r.cut) >= 2]
        readings = readings + [o for r in readings if (o := _as_one_face(r, face)) is not None]
        readings = readings + [o for r in readings
                               if (o := _face_and_side(r, face)) is not None]
        readings = _upright_rows_first(readings)
        worth = {id(r): r.score - _size_penalty(r, face) for r in readings}
        ranked = sorted(readings, key=lambda r: worth[id(r)], reverse=True)
        best = ranked[0]
        if _fragments(best, face):
            continue
        quads += _tiles_of(best, bi, face, inside, lab, table, mask, scale)
        if len(best.cut) > OTHER_CUT_RUN:
            other = None if best.other_count is None else replace(best, cut=best.other_count)
        else:
            other = next((r for r in ranked[1:] if len(r.cut) != len(best.cut)
                          and worth[id(best)] - worth[id(r)] < OTHER_CUT
                          and not _fragments(r, face)), None)
        if other is not None and (alternative := _tiles_of(other, bi, face, inside, lab, table,
                                                           mask, scale)):
            others.append(OtherCut(bi, tuple(alternative)))
    quads = drop_duplicates(quads)
    border = 2.0 / scale
    return Segmentation(tuple(quads), (w, h), touching_border(quads, (w, h), border), border,
                        tuple(others))


def _pattern(readings: list[_Reading], size: tuple[int, int], scale: float) -> Segmentation:
    """The cells of the runs cut so far (each run's likeliest reading), as they were
    cut: a pattern's, to be counted and refused, not read (:func:`segment`'s
    ``max_faces``)."""
    quads = [TileQuad(r.strip.to_working(corners) / scale, bi, line, sideways)
             for bi, r in enumerate(readings) for corners, line, sideways in r.cut]
    return Segmentation(tuple(quads), size, ())


def _work_scale(side: int, work_side: int) -> float:
    """Working copy / photo: at most ``work_side`` pixels on the longest side, or a whole
    shrink that lands within :data:`WORK_SLACK` over it; never enlarged."""
    scale = min(1.0, work_side / side)
    whole = int(1 / scale)
    if whole >= 2 and side / whole <= work_side * WORK_SLACK:
        return 1 / whole
    return scale


def _tiles_of(reading: _Reading, blob: int, face: _FaceSize | None, inside: bool,
              lab: np.ndarray, table: np.ndarray, mask: np.ndarray, scale: float
              ) -> list[TileQuad]:
    """The tiles of one blob as ``reading`` cuts it (image pixels): slivers merged,
    face-down tiles beside a run found."""
    cut, strip = _merge_slivers(reading, face, inside), reading.strip
    if not cut:
        return []
    lines = {line for _, line, _ in cut}
    found: list[tuple[np.ndarray, int, bool, Plain]] = [(c, ln, sw, "") for c, ln, sw in cut]
    if len(lines) == 1 and len(cut) <= 14:  # a run of a hand: look for face-down tiles
        found = with_face_down(cut, strip, lab, table, mask)
    return [TileQuad(strip.to_working(corners if plain == "back" else
                                      without_side(corners, strip.face_rows)) / scale,
                     blob, line, sideways, plain == "back",
                     sideways and _wide(corners) < SURELY_TURNED, plain == "blank")
            for corners, line, sideways, plain in found]
