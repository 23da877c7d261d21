"""Other segmentations of the same photo, for a hand that does not count right.

Why: the segmenter cuts each run of faces on its own, but only the whole hand
says a cut was wrong (a tile short or over). :func:`vision.recognize.recognize`
then tries these, each made from the first segmentation: a run cut into the
other number of faces (:func:`with_other_cut`), a concealed kong's backs
(:func:`with_kong_backs`), a face lost in a gap of its row (:func:`face_gaps`)
or at a row's end (:func:`beyond_runs`), a tile set apart cut across its height
(:func:`crosswise_pairs`). Each is kept only when the hand then counts right.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.rectify import order_corners, side_lengths, sides
from vision.segment import OtherCut, Segmentation, TileQuad, drop_duplicates, touching_border

GAP_FACE = (0.6, 1.35)
"""A gap where a lost face may lie (:func:`face_gaps`) is this many faces wide along
the row (the faces beside it may have taken in part of the lost one)."""
GAP_ALIGN = 0.25
"""... and one's centre lies at most this share of a face's height off the other's row."""
GAP_SIZE = 0.15
"""... and their heights differ by at most this share: faces of one row."""
CROSSWISE = 45.0
"""Degrees off the photo's rows beyond which a run of two faces runs across them
(:func:`crosswise_pairs`)."""
BEYOND_FOUND = 0.75
"""A face beyond a row's end (:func:`beyond_runs`) is not tried where something was
found within this share of a step of its centre."""


def with_other_cut(seg: Segmentation, other: OtherCut) -> Segmentation:
    """``seg`` with the run ``other.blob`` cut the other way."""
    return _with_quads(seg, drop_duplicates([q for q in seg.quads if q.blob != other.blob]
                                             + list(other.quads)),
                       other_cuts=tuple(o for o in seg.other_cuts if o.blob != other.blob))


def with_kong_backs(seg: Segmentation, faces: Sequence[int], backs: Sequence[int] = ()
                    ) -> Segmentation | None:
    """``seg`` with a face-down tile added at each open end of a concealed kong's two
    faces (the quads at ``faces``, side by side; ``backs``: its backs already found),
    one pitch from them along their row; None when one would lie off the picture.

    The backs are the faces moved a pitch (the step between the two faces' centres):
    a kong's four tiles are one size and touch. What says a back lies there is the
    hand (:func:`vision.recognize.recognize`), not the pixels: a back of the
    table's colour, or of one near it, is what :func:`vision.face_down._plain_tile` could not tell
    from the table."""
    a, b = (seg.quads[i] for i in faces)
    step = b.centre - a.centre
    pitch = float(np.linalg.norm(step))
    if pitch == 0:
        return None
    w, h = seg.image_size
    found = [seg.quads[i].centre for i in backs]
    added = []
    for face, move in ((a, -step), (b, step)):
        corners = face.corners + move
        if any(np.linalg.norm(c - corners.mean(axis=0)) < pitch / 2 for c in found):
            continue  # this end's back was found
        if corners.min() < 0 or corners[:, 0].max() >= w or corners[:, 1].max() >= h:
            return None
        added.append(TileQuad(corners, face.blob, face.line, sideways=False, face_down=True))
    return _with_quads(seg, [*seg.quads, *added]) if added else None


def face_gaps(seg: Segmentation) -> list[tuple[int, int, np.ndarray]]:
    """Where a face the mask lost may lie (:func:`with_face_between`): two upright faces
    (indices into ``seg.quads``) of one row (:data:`GAP_SIZE`, :data:`GAP_ALIGN`) with
    a gap about one face wide between them (:data:`GAP_FACE`) and nothing found in it,
    and the corners of a face in that gap.

    Every upright face is paired with every other, so the faces' sizes and edges
    are measured once, as arrays: a photo of a whole set (144 faces) has twenty
    thousand pairs, and measuring each pair's quads again took seconds."""
    upright = [i for i, q in enumerate(seg.quads) if not q.sideways and not q.face_down]
    if not upright:
        return []
    centres = np.array([q.centre for q in seg.quads])
    corners = np.array([seg.quads[i].corners for i in upright], np.float64)  # (n, 4, 2)
    widths, heights = sides(corners)
    ends = (corners[:, 1] + corners[:, 2]) / 2  # the middle of each face's right edge
    starts = (corners[:, 0] + corners[:, 3]) / 2  # ... and of its left edge
    gaps = []
    for a_at, i in enumerate(upright):
        a = seg.quads[i]
        # the row's direction, and the faces of a's size (a face beside a gap may have
        # taken in part of it: its own width is no measure)
        along = a.corners[1] - a.corners[0] + a.corners[2] - a.corners[3]
        along /= max(float(np.linalg.norm(along)), 1e-9)
        same_size = np.abs(heights - heights[a_at]) <= GAP_SIZE * heights[a_at]
        width = float(np.median(widths[same_size]))
        gap = starts - ends[a_at]
        ahead = gap @ along
        off_row = np.abs(gap[:, 0] * along[1] - gap[:, 1] * along[0])
        pairs = np.flatnonzero(same_size & (GAP_FACE[0] * width <= ahead)
                               & (ahead <= GAP_FACE[1] * width)
                               & (off_row <= GAP_ALIGN * heights[a_at]))
        for b_at in pairs:
            j = upright[b_at]
            b = seg.quads[j]
            middle = (ends[a_at] + starts[b_at]) / 2
            if (np.linalg.norm(centres - middle, axis=1) < width / 2).any():
                continue  # something was found there
            offsets = (a.corners + b.corners) / 2 - (a.centre + b.centre) / 2
            across = offsets - np.outer(offsets @ along, along)
            half = np.outer(np.sign(offsets @ along) * width / 2, along)
            gaps.append((i, j, middle + across + half))
    return gaps


def with_face_between(seg: Segmentation, left: int, right: int, corners: np.ndarray
                      ) -> Segmentation:
    """``seg`` with a face at ``corners`` between the quads at ``left`` and ``right``
    (as :func:`face_gaps` found them), and the runs on either side made one.

    Why: a face drawn with ink nearly all over it (an 8 dots in large dark
    circles, the scanned set's 9 dots) leaves little light face for the mask,
    and the openings that clear specks off it clear that face too: the run
    then breaks at it, and the hand is a tile short with a face-wide gap in a
    row (real-49 49008, real-59 59068). A hand that does not count right has
    its gaps tried: a face there is kept when the classifier reads it surely
    as a tile and the hand then counts right (:func:`vision.recognize.recognize`;
    a patch of table is read as nothing, or as a tile unsurely)."""
    a, b = seg.quads[left], seg.quads[right]
    added = TileQuad(corners, a.blob, a.line, sideways=False)
    quads = [replace(q, blob=a.blob) if q.blob == b.blob else q for q in seg.quads]
    return _with_quads(seg, [*quads, added])


def crosswise_pairs(seg: Segmentation, right: np.ndarray) -> list[int]:
    """The runs (``TileQuad.blob``) that are two upright faces and nothing more, cut
    along a line that runs across the photo's rows (``right``, their direction:
    :func:`vision.group.reading_direction`) by more than :data:`CROSSWISE`
    degrees: one tile cut across its height, it may be (:func:`with_one_face`).

    Why: a tile set apart (a flower or a season) is a run of its own, and its
    face with the side below it is taller than wide: its long axis is taken
    for its row's, and a drawing in two parts (the scanned set's flowers: a
    name above, a plant below) can be cut there into two faces, each about as
    wide as a face is tall. They read as two bonus tiles, unsurely, and a hand
    does not count its bonus tiles, so nothing else shows it (real-52 52088,
    real-59 59046, real-63 63132, real-65 65118, real-67 67147)."""
    in_blob = Counter(q.blob for q in seg.quads)
    out = []
    for run in _upright_runs(seg):
        if len(run) != 2 or in_blob[seg.quads[run[0]].blob] != 2:
            continue
        a, b = (seg.quads[i] for i in run)
        along = b.centre - a.centre
        length = float(np.linalg.norm(along))
        if length > 0 and abs(float(along @ right)) < length * np.cos(np.radians(CROSSWISE)):
            out.append(a.blob)
    return out


def with_one_face(seg: Segmentation, blob: int, right: np.ndarray) -> Segmentation:
    """``seg`` with the two faces of run ``blob`` (:func:`crosswise_pairs`) made one,
    in the frame of the photo's rows (``right``), put last in ``seg.quads``. Which
    cut is right is for the classifier to say (:func:`vision.recognize.recognize`)."""
    run = [q for q in seg.quads if q.blob == blob]
    along = run[0].corners[1] - run[0].corners[0]
    first, last = sorted(run, key=lambda q: float(q.centre @ along))
    corners = order_corners(np.array([first.corners[0], last.corners[1], last.corners[2],
                                      first.corners[3]]), right)
    width, height = side_lengths(corners)
    face = TileQuad(corners, blob, first.line, sideways=width > height)
    return _with_quads(seg, [q for q in seg.quads if q.blob != blob] + [face])


def beyond_runs(seg: Segmentation) -> list[tuple[int, np.ndarray]]:
    """Where a face the mask lost may lie at the end of a row (:func:`with_faces`): for
    each end of each run of two upright faces or more, the end face (an index into
    ``seg.quads``) and the corners of a face one step beyond it along the run,
    where nothing was found and the picture goes on.

    The step is the one between the end face and its neighbour: faces of one
    row touch, and the perspective changes little over one face."""
    w, h = seg.image_size
    centres = np.array([q.centre for q in seg.quads])  # (read only when there are faces)
    out = []
    for run in _upright_runs(seg):
        if len(run) < 2:
            continue
        for end, inner in ((run[-1], run[-2]), (run[0], run[1])):
            face = seg.quads[end]
            step = face.centre - seg.quads[inner].centre
            corners = face.corners + step
            if (np.linalg.norm(centres - corners.mean(axis=0), axis=1)
                    < BEYOND_FOUND * float(np.linalg.norm(step))).any():
                continue  # something was found there
            if corners.min() < 0 or corners[:, 0].max() >= w or corners[:, 1].max() >= h:
                continue
            out.append((end, corners))
    return out


def with_faces(seg: Segmentation, added: Sequence[tuple[int, np.ndarray]]) -> Segmentation:
    """``seg`` with an upright face at each of ``added``'s corners, in the run of the
    face at its index (as :func:`beyond_runs` gives them), put last in ``seg.quads``.

    Why: a face drawn with ink nearly all over it (the scanned set's 7, 8 and
    9 dots, its 5 to 7 bamboos), or one in a darker part of the photo, may be
    left out of the face mask; at the end of a row nothing shows that it is
    missing but the hand's count (real-53 53090: a row's last three faces;
    real-55 55010: the last of a row of eight). A hand that does not count
    right has its rows' ends tried: a face there is kept when the classifier
    reads it surely as a tile (:func:`vision.recognize.recognize`; the table
    beyond a row is read as nothing, or as a tile unsurely)."""
    faces = [TileQuad(corners, seg.quads[end].blob, seg.quads[end].line, sideways=False)
             for end, corners in added]
    return _with_quads(seg, [*seg.quads, *faces])


def _upright_runs(seg: Segmentation) -> list[list[int]]:
    """The rows of touching faces (indices into ``seg.quads``, in order along the row)
    all of whose tiles are upright faces."""
    rows: dict[tuple[int, int], list[int]] = {}
    for i, q in enumerate(seg.quads):
        rows.setdefault((q.blob, q.line), []).append(i)
    out = []
    for members in rows.values():
        quads = [seg.quads[i] for i in members]
        if any(q.sideways or q.face_down or q.blank for q in quads):
            continue
        along = quads[0].corners[1] - quads[0].corners[0]
        out.append(sorted(members, key=lambda i: float(seg.quads[i].centre @ along)))
    return out


def without(seg: Segmentation, drop: Sequence[int]) -> Segmentation:
    """``seg`` without the quads at the indices ``drop``."""
    dropped = set(drop)
    return _with_quads(seg, [q for i, q in enumerate(seg.quads) if i not in dropped])


def _with_quads(seg: Segmentation, quads: Sequence[TileQuad],
                other_cuts: tuple[OtherCut, ...] | None = None) -> Segmentation:
    """``seg`` with other quads, and the faces touching the border found again."""
    return replace(seg, quads=tuple(quads),
                   cut_by_edge=touching_border(quads, seg.image_size, seg.border),
                   other_cuts=seg.other_cuts if other_cuts is None else other_cuts)
