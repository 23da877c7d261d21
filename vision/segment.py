"""Find every tile face in a photo, including tiles that touch their neighbours.

Why not plain contours: in a hand the tiles touch, so the light faces merge into
one blob per row (or one blob per grid of rows). Each blob is therefore cut
using the regularity of a row of tiles:

1. a *face mask* (light, unsaturated pixels unlike the table) is closed and its
   holes filled, giving one blob per run of touching tiles;
2. each blob is turned upright along its long axis (``cv2.minAreaRect``);
3. the seams between faces are dark in every pixel of the column that holds
   them, while a tile's ink is not, so a high percentile of the brightness of
   each column (row) peaks down at seams and hardly at ink (also in the faces'
   ink-free top and bottom margins, where abutting faces leave a notch);
4. the tile pitch is the period of that seam profile (autocorrelation), with
   the face aspect (about 3:4) as a prior when there are few seams; a long
   row checks its tile count against every aspect a tilt allows;
5. a dynamic programme places the cuts: near-regular widths (one turned tile
   in a meld is allowed to be a tile-height wide) at the strongest seams; the
   rows of a grid also weigh the seams all rows share (a grid's columns are in
   line, ink is not);
6. the photo's own face (size and aspect, from its long runs) then judges the
   short runs: a meld is cut again at the hand's aspect and at its face's pitch
   (ink drawn in columns repeats faster than faces), a sliver joins its
   neighbour, a lone tile crossed by ink stays one tile, a run of cells under
   half a face is pieces of one and is dropped; a short run's second best cut
   into another number of tiles, when nearly as good, is kept beside the
   first (:class:`OtherCut`) for the hand's count to choose.

All of it runs on a copy scaled to :data:`WORK_SIDE` pixels (or a little over:
:data:`WORK_SLACK`); quadrilaterals are returned in the input image's pixels.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from typing import Literal

import cv2
import numpy as np

from vision.backs import has_faces_colour, of_faces_colour
from vision.rectify import order_corners, side_lengths

WORK_SIDE = 1000
"""Longest side of the working copy (pixels): tiles stay >= ~25 px wide in a hand photo."""
WORK_SLACK = 1.05
"""The working copy may be up to this much over :data:`WORK_SIDE` when the photo then
shrinks by a whole number (:func:`_work_scale`): OpenCV's area mean takes a fast path at
a whole ratio. A 12-MP phone photo is decoded at 2016 px (``vision.photo``): halved to
1008 px in 0.5 ms, against 10 ms to 1000 px."""
FACE_ASPECT = 0.75
"""Width / height of an upright tile face (typical sets: 0.68-0.8)."""
SEAM_PERCENTILE = 93.0
"""A column is a seam when this share of it is dark: ink (even a bamboo stick) leaves
the face's margins light, a seam runs from edge to edge."""
SEAM_CHUNK = 120
"""Length (working pixels) of the pieces a long column is cut into for its seam profile."""
FACE_FLOOR = 90
"""Least lightness (V - S) of a face: faces are the lightest thing around, never mid-grey."""
SHADED_FLOOR = 60
"""... except in a deep shadow, where a face this light that stands out from the table
as faces do may join the faces found beside it (see :func:`_grown_into`)."""
FACE_MARGIN = 35
"""Lightness (V - S) within this of the lightest faces counts as a face."""
INK_RUN = 0.02
"""Longest median run (share of the photo's long side) of the darker pixels along
the photo's border for the border to be faces crossed by ink (a close-up): ink
and seams cross it in runs of 2-4 pixels of 1 000 in the real close-ups of
``real-dev``, 5 of 456 in the tests' drawn grid; a checked cloth's dark
squares in runs of a square (31 of 1 000, fresh-19 32163, whose light squares
were all taken for faces)."""
DETAIL_BELOW_PX = 55
"""Runs of faces shorter than this (working pixels) are cut on a sharper copy."""
MIN_TILE_PX = 10
"""A face narrower than this (working pixels) is noise, not a tile."""
TURNED = 1.1
"""A face cut this much wider than tall (in its upright strip) is a tile turned sideways."""
SURELY_TURNED = 1.3
"""Faces cut between :data:`TURNED` and this much wider than tall may be turned tiles or
upright ones: a photo taken at an angle makes upright faces nearly square (0.94 at
35 degrees), and a face cut with a sliver of its neighbour is then as wide as
1.2 times its height. Such faces are marked ``turn_unsure`` and read both ways
(``vision/recognize.py``)."""
STANDS_CLEAR = 40
"""V - S this much more above the table's darkest around a pixel than faces must stand
(``stands_out`` in :func:`_face_mask`) makes a face even below :data:`FACE_FLOOR`:
light falling off across a dark cloth leaves a row's far faces grey (V - S 74-84
against its lit faces' 198, fresh-12 scene 20118, four tiles lost) over a cloth
that is black there."""
CLEAR_AREA = 0.001
"""... in areas of at least this share of the photo (a face is about 0.3 %): a lit
face's ink, the edges of its strokes and dots, and bits of the tiles' pale sides
stand out from a dark table as much. Let in (with only the faces' hue asked of
them), they reshaped the runs' outlines: over the 14 scene sets 27 hands were
mended and 13 lost (a meld taller by its tiles' sides, cut askew: real-8 12094);
in areas only, 4 mended (fresh-12 20118 among them) and 1 lost."""
LIGHTER = 25
"""V - S this much above the table's median lightness near a pixel is a face, even in
the table's colour."""
FAINTER = 12
"""V - S this much above the table's median lightness near a pixel is a face where it
joins faces and has their hue (faces in shadow on a table of their colour)."""
FACE_HUE = 6.0
"""Distance in hue (Lab a, b) from the lightest faces, or from the faces found around it,
within which a faint pixel is a face."""
SEAM_BRIDGE = np.ones((5, 5), np.uint8)
"""A faint pixel apart from the table's hue this close to the faces found (a seam's
width away) touches them (:func:`_grown_into`)."""
FACES_AROUND = 0.1
"""Least share of the area around a faint pixel (about a tile wide) that faces
found must cover for their hue to count: a speck of the table taken for a face in a
shadowed corner lent the table around it its own hue, and grew into an outline
(fresh scene 8100)."""
NEAR_STEPS = 2
"""Times the mask grows into the faint pixels of the faces' hue within about a tile of
the faces first found: a face found in part lends its hue to the next face in the
shadow, which the first step reached too thinly (benchmark scene 1167: the last two
tiles of a kong in a deep shadow). (Farther, or more often, a cloth's light squares
of the faces' hue join square by square: fresh-24 42112.)"""
GROW_STEPS = 6
"""Times the mask grows, each time by about a face, into faint pixels of a hue near
the faces' and apart from the table's, lighter than the table around them: a row's
faces in the shade on a checked cloth, reached one after the other (fresh-24 42066:
five)."""
SPUR = 0.25
"""Share of a strip's widest row under which the rows at its top or bottom may be a
spur of table (:func:`_without_spurs`)."""
SPUR_FACES = 2.0
"""Width, in faces of the rows they lie on, under which such rows may be a spur of
table (a meld lying above a row is three faces or more: :func:`_without_spurs`)."""
PLAIN_INK = 0.01
"""Share of a strip row's pixels on an edge (:data:`INK_EDGE`) under which nothing is
drawn there: plain table (:func:`_without_plain_rows`)."""
INK_EDGE = 60.0
"""A horizontal step of the gray image (3x3 Sobel, about 15 grey levels) that ink or a
seam makes and a smooth table does not."""
HUE_STEP = 7.0
"""Distance in colour (Lab a, b) from the table's median colour around a pixel that makes it
a face, however close to the table's colours (JPEG noise on a plain table stays within ~2;
a textured table raises the bar to twice its own step along the photo's border)."""
TABLE_EXACT = 3
"""Distance in colour (a, b; lightness is what light changes) under which a pixel is the
table, however light (a checked cloth's light squares in a bright corner)."""
FACE_APART = 8.0
"""Distance in hue (Lab a, b) between a table colour and the faces' colour from which
the mask's areas within :data:`SHADE_CHROMA` of that colour's hue may be the table in
a light (:func:`_of_table_hue`), and the mask's areas this far from every table hue may
be the faces (:func:`_faces_apart_from_a_lit_table`)."""
LIT_TABLE = 20.0
"""Distance (:func:`_table_distance`) to one table colour under which the photo's
lightest pixels, of that colour's hue, may be that colour in a light
(:func:`_faces_apart_from_a_lit_table`; a patch of light on cream, 17; ivory faces on
a wood of their hue, 60)."""
LIT_BORDER = 0.01
"""Least share of the photo's border that shows the table as light as the photo's lightest
pixels and of their hue, for those to be the table in a light (a lit patch or lit
squares reach the border; faces seldom do)."""
LIT_OWN = 0.008
"""Least share of the photo that the mask's wide areas of another hue than the table's
must cover to be the faces, then (a hand's faces cover 0.02 or more; one whiter face
among ivory faces on a cream table, 0.003, is not the faces' colour)."""
NEAR_WHITE = 240
"""Lab lightness of the faces' colour from which its hue is not the faces' hue: a colour
cast on the faces is clipped away in their brightest pixels (fresh-51 51086: the lit
faces' (133, 124) at 249, the faces in the rest of the photo (141, 119), the table's
hue, and three blank white dragons were taken out as table by :func:`_of_table_hue`)."""
LIT_AREA = 0.001
"""Least area (share of the photo) of a patch of table in a light (:func:`_of_table_hue`):
a checked cloth's square is about a face's size or more (0.0012 and up); many parts of
faces that the table's light tints are smaller."""
LIT_SOLID = 0.97
"""Least share of its outline's area that such a patch fills: table in a light has no
ink in it; a face's part often does."""
TABLE_RING = 0.25
"""Share of a band 3-5 pixels around such a patch that may be other faces (the mask, less
such patches): a lit square of a checked cloth is ringed by its dark squares and the
other lit squares (0.00-0.03; 0.24 where the hand lies on it), a part of a face that
the table's light tints mostly by the rest of that face (0.13-0.47 in six scenes of
four sets: the ring alone does not tell them apart; the other bounds and
:data:`NEAR_WHITE` do)."""
VIVID = 25
"""Chroma (Lab a, b from grey) of a table colour that no ivory face has: only such colours
are table however light (grey paper in shade is as grey as a shaded face)."""
HUE_ONLY = (0.0, 1.0, 1.0)
"""Weights of :func:`_table_distance` that leave lightness out: a colour's hue (Lab a, b),
which light and shadow leave alone."""
LIGHTEST_TABLE = 11.0
"""Distance (:func:`_table_distance`) under which the mask's lightest pixels are the
table's own colour rather than faces a little lighter than the table. Ivory faces
on a table of their hue, 24 lighter than its lightest colour, are 11.8 from it
(real-12 19110: at :data:`TABLE_NEAR` they were taken for table, four tiles lost);
the lit middle of a pale green table 9.2 (real-16 27087)."""
LIGHTEST_OWN = 0.002
"""Share of the photo that the lightest pixels not of the table's colours must cover to
be the faces' colour when the mask's lightest are the table's (a hand's faces cover
more; a few tile edges or a speck of glare less)."""
TABLE_NEAR = 12
"""Distance (:func:`_table_distance`) under which a pixel is of one of the table's colours."""
SHADE_CHROMA = 6.0
"""Two of the table's colours this close in hue (Lab a, b) are one colour in two lights."""
SMOOTH_STD = 5.0
"""Spread of lightness (Lab L, standard deviation over 7 x 7 pixels) under which a pixel
has no ink near it."""
SHADOW_AREA = 0.002
"""Least area of a patch of shaded or lit table (share of the photo's pixels) that
:func:`_table_in_shadow_or_light` takes out of the mask: a shadow beside a hand spans
tiles, while the thin dark edges at a tile's foot are the tile's, and taking them out
moved the cuts of a whole hand (small scene 2029)."""
SHADOW_THICK = 0.01
"""... and least mean thickness (its area over its length, as a share of the photo's
long side): a long thin band of shadow along the far edge of a row is the row's
edge, and taking it out moved the row's cuts (fresh-3 scene 6139, 6 tiles)."""
INK_BAY = 0.2
"""A bay of a run's outline smaller than this share of a face may be ink at a face's edge."""
INK_DEEP = (0.25, 0.6)
"""A bay along a run's long edge this deep (shares of a face's height) is ink too, if
under :data:`INK_DEEP_BAY` of a face: an 8 bamboo's W and M reach its top and bottom
edges, and a pung of them lost a face's corner (real-16 27085). (Not deeper: a
face-down tile's back beside a kong, lit side and back apart, spans a face's height;
without the bound, five benchmark hands lost a face or a back.)"""
INK_MOUTH = 0.1
"""A bay under a face, not a band along the run (:data:`INK_ACROSS`), whose mouth is under
this share of its rim is ink, however deep or dark: a group of dots whose face margin
broke at one point (real-52 52091)."""
INK_ACROSS = 0.5
"""...at least this deep across the run for its length along it: the band between a
turned tile's face and its lit side below is closed on three sides too (fresh-50 50057)."""
INK_DEEP_BAY = 0.5
"""A deep bay (:data:`INK_DEEP`) smaller than this share of a face may be ink."""
JOIN = 0.12
"""Specks this close (a share of a face's height) may be pieces of one face split by ink."""
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
"""A run's seam score (:func:`_cut_strip`) under which its cuts found no seams: its
cells say nothing of the photo's face size (:func:`_sharing_size`). Runs of a hand
cut right but with faint seams score -0.04 to 0; specks of a patterned table
read as runs, -0.24 to -0.35."""
MISFIT = 0.6
"""A run whose best reading is this far from the photo's face size (:func:`_size_penalty`)
is cut again at the face's pitch, however many cells that reading has: a chow of
dots read as the grid of its circles (36 cells) was otherwise left so, and lost;
so was a kong of 8 dots read as six faces 0.7 as wide as the photo's (0.71;
fresh-12 20036, at 1.0 before)."""
SIDE_STEP = 0.06
"""Least fall of brightness (share of the faces') within 4 rows of a run's edge that
marks the tiles' lit side there; a smooth fall is light falling across the faces."""
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
MARGIN_BAND = 0.15
"""Share of a face's height at its top and bottom that ink keeps clear of (its margins)."""
LONG_ROW = 7.0
"""A row at least this many faces long (at the prior aspect) finds its tile count from
its own seams."""
ASPECT_RANGE = (0.5, 1.4)
"""Width / height of a face in an upright strip, any tilt up to 45° (foreshortened
heights: up to ~1.2; a row seen along its length: down to ~0.55)."""
OWN_COLUMNS = 0.35
"""Weight of a grid row's own seams against the seams all its rows share (columns in line)."""
PLAIN = 0.1
"""A run of the mask with under this share of pixels lighter than the table around them
(or of another hue) is a bright patch of table."""
PLAIN_STD = 12.0
"""Spread of lightness (V - S, standard deviation) under which a run has no ink at all."""
FRAGMENT = 0.5
"""A run whose cells are all under this share of the photo's face height is not tiles."""
SHARED_FLOOR = 0.05
"""A row without a trace of a seam at a column counts as this much (the geometric mean of
the rows' seams is not zeroed by one row's noise)."""
ASPECT_PRIOR = 0.25
"""Cost of a tile count per unit of log-distance from the prior aspect (a mild tie-break)."""
HOLE = 0.005
"""Holes in the face mask smaller than this share of the photo are filled before the
mask is opened (a face is about 0.3 % of a photo of a hand)."""
SOLID = 0.6
"""...and only in a part of the mask that covers this share of its outline at least:
a run of faces, not the net of lines a checked cloth leaves in the mask."""
FRAMED = 0.2
"""...and only holes whose middle is face for this share at least (a frame's blank),
and whose short side is :data:`STRIP` of the long one at least."""
STRIP = 0.3
"""A hole narrower than this for its length is a strip: the gap between two rows,
or under a row's faces."""
ONE_COLOUR_SHARE = 0.78
"""Share of a plain tile's pixels within :data:`ONE_COLOUR_HUE` (Lab a and b) and
:data:`ONE_COLOUR_LIGHTNESS` (Lab L) of its median colour. Over the sixteen generated
sets (14 000 probes beside runs), the patches that were no back but neither table
nor face had 0.68 at most; backs seen at an angle, whose upright probe takes in the
pale layer below them or a corner of table, 0.82-0.86 (two kongs lost a back so)."""
ONE_COLOUR_HUE = 8.0
ONE_COLOUR_LIGHTNESS = 25.0
DARKER_THAN_TABLE = 0.55
"""A plain patch this share as light as the table's darkest colour, or darker, is no
table, whatever its hue: a black or dark grey back on a pale grey table has the
table's hue (generated scene 19025: 0.46, two backs of a concealed kong lost). Over
the sixteen generated sets, no patch of table beside a run came under 0.62 (its
shadow, the gap between two melds)."""
SIDE_IN = 0.12
SIDE_OUT = 0.15
"""How far inside and outside a patch's top and bottom edges (shares of the faces'
height) :func:`_side_shows` looks for a tile's pale side: the faces' boxes mostly take
it in, but an orange back in the shade on striped wood showed it just beyond them
(fresh-14 24188; 0.05 outside found no side there, 0.15 changed nothing else in the
sixteen sets)."""
SIDE_SHARE = 0.8
"""Share of a band's columns that must be pale for it to be a tile's side."""
SIDE_FROM_TABLE = 20.0
"""A pale side's pixels are this far at least from every table colour
(:func:`_table_distance`, lightness counted half)."""
SIDE_MARGIN = 0.2
"""Share of a face's width left out at each end of a band (the seams, a neighbour's
edge)."""
OTHER_CUT = 0.3
"""How close (in seam score less size penalty) a second way to cut a run, into
another number of tiles, must come to the best to be kept beside it
(:class:`OtherCut`). At 0.6 it mended nothing more on ten generated sets and
lost a tile of one hand."""
OTHER_CUT_RUN = 6
"""...for runs of at most this many tiles (melds, a few faces set apart). A longer
row's own faces set its pitch, and its other cut is one face fewer or more
(:func:`_count_off_by_one`)."""
COUNT_TIE = 0.15
"""Tile counts of a long row whose fits are this close to the best one's are cut and
compared by their seams (:func:`_row_pitches`). At 0.05 (two counts at most) it
mended one hand in seventeen sets and lost none; at 0.15, ten and three."""
COUNT_TRIES = 3
"""Most tile counts of a long row cut and compared (:func:`_row_pitches`)."""
MAX_RUN = 18
"""Most faces one run of touching tiles holds: a hand has at most 18 playing tiles
(four kongs), and its flowers and seasons are set aside. Ink drawn in columns (a
scanned set's 6 and 9 bamboo, its characters) made a 14-tile row read as 22
narrower faces, generated scene 12114."""
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
    :func:`with_other_cut`)."""

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


def with_other_cut(seg: Segmentation, other: OtherCut) -> Segmentation:
    """``seg`` with the run ``other.blob`` cut the other way."""
    return _with_quads(seg, _drop_duplicates([q for q in seg.quads if q.blob != other.blob]
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
    table's colour, or of one near it, is what :func:`_plain_tile` could not tell
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
    and the corners of a face in that gap."""
    upright = [i for i, q in enumerate(seg.quads) if not q.sideways and not q.face_down]
    centres = np.array([q.centre for q in seg.quads])  # (read only when there are faces)
    gaps = []
    for i in upright:
        a = seg.quads[i]
        # the row's direction, and the faces of a's size (a face beside a gap may have
        # taken in part of it: its own width is no measure)
        along = a.corners[1] - a.corners[0] + a.corners[2] - a.corners[3]
        along /= max(float(np.linalg.norm(along)), 1e-9)
        widths = [seg.quads[k].width for k in upright
                  if abs(seg.quads[k].height - a.height) <= GAP_SIZE * a.height]
        width = float(np.median(widths))
        a_end = (a.corners[1] + a.corners[2]) / 2  # the middle of a's right edge
        for j in upright:
            b = seg.quads[j]
            b_start = (b.corners[0] + b.corners[3]) / 2
            gap = b_start - a_end
            if not (abs(b.height - a.height) <= GAP_SIZE * a.height
                    and GAP_FACE[0] * width <= float(gap @ along) <= GAP_FACE[1] * width
                    and abs(float(gap[0] * along[1] - gap[1] * along[0]))
                    <= GAP_ALIGN * a.height):
                continue
            middle = (a_end + b_start) / 2
            if (np.linalg.norm(centres - middle, axis=1) < width / 2).any():
                continue  # something was found there
            offsets = (a.corners + b.corners) / 2 - (a.centre + b.centre) / 2
            across = offsets - np.outer(offsets @ along, along)
            sides = np.outer(np.sign(offsets @ along) * width / 2, along)
            gaps.append((i, j, middle + across + sides))
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
                   cut_by_edge=_touching_border(quads, seg.image_size, seg.border),
                   other_cuts=seg.other_cuts if other_cuts is None else other_cuts)


def _touching_border(quads: Sequence[TileQuad], size: tuple[int, int], border: float
                     ) -> tuple[int, ...]:
    """Indices of the quads within ``border`` pixels of the image's edge."""
    w, h = size
    return tuple(i for i, q in enumerate(quads)
                 if (q.corners[:, 0].min() < border or q.corners[:, 1].min() < border
                     or q.corners[:, 0].max() > w - 1 - border
                     or q.corners[:, 1].max() > h - 1 - border))


# ----------------------------------------------------------------- face mask


def face_mask(img: np.ndarray) -> np.ndarray:
    """Light, unsaturated pixels that differ from the table (uint8 0/255)."""
    return _face_mask(img)[0]


def _face_mask(img: np.ndarray, lab: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """The face mask and the table's colours (Lab cluster centres, k x 3; none for a
    close-up). ``lab`` is ``img`` in Lab (float32) when the caller has it already.

    Faces are light and unsaturated. A pale table (paper, light wood) sets the
    bar higher: faces are lighter than the table near them, and the table's
    lightness is fitted as a plane over the photo's border (light falls off
    across a photo); pixels of the table's own colours are then dropped. When
    the border is itself mostly faces (a close-up of a set) there is no table
    to learn and the plain lightness threshold is used.
    """
    hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV)
    white = cv2.subtract(hsv[..., 2], hsv[..., 1])  # saturating: V - S >= 0
    thr, _ = cv2.threshold(white, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    thr = max(thr, 110.0)  # faces are the lightest thing around: never mid-grey
    h, w = white.shape
    b = max(2, min(h, w) // 40)
    ring_idx = np.zeros((h, w), bool)
    ring_idx[:b], ring_idx[-b:], ring_idx[:, :b], ring_idx[:, -b:] = True, True, True, True
    ring_at = np.flatnonzero(ring_idx)  # (the border's pixels in order: indexing by them
    # is several times faster than by the full-image boolean mask)
    border = white.ravel()[ring_at].astype(np.float32)
    plain = (white > thr).astype(np.uint8) * 255
    hist = cv2.calcHist([white], [0], None, [256], [0, 256]).ravel().cumsum()
    face_level = float(np.searchsorted(hist, 0.995 * hist[-1]))  # the 99.5th percentile
    face_like = border >= face_level - FACE_MARGIN
    # A close-up of a set: much of the border is faces, crossed by ink and seams (a pale
    # table is as light, but smooth).
    if (face_like.mean() > 0.2 and (_edges(img).ravel()[ring_at] > 80).mean() > 0.03
            and _dark_run(white, b, face_level - FACE_MARGIN) < INK_RUN * max(h, w)):
        return plain, np.zeros((0, 3), np.float32)
    # the table is what the border shows apart from tiles cut by the photo's edge
    table_px = ~face_like
    if table_px.sum() < 50:  # a plain table as light as faces: there are no faces
        table_px = np.ones_like(face_like)
    # The table's lightness near each pixel: the darkest of a neighbourhood wider than
    # a tile, smoothed (faces, narrower than it, vanish; a shadow or falling light
    # does not). Faces stand out from it wherever they are.
    k = max(15, max(h, w) // 12) | 1
    small = cv2.resize(white, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    local = cv2.erode(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k // 4, k // 4)))
    local = cv2.GaussianBlur(local.astype(np.float32), (0, 0), k / 8)
    local = cv2.resize(local, (w, h), interpolation=cv2.INTER_LINEAR)
    spread = float(np.percentile(border[table_px] - local.ravel()[ring_at[table_px]], 80))
    table_top = local + max(spread, 10)  # the table's darkest plus its own texture
    stands_out = white > table_top + 15
    # On a checked cloth that texture is its light squares, and faces in its shade
    # no lighter than them stand out from the dark squares only (real-19 33106:
    # half a hand lost): they may join the faces found where they are of none of
    # the cloth's colours (``faint`` below).
    checked = (white > local + 10 + 15) & ~stands_out & (white > SHADED_FLOOR)
    light = (white > FACE_FLOOR) & stands_out
    clear = (white > SHADED_FLOOR) & (white > table_top + STANDS_CLEAR) & ~light
    if clear.any():
        _, parts, stats, _ = cv2.connectedComponentsWithStats(clear.view(np.uint8),
                                                              connectivity=4)
        large = stats[:, cv2.CC_STAT_AREA] >= CLEAR_AREA * h * w
        large[0] = False  # (the background)
        # (most photos have none: hundreds of specks of ink and rim, none an area)
        clear = large[parts] if large.any() else np.zeros_like(clear)
    mask = (light | clear).astype(np.uint8) * 255
    shaded = stands_out & (white > SHADED_FLOOR) & (mask == 0)
    if lab is None:
        lab = cv2.cvtColor(img, cv2.COLOR_RGB2LAB).astype(np.float32)
    ring = lab.reshape(-1, 3)[ring_at[table_px][:: max(1, int(table_px.sum()) // 4000)]]
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1.0)
    if len(ring) < 4:  # a photo of nothing but faces' lightness: no table to learn
        ring = lab.reshape(-1, 3)[:: max(1, lab.shape[0] * lab.shape[1] // 4000)]
    cv2.setRNGSeed(0)  # kmeans++ draws from OpenCV's per-thread RNG: same photo, same tiles
    _, _, centres = cv2.kmeans(ring, min(4, len(ring)), None, crit, 2,  # type: ignore[call-overload, unused-ignore]
                               cv2.KMEANS_PP_CENTERS)
    # (the colour distances are needed only on the faces found, two pixels around them
    # (the seams that join them), and the checked cloth's light squares: a tenth of the
    # photo or less; elsewhere they are left infinite and never read)
    judged = _Judged.around(mask, checked, lab)
    d = judged.distance(centres)
    # A pixel of the table's colours is table, unless nearer the faces' own colour (the
    # lightest pixels): a cream table is close to ivory faces, but not as close.
    lightest = (white >= face_level - 10) & (mask > 0)
    glare = np.count_nonzero(lightest) < 20 and np.count_nonzero(mask) >= 20
    if glare:
        # The photo's lightest pixels are the table's (a bright patch of light, glare),
        # not in the mask: the faces are the lightest of what stands out from the table.
        lightest = _lightest_of(white, mask > 0)
    if np.count_nonzero(lightest) >= 20:
        face_lab = _median_colour(lab, lightest)
        if _table_distance(face_lab[None, None, :], centres)[0, 0] < LIGHTEST_TABLE:
            # The lightest of the mask is of the table's colours: a table as light as
            # the faces, or lighter (real-16 27087), whose lightest part is in the
            # mask. The faces are the lightest of what is not of the table's colours.
            not_table = lightest & (d >= TABLE_NEAR)
            if np.count_nonzero(not_table) >= LIGHTEST_OWN * h * w:
                face_lab = _median_colour(lab, not_table)
        face_lab = _faces_apart_from_a_lit_table(lab, white, mask > 0, centres, face_lab,
                                                 ring_at)
        d_face = judged.distance(face_lab[None, :])
        d = _with_shades(d, lab, centres, mask > 0, face_lab)
        # A face clearly lighter than the table around it stays a face however close
        # its colour (ivory on cream): the table's median lightness over a few tiles is
        # the table's own, not the faces'. The table's very colours (a checked cloth's
        # light squares in a bright corner) stay table.
        drop = (d < TABLE_NEAR) & (d < d_face)
        table_level = _table_median(white, k)
        drop |= _table_in_shadow_or_light(lab, white, table_level, centres, face_lab,
                                          (mask > 0) & ~drop)
        above = white >= table_level + LIGHTER
        if glare:
            # Where the table is as light as faces, standing out from its darkest part
            # (a shadow's edge) is no evidence: a face must be lighter than the table's
            # median around it, or differ from it in hue, whatever its colour.
            drop |= ~above
        lighter = drop & above
        if glare and lighter.any():
            # ... and nearer the faces' hue than three times the table's colour, lightness
            # left out: the lightest faces stand in the same light as the glare, and a
            # face at the light's edge is darker than they are, not another colour
            lighter[lighter] = _table_distance(_colours_at(lab, lighter)[None], face_lab[None, :],
                                               HUE_ONLY)[0] < 3 * d[lighter]
        else:
            lighter &= d_face < 3 * d
        # A face as light as the table and near its colours (ivory under a colour cast,
        # in a hand's shadow on grey paper) still differs in hue from the table right
        # around it, whose colour over a few tiles is steady. The step must stand well
        # above the table's own (its texture, a cloth's checks, its drawn lines).
        step = _hue_step(lab, _local_table_colour(lab, k, (mask > 0) & ~drop))
        own = float(np.percentile(step.ravel()[ring_at[table_px]], 99))
        differs = step >= max(HUE_STEP, 2 * own)
        hue = (drop & differs).astype(np.uint8)
        # (areas only: the thin coloured rims at a tile's edges are not faces)
        lighter |= cv2.morphologyEx(hue, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8)) > 0
        # (colour distance only where it decides: a full-image pass costs 15 ms)
        vivid = centres[np.hypot(centres[:, 1] - 128, centres[:, 2] - 128) > VIVID]
        if lighter.any() and len(vivid):
            lighter[lighter] = _table_distance(_colours_at(lab, lighter)[None], vivid,
                                               HUE_ONLY)[0] >= TABLE_EXACT
        faint = ((drop & ~lighter & (mask > 0)) | (checked & (d >= TABLE_NEAR))) & (
            white >= table_level + FAINTER)
        # (a shaded pixel must be near the lightest faces' hue and of another hue than
        # the table around it: a blue tile back beside the faces is as dark, and grey
        # paper or a cream table in a hand's shadow as grey as the faces there)
        shaded &= differs
        if shaded.any():
            shaded[shaded] = _table_distance(_colours_at(lab, shaded)[None], face_lab[None, :],
                                             HUE_ONLY)[0] < 2 * FACE_HUE
            faint |= shaded
        mask[drop & ~lighter] = 0
        mask = _grown_into(mask, faint, lab, face_lab, centres, max(3, k // 2), above)
        mask = _without_plain_table(mask, above | differs, white)
        mask[_of_table_hue(lab, mask > 0, centres, face_lab, white > table_level)] = 0
    else:
        mask[d < TABLE_NEAR] = 0
    return mask, np.asarray(centres, np.float32)


@dataclass(frozen=True)
class _Judged:
    """The pixels of the working image whose distances to colours :func:`_face_mask`
    reads, and their Lab colours."""

    at: np.ndarray
    """Their flat indices."""
    colours: np.ndarray
    """Their Lab colours, (1, n, 3)."""
    shape: tuple[int, int]

    @classmethod
    def around(cls, mask: np.ndarray, checked: np.ndarray, lab: np.ndarray) -> _Judged:
        """The mask's pixels and those within two pixels of them (a 2 x 2 opening
        reads that far: OpenCV's dilation does not mirror its erosion's kernel),
        and the ``checked`` ones."""
        near = cv2.dilate(mask, np.ones((5, 5), np.uint8)).ravel() > 0
        at = np.flatnonzero(near | checked.ravel())
        return cls(at, lab.reshape(-1, 3)[at][None], (mask.shape[0], mask.shape[1]))

    def distance(self, centres: np.ndarray) -> np.ndarray:
        """:func:`_table_distance` to ``centres`` at these pixels (the same values as
        over the whole image), infinite elsewhere."""
        out = np.full(self.shape[0] * self.shape[1], np.inf, np.float32)
        if self.at.size:
            out[self.at] = _table_distance(self.colours, centres)[0]
        return out.reshape(self.shape)


def _edges(img: np.ndarray) -> np.ndarray:
    """The gradient's magnitude of an RGB image's grey. (The close-up test asks for it
    only when the photo's border is mostly as light as faces: a few ms a photo.)"""
    gray = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    out: np.ndarray = cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0),
                                    cv2.Sobel(gray, cv2.CV_32F, 0, 1))
    return out


def _dark_run(white: np.ndarray, band: int, level: float) -> float:
    """The median length (pixels) of the runs below ``level`` along the middle of the
    photo's border band (``band`` pixels wide), once round the photo."""
    h, w = white.shape
    m = band // 2
    line = np.concatenate([white[m, m:w - m], white[m:h - m, w - 1 - m],
                           white[h - 1 - m, m:w - m][::-1], white[m:h - m, m][::-1]]) < level
    edges = np.flatnonzero(np.diff(np.r_[0, line.view(np.int8), 0]))
    runs = edges[1::2] - edges[::2]
    return float(np.median(runs)) if runs.size else 0.0


def _median_colour(lab: np.ndarray, where: np.ndarray) -> np.ndarray:
    """The median Lab colour of the pixels ``where`` (of at most about 2 000 of them)."""
    picked = _colours_at(lab, where)
    out: np.ndarray = np.median(picked[:: max(1, len(picked) // 2000)], axis=0)
    return out


def _colours_at(lab: np.ndarray, where: np.ndarray) -> np.ndarray:
    """``lab[where]`` (n x 3) for an (H, W, 3) image: taken by flat index, in a third
    of the time of a boolean index."""
    return lab.reshape(-1, 3)[np.flatnonzero(where)]


def _grown_into(mask: np.ndarray, faint: np.ndarray, lab: np.ndarray, face_lab: np.ndarray,
                centres: np.ndarray, near: int, above: np.ndarray) -> np.ndarray:
    """The mask grown into the ``faint`` pixels that join it and have the faces' own hue.

    Faces in a shadow or under falling light on a cream or grey table are of the
    table's colours and lighter than the table around them by less than
    :data:`LIGHTER`, so the mask dropped them: half of a row (benchmark scene
    1060, four tiles) or of an 8 dots (1131). Pixels a little lighter than the
    table around them (:data:`FAINTER`) are faces where they touch faces found
    and share the hue of the lightest faces or of the faces found around them
    (a, b within :data:`FACE_HUE`): the light squares of a checked cloth beside a
    hand are lighter than the cloth's median too, but of the cloth's hue.

    Why the faces around too: a shadow tints what lies in it, and a row's end in a
    green-grey shadow on a pale green table was 14 points of hue from the
    lightest faces (5 from the row's lit ones) and of the table's hue; a third
    of each of its faces was found and the rest dropped, and two 3 bamboos
    were read as one sideways tile (benchmark scene 1163). Each part of a face
    has the hue of the rest of it.
    Why a hue near the faces' and far from every table colour too: five faces
    in the shade on a checked cloth were as light as its light squares and 7-8
    points of hue from the lightest faces (warmer), 15 from any of the cloth's
    colours, whose light squares were 10 from the faces and 1 from the cloth
    (fresh-24 scene 42066: the five were lost). Within twice :data:`FACE_HUE` of
    the faces' hue, at least as far from the table's, and lighter than the table
    around it (``above``: the table in a shadow beside a row on a cream table is
    of that hue too, and grew along the row, benchmark scene 8046), a faint
    pixel is of the faces' own.

    ``near`` (working pixels, about a tile) is how far a faint pixel may lie from
    the faces found and how wide the area whose faces lend it their hue; the
    mask grows :data:`GROW_STEPS` times, a face's width at a time, each step
    lending the next its hue, across the seams between faces
    (:data:`SEAM_BRIDGE`)."""
    # Only faint pixels within ``near`` of the faces found may join them, or, apart from
    # the table, within ``near`` times GROW_STEPS (the work is then done in the box
    # around them, a fraction of the photo, and the faces' hue around each pixel is
    # averaged on a quarter-size copy).
    reach = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * near + 1, 2 * near + 1))
    # (how far each pixel lies from the faces found, in steps of a pixel either way:
    # as the reach's square, grown once or six times, in one pass)
    steps = cv2.distanceTransform((mask == 0).view(np.uint8), cv2.DIST_C, 3)
    first = faint & (steps <= near)
    far = faint & above & (steps <= near * GROW_STEPS)
    hue, table_hue = (np.full(faint.shape, np.inf, np.float32) for _ in range(2))
    some = first | far
    if some.any():
        hue[some] = _table_distance(_colours_at(lab, some)[None], face_lab[None, :],
                                    HUE_ONLY)[0]
    if far.any():
        table_hue[far] = _table_distance(_colours_at(lab, far)[None], centres, HUE_ONLY)[0]
    apart_from_table = far & (hue < 2 * FACE_HUE) & (table_hue >= 2 * FACE_HUE)
    faint = first | apart_from_table
    x0, y0, bw, bh = cv2.boundingRect(faint.view(np.uint8))
    if bw == 0:
        return mask
    box = (slice(max(0, y0 - near), y0 + bh + near), slice(max(0, x0 - near), x0 + bw + near))
    sub, ab = faint[box], np.ascontiguousarray(lab[box][..., 1:])
    ys, xs = np.divmod(np.flatnonzero(sub), sub.shape[1])
    pixels = ab[ys, xs]
    own_hue = hue[box][ys, xs] < FACE_HUE
    apart = apart_from_table[box][ys, xs]
    beside = first[box][ys, xs]  # within reach of the faces first found
    h, w = sub.shape
    cells = (max(1, w // 4), max(1, h // 4))
    at = (ys * cells[1] // h, xs * cells[0] // w)
    win = (max(1, near // 4), max(1, near // 4))
    out = mask.copy()
    for step in range(GROW_STEPS):
        found = out[box] > 0
        # the share of faces found around each faint pixel, and their mean hue
        share = found.astype(np.float32)
        near_share, near_ab = (
            cv2.boxFilter(cv2.resize(a, cells, interpolation=cv2.INTER_AREA), -1, win)[at]
            for a in (share, ab * share[..., None]))
        around = near_ab / np.maximum(near_share, 1e-6)[:, None]
        close = (near_share >= FACES_AROUND) & (np.hypot(*(pixels - around).T) < FACE_HUE)
        kin = (own_hue | close) & beside if step < NEAR_STEPS else np.zeros_like(apart)
        joins = (kin | apart) & (cv2.dilate(found.view(np.uint8), reach)[ys, xs] > 0)
        joined = np.zeros(sub.shape, np.uint8)
        joined[ys[joins], xs[joins]] = 1
        # (faces apart from the table join across a seam: its dark line is no faint pixel)
        bridged = np.zeros(sub.shape, np.uint8)
        bridged[ys[joins & apart], xs[joins & apart]] = 1
        links: np.ndarray = cv2.dilate(bridged, SEAM_BRIDGE)
        n, runs = cv2.connectedComponents(joined | found.view(np.uint8) | links)
        touching = np.bincount(runs[found], minlength=n) > 0
        touching[0] = False
        joined[ys[joins], xs[joins]] = touching[runs[ys[joins], xs[joins]]]
        grown = cv2.morphologyEx(joined, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))  # (areas)
        new = (grown > 0) & ~found
        if not new.any():
            break  # (the same faces found: no step after this one joins anything)
        out[box][new] = 255
        if step >= NEAR_STEPS - 1 and not apart.any():
            break  # (only pixels apart from the table grow farther)
    return out


def _with_shades(d: np.ndarray, lab: np.ndarray, centres: np.ndarray, where: np.ndarray,
                 face_lab: np.ndarray) -> np.ndarray:
    """Distance to the table's colours (``d``), the shades between two of them of one hue
    counted as the table's too, on the smooth pixels of ``where``.

    k-means learns a table lit unevenly as a few lightness levels of one colour; a
    smooth patch between two levels (a shadow's soft edge, light falling across
    grey-blue cloth) was then as far from both as a face is, and stood out as faces:
    a band of it joined a chow, which was then cut wrong (development scene 235),
    and light squares of a checked cloth became faces (scene 159). Only smooth
    pixels (no ink near) are judged so: the grey circles of an 8 dots, between the
    levels of a grey table, are ink (benchmark scene 1009); and only pixels nearer
    the table's hue than the lightest faces' (``face_lab``): on a cream table, blank
    faces in its shadow lie between its levels too, and a hand was split in two
    (fresh scene 3022, generated to check this session's changes)."""
    pairs = [(a, b) for i, a in enumerate(centres) for b in centres[i + 1:]
             if np.hypot(*(a[1:] - b[1:])) <= SHADE_CHROMA]
    if not pairs:
        return d
    sel = where & (d >= TABLE_NEAR)
    if not sel.any():
        return d
    at = np.flatnonzero(sel)
    px = lab.reshape(-1, 3)[at]
    near = d.ravel()[at]
    own = _table_distance(px[None], face_lab[None, :], HUE_ONLY)[0]
    for a, b in pairs:
        lo, hi = sorted((float(a[0]), float(b[0])))
        dl = 0.5 * np.maximum(0, np.maximum(lo - px[:, 0], px[:, 0] - hi))  # as in d
        dc = _table_distance(px[None], ((a + b) / 2)[None, :], HUE_ONLY)[0]
        near = np.where(dc < own, np.minimum(near, np.hypot(dl, dc)), near)
    shade = near < TABLE_NEAR
    if not shade.any():
        return d
    ys, xs = np.divmod(at[shade], sel.shape[1])
    y0, x0 = max(0, int(ys.min()) - 3), max(0, int(xs.min()) - 3)
    light = np.ascontiguousarray(lab[y0:int(ys.max()) + 4, x0:int(xs.max()) + 4, 0])
    mean = cv2.blur(light, (7, 7))
    spread = cv2.blur(light * light, (7, 7)) - mean * mean
    smooth = spread[ys - y0, xs - x0] < SMOOTH_STD ** 2
    out = d.copy()
    out[ys[smooth], xs[smooth]] = near[shade][smooth]
    return out


def _table_in_shadow_or_light(lab: np.ndarray, white: np.ndarray, table_level: np.ndarray,
                              centres: np.ndarray, face_lab: np.ndarray, where: np.ndarray
                              ) -> np.ndarray:
    """The pixels of ``where`` that are the table in a shadow or a light: no lighter
    than the table's median around them by :data:`FAINTER`, of one of its colours'
    hue (lightness left out), nearer it than the faces' hue.

    A shadow darkens the table below every colour k-means learnt at the lit border,
    and the table beside a hand, darker than its lit parts but lighter than the
    shadow's darkest part, stood out from that darkest part as faces do: a halo of
    it joined every row of a hand into one run (fresh scene 4013, 16 tiles lost).
    Light falling on the table lifts it above those colours the same way (small
    scene 2003: 7 outlines on a lit patch). Faces are lighter than the table
    around them, shadow or not. Only wide patches count (:data:`SHADOW_AREA`,
    :data:`SHADOW_THICK`)."""
    out = np.zeros_like(where)
    x, y, w, h = cv2.boundingRect(where.astype(np.uint8))
    if w == 0 or len(centres) == 0:
        return out
    box = (slice(max(0, y - 2), y + h + 2), slice(max(0, x - 2), x + w + 2))
    # (judged over 5x5 areas: sensor noise averaged)
    near = cv2.dilate(where[box].astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    sel = near & (cv2.blur(white[box], (5, 5)) < table_level[box] + FAINTER)
    if not sel.any():
        return out
    px = _colours_at(cv2.blur(lab[box], (5, 5)), sel)[None]
    to_table = _table_distance(px, centres, HUE_ONLY)[0]
    to_face = _table_distance(px, face_lab[None, :], HUE_ONLY)[0]
    shadow = np.zeros(sel.shape, np.uint8)
    shadow[sel] = (to_table < SHADE_CHROMA) & (to_table < to_face)
    # (areas only: a face's edge blends with the table into a line of its hue)
    opened = cv2.morphologyEx(shadow, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    _, parts, stats, _ = cv2.connectedComponentsWithStats(opened)
    area = stats[:, cv2.CC_STAT_AREA]
    length = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    wide = (area >= SHADOW_AREA * where.size) & (area >= SHADOW_THICK * max(where.shape) * length)
    wide[0] = False
    out[box] = where[box] & wide[parts]
    return out


def _lightest_of(white: np.ndarray, where: np.ndarray) -> np.ndarray:
    """The pixels of ``where`` within 10 of its 99.5th lightness percentile: its
    lightest, a few specks of glare aside (the faces' colour is their median)."""
    level = float(np.percentile(white[where], 99.5))
    lightest: np.ndarray = where & (white >= level - 10)
    return lightest


def _faces_apart_from_a_lit_table(lab: np.ndarray, white: np.ndarray, where: np.ndarray,
                                  centres: np.ndarray, face_lab: np.ndarray,
                                  border: np.ndarray) -> np.ndarray:
    """The faces' colour: ``face_lab``, unless it is of one of the table's hues while
    wide areas of ``where`` are of another; then the lightest of those.

    A bright patch of light on a pale table, or a checked cloth's light squares in
    it, can be lighter than every face, and far enough in lightness from the colours
    learnt at the border to pass :data:`LIGHTEST_TABLE`; their hue is still the
    table's (real-49 49124: a cream table's lit patch joined the hand into one run,
    every tile lost). Faces of the table's own hue leave no wide areas of another hue
    (thin ink edges do not count), and the colour stays."""
    each = np.asarray(centres, np.float32)[:, None, :]  # (one at a time: the same colour)
    hue = _table_distance(each, face_lab[None, :], HUE_ONLY)[:, 0]
    lit = (hue < SHADE_CHROMA) & (_table_distance(each, face_lab[None, :])[:, 0] < LIT_TABLE)
    # (not when nearer grey than the table's hue: white faces, or glare on them)
    if not lit.any() or hue[lit].min() >= np.hypot(face_lab[1] - 128, face_lab[2] - 128):
        return face_lab
    # (and the photo's border, where the table was learnt, shows it so light somewhere)
    at_border = lab.reshape(-1, 3)[border]
    as_light = (at_border[:, 0] >= face_lab[0] - 10) & (
        _table_distance(at_border[None], face_lab[None, :], HUE_ONLY)[0] < SHADE_CHROMA)
    if np.count_nonzero(as_light) < LIT_BORDER * len(border):
        return face_lab
    near = cv2.dilate(where.view(np.uint8), np.ones((5, 5), np.uint8)) > 0
    apart = np.zeros(where.shape, np.uint8)
    apart[near] = _table_distance(_colours_at(lab, near)[None], centres, HUE_ONLY)[0] >= FACE_APART
    own = (cv2.morphologyEx(apart, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)) > 0) & where
    if np.count_nonzero(own) < LIT_OWN * where.size:
        return face_lab
    lightest = _lightest_of(white, own)
    if np.count_nonzero(lightest) < 20:
        return face_lab
    faces = _median_colour(lab, lightest)
    # (the lightest of another hue near the lightest's own hue: faces both, in two lights)
    other = _table_distance(faces[None, None, :], face_lab[None, :], HUE_ONLY)[0, 0]
    return faces if other >= FACE_APART else face_lab


def _of_table_hue(lab: np.ndarray, where: np.ndarray, centres: np.ndarray,
                  face_lab: np.ndarray, lit: np.ndarray) -> np.ndarray:
    """The areas of ``where`` of one of the table's hues, where the faces' hue is
    another: the table in a light, however light.

    A checked cloth's light squares in a bright patch are lighter than the table's
    median around them (its dark squares) and as plain as a blank face, so nothing
    else took them out (real-49 49080: 15 squares read as white dragons). Light
    changes their lightness and hardly their hue, which stays within
    :data:`SHADE_CHROMA` of the colour learnt at the border (nearer it than the
    faces' hue); ivory faces are further from it, unless the table is of the faces'
    own hue (:data:`FACE_APART`), when nothing is taken; nor when the faces' colour
    learnt is itself of a table hue (the lightest pixels were a lit patch of table:
    then faces under a colour cast may be nearer the table's other colours than it);
    nor when that colour is nearly white (:data:`NEAR_WHITE`).

    Areas only (a face's rim blends with the table into a line of its hue), and
    only those that look like table in a light, not a part of a face that the
    table's light tints: mostly lighter than the table's median around them
    (``lit``: a shadow's edge beside a row, of the table's hue, is darker, and
    taking it out moved the row's cuts, fresh scene 8046), of :data:`LIT_AREA` or
    more, with no ink in them (:data:`LIT_SOLID`), ringed by little else of the
    mask (:data:`TABLE_RING`)."""
    out = np.zeros_like(where)
    to_faces = _table_distance(np.asarray(centres, np.float32)[None], face_lab[None, :],
                               HUE_ONLY)[0]
    apart = to_faces >= FACE_APART
    if (not apart.any() or not where.any() or to_faces.min() < SHADE_CHROMA
            or face_lab[0] >= NEAR_WHITE):
        return out
    # (judged around ``where`` too: the table's pixels a speckled mask left out fill
    # the area that the opening needs)
    near = cv2.dilate(where.view(np.uint8), np.ones((5, 5), np.uint8)) > 0
    px = _colours_at(lab, near)[None]
    to_table = _table_distance(px, centres[apart], HUE_ONLY)[0]
    to_face = _table_distance(px, face_lab[None, :], HUE_ONLY)[0]
    of_table = np.zeros(where.shape, np.uint8)
    of_table[near] = (to_table < SHADE_CHROMA) & (to_table < to_face)
    opened = cv2.morphologyEx(of_table, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    n, parts, stats, _ = cv2.connectedComponentsWithStats(opened, connectivity=8)
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < LIT_AREA * where.size:
            continue
        x, y, w, h = stats[i, :4]
        box = (slice(max(0, y - 5), y + h + 5), slice(max(0, x - 5), x + w + 5))
        part = parts[box] == i
        ring = cv2.dilate(part.view(np.uint8), np.ones((11, 11), np.uint8)) > 0
        ring &= cv2.dilate(part.view(np.uint8), np.ones((5, 5), np.uint8)) == 0
        outline, _ = cv2.findContours(part.view(np.uint8), cv2.RETR_EXTERNAL,
                                      cv2.CHAIN_APPROX_SIMPLE)
        filled = cv2.drawContours(np.zeros(part.shape, np.uint8), outline, -1, 1, -1)
        area = np.count_nonzero(part)
        if (np.count_nonzero(where[box] & ring & (opened[box] == 0))
                < TABLE_RING * np.count_nonzero(ring)
                and 2 * np.count_nonzero(lit[box] & part) >= area  # (in a light: mostly)
                and area >= LIT_SOLID * np.count_nonzero(filled)):
            out[box] |= part
    kept: np.ndarray = out & where
    return kept


def _without_plain_table(mask: np.ndarray, evidence: np.ndarray, white: np.ndarray
                         ) -> np.ndarray:
    """The mask less its plain runs that nothing marks as faces.

    A bright patch in the middle of a pale table (light falling on it) can be a
    shade nearer the faces' colour than the table's colours learnt at the border,
    and so kept; but no pixel of it is lighter than the table's median around it,
    nor of another hue, while faces are (on paper or cream, in shade or not) or
    touch faces that are. A run with under :data:`PLAIN` of such pixels, and as
    smooth as a table (no ink: V - S varying under :data:`PLAIN_STD`), is table;
    faces crowding the table's median (a close-up of two rows) keep their ink."""
    closed = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_RECT, (5, 5)))
    n, labels = cv2.connectedComponents(closed)
    if n <= 1:
        return mask
    on = mask.ravel() > 0
    lab = labels.ravel()[on]
    total = np.bincount(lab, minlength=n)
    marked = np.bincount(lab, weights=evidence.ravel()[on].astype(np.float64), minlength=n)
    light = white.ravel()[on].astype(np.float64)
    mean = np.bincount(lab, weights=light, minlength=n) / np.maximum(total, 1)
    var = np.bincount(lab, weights=light * light, minlength=n) / np.maximum(total, 1) - mean ** 2
    plain = ((total > 0) & (marked < PLAIN * np.maximum(total, 1))
             & (var < PLAIN_STD ** 2))
    plain[0] = False
    if not plain.any():
        return mask
    out = mask.copy()
    out[plain[labels]] = 0
    return out


def _table_median(white: np.ndarray, k: int) -> np.ndarray:
    """The table's lightness near each pixel: a median over ~3 tiles, where tiles and the
    table's drawn lines are the minority (on a quarter-size copy: the median is slow)."""
    h, w = white.shape
    small = cv2.resize(white, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    size = max(3, min(small.shape[0] - 1, small.shape[1] - 1, (3 * k) // 4) | 1)
    med = cv2.medianBlur(small, size) if min(small.shape) > 3 else small
    out: np.ndarray = cv2.resize(med, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.int16)
    return out


def _local_table_colour(lab: np.ndarray, k: int, faces: np.ndarray) -> np.ndarray:
    """The table's median colour (Lab a, b) over ~6 tiles around each pixel (on an
    eighth-size copy: the median is slow). Shape (H, W, 2).

    The ``faces`` (pixels standing out, not of the table's colours) are left out:
    each place they cover takes the colour of the table just around them. Between
    two rows of a hand faces are most of six tiles, and the median was then the
    faces' colour, so that the table in the gap between two melds differed from
    it in hue, was taken for faces and joined the rows (fresh scene 5028, 14
    tiles lost)."""
    h, w = lab.shape[:2]
    sw, sh = max(1, w // 8), max(1, h // 8)
    lab = np.ascontiguousarray(lab, np.float32)
    on_table = (~faces).view(np.uint8)
    # the table's a, b and its share of each cell, in one resize: the share in place of L
    # (cv2 calls on whole Lab images: 4x faster than numpy)
    kept = np.zeros_like(lab)
    cv2.copyTo(lab, on_table, kept)
    kept[..., 0] = on_table
    cells = cv2.resize(kept, (sw, sh), interpolation=cv2.INTER_AREA)
    table, ab = np.ascontiguousarray(cells[..., 0]), cells[..., 1:]
    # each cell's table colour: its own table pixels' mean where they are most of it,
    # else the mean of the table pixels around it (else, with none near, its own)
    near = max(3, (k // 8) | 1)
    weight = cv2.blur(table, (near, near))[..., None]
    spread = cv2.blur(ab, (near, near)) / np.maximum(weight, 1e-6)
    own = table[..., None]
    filled = np.where(own > 0.5, ab / np.maximum(own, 1e-6), spread)
    if (weight <= 1e-6).any():  # (rare: a resize of the whole Lab image costs 4 ms)
        everything = cv2.resize(lab, (sw, sh), interpolation=cv2.INTER_AREA)[..., 1:]
        filled = np.where(weight > 1e-6, filled, everything)
    small = filled.round().clip(0, 255).astype(np.uint8)
    size = max(3, min(small.shape[0] - 1, small.shape[1] - 1, (3 * k) // 4) | 1)
    med = [cv2.medianBlur(np.ascontiguousarray(small[..., c]), size)
           if min(small.shape[:2]) > 3 else small[..., c] for c in (0, 1)]
    out: np.ndarray = cv2.resize(np.dstack(med).astype(np.float32), (w, h),
                                 interpolation=cv2.INTER_LINEAR)
    return out


def _hue_step(lab: np.ndarray, local_ab: np.ndarray) -> np.ndarray:
    """Distance in colour (Lab a, b) of each pixel from the table's colour around it."""
    a = cv2.subtract(np.ascontiguousarray(lab[..., 1]), local_ab[..., 0])
    b = cv2.subtract(np.ascontiguousarray(lab[..., 2]), local_ab[..., 1])
    out: np.ndarray = cv2.magnitude(a, b)
    return out


def _table_distance(lab: np.ndarray, centres: np.ndarray,
                    weight: tuple[float, float, float] = (0.5, 1.0, 1.0)) -> np.ndarray:
    """Distance of each Lab pixel to the nearest table colour (lightness counts half:
    it is what light and shadow change).

    Written as ``|x|^2 - 2 x.c + |c|^2`` so that each colour costs one
    ``cv2.transform`` instead of a dozen full-image numpy passes."""
    if len(centres) == 0:
        return np.full(lab.shape[:-1], np.inf, np.float32)
    wv = np.array(weight, np.float32)
    x = np.ascontiguousarray(lab.reshape(-1, 1, 3), np.float32)
    sq = cv2.transform(cv2.multiply(x, x), (wv ** 2).reshape(1, 3)).ravel()
    best = None
    for c in np.asarray(centres, np.float32):
        d2 = np.asarray(cv2.transform(x, (-2 * wv ** 2 * c).reshape(1, 3)), np.float32).ravel()
        np.add(sq, d2, out=d2)  # (in place: the same sums as sq + lin + |c|^2)
        d2 += float(((wv * c) ** 2).sum())
        best = d2 if best is None else np.minimum(best, d2, out=best)
    assert best is not None
    out: np.ndarray = np.sqrt(np.maximum(best, 0, out=best), out=best).reshape(lab.shape[:-1])
    return out


def _blobs(mask: np.ndarray) -> list[np.ndarray]:
    """Contours of runs of touching faces (seams and ink closed, holes filled)."""
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
    closed = _frames_filled(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, k))
    opened = cv2.morphologyEx(closed, cv2.MORPH_OPEN, cv2.getStructuringElement(
        cv2.MORPH_RECT, (3, 3)))
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = [c for c in contours if cv2.contourArea(c) >= MIN_TILE_PX * MIN_TILE_PX / FACE_ASPECT]
    if not out:
        return []
    # A blob much smaller than one face is a stray reflection or a glyph on the table
    # (a face's size: the largest run's mean thickness, a face high; not its box's
    # short side, which a patch of shadowed table joined to the run can double).
    areas = np.array([cv2.contourArea(c) for c in out])
    box = cv2.minAreaRect(out[int(np.argmax(areas))])[1]
    face_h = min(*box, areas.max() / max(box))
    face_area = FACE_ASPECT * face_h * face_h

    def whole(c: np.ndarray) -> bool:
        """A run, not a speck nor a thin band or line."""
        return bool(cv2.contourArea(c) >= 0.3 * min(face_area, areas.max())
                    and min(cv2.minAreaRect(c)[1]) >= 0.3 * face_h)

    kept = [c for c in out if whole(c)]
    pieces = [c for c in out if not whole(c)]
    if len(pieces) < 2:
        return kept
    # A lone face can be broken in pieces by its ink (a flower's stem from top to
    # bottom), each a speck: two or three pieces a little apart whose outline
    # together (their hull: the ink between them is not in the mask) is a face's
    # size are one face. (Not more: a checked cloth's squares, touching at their
    # corners, are dozens of specks, and their hull is many faces.)
    drawn = np.zeros_like(mask)
    cv2.drawContours(drawn, pieces, -1, 255, -1)
    size = max(3, round(JOIN * face_h)) | 1
    near = cv2.dilate(drawn, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    _, group = cv2.connectedComponents(near)
    groups: dict[int, list[np.ndarray]] = {}
    for c in pieces:
        groups.setdefault(int(group[c[0, 0, 1], c[0, 0, 0]]), []).append(c)
    hulls = [cv2.convexHull(np.concatenate(cs)) for cs in groups.values() if 2 <= len(cs) <= 3]
    return kept + [h for h in hulls if whole(h) and cv2.contourArea(h) <= 1.5 * face_area]


def _frames_filled(mask: np.ndarray) -> np.ndarray:
    """The mask with the holes that frames leave in it filled, before opening it can
    break them open: small (:data:`HOLE`), in a solid run (:data:`SOLID`), and
    shaped and filled like a frame (:func:`_holds_face`).

    A framed white dragon (as Chinese sets draw it) is a dark frame ink on a face
    whose margin outside the frame is a pixel or two wide: the opening that clears
    specks off the mask broke that margin, the frame became a bay open to the
    table, too large for :func:`_ink_bays_closed`, and two such dragons in a row
    were lost (generated scene 12007, the scanned ``xmahjongg_real`` set). The
    frames' ink counts towards the run's solidity: three of that set's dragons in
    a meld are more frame than face (real-49 49110)."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return mask
    limit = HOLE * mask.shape[0] * mask.shape[1]
    n, labels = cv2.connectedComponents(mask, connectivity=8)
    pixels = np.bincount(labels.ravel(), minlength=n)
    framed: dict[int, list[np.ndarray]] = {}  # the holes that are frames, by their outline
    for c, (_, _, _, parent) in zip(contours, hierarchy[0], strict=True):
        if parent >= 0 and cv2.contourArea(c) <= limit and _holds_face(mask, c):
            framed.setdefault(parent, []).append(c)
    holes = []
    for parent, inside in framed.items():
        # A frame's ink counts as covered (a meld of framed dragons is more ink than
        # face), if face stands inside it apart from its rim: a net's small holes
        # hold face only at their rim, the lines around them.
        outline = contours[parent]
        x, y = outline[0, 0]
        ink = sum(cv2.contourArea(c) for c in inside if _holds_face(mask, c, rim=False))
        if pixels[labels[y, x]] + ink >= SOLID * cv2.contourArea(outline):
            holes += inside
    if not holes:
        return mask
    out = mask.copy()
    cv2.drawContours(out, holes, -1, 255, -1)
    return out


def _holds_face(mask: np.ndarray, hole: np.ndarray, rim: bool = True) -> bool:
    """Whether a hole of the mask is a frame: about a face's shape, holding face
    inside it (the frame's blank middle). The hole's outline runs along the mask
    around it; ``rim=False`` leaves that rim out of what it holds.

    A frame is a ring of ink around blank face; a patch of table enclosed by
    tiles and their shadows holds none, and the strip between two rows or
    under a row's faces is long and thin: filling those joined rows and cut
    faces wrongly (generated scenes 14003, 14042, 14108)."""
    x, y, w, h = cv2.boundingRect(hole)
    if min(w, h) < STRIP * max(w, h):
        return False
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [hole - [x, y]], -1, 255, -1)
    if not rim:
        cv2.drawContours(inside, [hole - [x, y]], -1, 0, 1)
    held = (mask[y:y + h, x:x + w] > 0) & (inside > 0)
    return bool(held.sum() >= FRAMED * max(1, int((inside > 0).sum())))


def _ink_bays_closed(contour: np.ndarray, lab: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The run's outline with the bays that ink at its faces' edges left open, closed.

    Holes that ink leaves in the mask are filled, but ink that reaches a face's
    edge leaves a bay open to the table: on cream faces on a cream table the
    mask loses the thin margin beyond the circles of the 5 and 6 dots, so a
    run's end and a seam became bays; one face was cut off as a speck of its
    own and a chow was cut a face short (development scene 161). A face is
    convex, and so is a row of them: the run's convex hull closes such bays.
    But a hull also spans what lies beside a run, so only what looks like ink
    is added: not of the table's colours, in a bay under :data:`INK_BAY` of a
    face (a face-down tile's back beside a kong, on a table of nearly its
    colour, is larger: fresh scene 3102), running across the run rather than
    along it (the tiles' bases and lit sides step in and out along a run's long
    edges) unless a quarter of a face deep or more (:data:`INK_DEEP`), and not
    darker than half the run. A bay closed but for a narrow mouth is ink whatever
    its size under a face, depth or darkness (:data:`INK_MOUTH`): dots whose
    margin broke at one point."""
    hull = cv2.convexHull(contour)
    x, y, w, h = cv2.boundingRect(hull)
    blob = np.zeros((h, w), np.uint8)
    cv2.drawContours(blob, [contour - [x, y]], -1, 255, -1)
    hull_mask = np.zeros((h, w), np.uint8)
    cv2.drawContours(hull_mask, [hull - [x, y]], -1, 255, -1)
    bay = hull_mask.copy()
    bay[blob > 0] = 0
    if not bay.any():
        return contour
    lab = lab[y:y + h, x:x + w]
    bay[_table_distance(lab, table) < TABLE_NEAR] = 0
    bay = np.asarray(cv2.morphologyEx(bay, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)),
                     np.uint8)  # not a sliver
    rect = cv2.minAreaRect(contour)
    corners = cv2.boxPoints(rect)
    sides = [corners[1] - corners[0], corners[2] - corners[1]]
    along = max(sides, key=lambda v: float(np.hypot(*v)))
    along = along / max(float(np.hypot(*along)), 1e-9)
    face_h = min(rect[1])
    lightness = float(np.median(lab[..., 0][blob > 0]))
    face_area = FACE_ASPECT * face_h ** 2
    n, labels, stats, _ = cv2.connectedComponentsWithStats(bay)
    ink = []
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA]
        if area >= face_area:
            continue
        ys, xs = np.nonzero(labels == i)
        length = np.ptp(xs * along[0] + ys * along[1])
        across = np.ptp(ys * along[0] - xs * along[1])
        if across >= INK_ACROSS * length and _mouth(labels == i, hull_mask) < INK_MOUTH:
            ink.append(i)
            continue
        if area >= INK_DEEP_BAY * face_area:
            continue
        shape = ((across > length and area < INK_BAY * face_area)
                 or INK_DEEP[0] * face_h <= across <= INK_DEEP[1] * face_h)
        if shape and lab[ys, xs, 0].mean() >= 0.5 * lightness:
            ink.append(i)
    if not ink:
        return contour
    blob[np.isin(labels, ink)] = 255
    outlines, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return np.asarray(max(outlines, key=cv2.contourArea) + np.array([x, y]), np.int32)


def _mouth(bay: np.ndarray, hull: np.ndarray) -> float:
    """The share of a bay's rim that lies outside the run's hull (its mouth)."""
    comp = np.pad(bay.astype(np.uint8), 1)  # (the hull's box may cut the rim)
    rim = (cv2.dilate(comp, np.ones((3, 3), np.uint8)) > 0) & (comp == 0)
    return float((np.pad(hull, 1)[rim] == 0).mean())


# --------------------------------------------------------------- 1-D splitting


def seam_profile(gray: np.ndarray, mask: np.ndarray, axis: int) -> np.ndarray:
    """Seam strength along ``axis`` (0: per column, 1: per row) of an upright strip.

    A seam darkens every pixel of its column; ink darkens only some. A high
    percentile of brightness in the column is therefore low only at seams.
    Long columns are cut into chunks (a grid of tiles is never perfectly
    straight over its whole size) and the chunks' strengths averaged.
    """
    g, m = (gray, mask) if axis == 0 else (gray.T, mask.T)
    h = g.shape[0]
    n = max(1, round(h / SEAM_CHUNK)) if h > 2 * SEAM_CHUNK else 1
    edges = np.linspace(0, h, n + 1).astype(int)
    total = np.zeros(g.shape[1], np.float32)
    weight = np.zeros(g.shape[1], np.float32)
    for a, b in itertools.pairwise(edges):
        ch = b - a
        lo, hi = a + int(ch * 0.04), max(a + int(ch * 0.96), a + int(ch * 0.04) + 1)
        inside = m[lo:hi] > 0
        ceiling = masked_percentile(g[lo:hi], inside, SEAM_PERCENTILE)
        # seams are narrow: compare with the brightest column a few pixels away, so
        # that broad ink (a wide character) does not look like a seam
        win = max(5, min(ch, SEAM_CHUNK) // 6) | 1
        ref = cv2.dilate(ceiling.reshape(1, -1).astype(np.float32),
                         np.ones((1, win), np.uint8)).ravel()
        cover = inside.mean(axis=0).astype(np.float32)
        total += np.clip(ref - ceiling, 0, None) * cover
        weight += cover
    strength: np.ndarray = total / np.maximum(weight, 1e-6)
    return strength


def column_seams(gray: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Seam strength per column of an upright row of faces, their margins included.

    Blur can wash a seam out over a face's height (small, distant or abutting
    faces), but two faces that abut leave a notch at the top and at the bottom
    of their seam (a face's corners are rounded, and the table shows between
    them), and ink keeps clear of a face's margins. So a column dark in both
    margin bands is a seam: the geometric mean of the two margins' seam
    strengths (which damps ink in one margin only, such as a corner numeral) is
    taken where it beats the full column's."""
    full = seam_profile(gray, mask, 0)
    y0, y1 = _extent(mask > 0, 1)
    band = int(MARGIN_BAND * (y1 - y0))
    if band < 3:
        return full
    top = seam_profile(gray[y0:y0 + band], mask[y0:y0 + band], 0)
    bot = seam_profile(gray[y1 - band:y1], mask[y1 - band:y1], 0)
    out: np.ndarray = np.maximum(full, np.sqrt(top * bot))
    return out


def masked_percentile(values: np.ndarray, inside: np.ndarray, q: float) -> np.ndarray:
    """Per column of ``values``, the ``q``-th percentile of the pixels ``inside``
    (0 for a column with none). A sort, not ``np.nanpercentile``: 50x faster here."""
    v = np.where(inside, values.astype(np.float32), -1.0)
    v.sort(axis=0)
    n = inside.sum(axis=0)
    idx = v.shape[0] - n + np.floor(q / 100 * np.maximum(n - 1, 0)).astype(int)
    out: np.ndarray = np.where(n > 0, v[np.clip(idx, 0, v.shape[0] - 1),
                                        np.arange(v.shape[1])], 0.0)
    return out


def estimate_pitch(strength: np.ndarray, lo: float, hi: float, prior: float | None
                   ) -> float | None:
    """Period of the seams, searched in ``[lo, hi]``; ``prior`` when the seams say little.

    With ``prior=None`` the first strong peak of the autocorrelation is taken,
    or None when there is no period at all."""
    # the blob's ends are the strongest "seams" of all: leave them out, and clip
    edge = max(3, len(strength) // 50)
    inner = strength[edge:-edge] if len(strength) > 3 * edge else strength
    inner = np.minimum(inner, np.percentile(inner, 99)) if inner.size else inner
    n = len(inner)
    lo_i, hi_i = max(2, int(lo)), min(int(hi) + 1, n - 1)
    s = inner - inner.mean()
    if hi_i <= lo_i or not np.any(s):
        return prior
    full = np.correlate(s, s, mode="full")[n - 1:]
    if full[0] <= 0:
        return prior
    ac = full / full[0]
    lags = np.arange(lo_i, hi_i)
    if prior is None:  # no idea of the size: the first strong peak (not a multiple of it)
        seg = ac[lo_i:hi_i]
        peaks = [i for i in range(1, len(seg) - 1) if seg[i] >= seg[i - 1] and seg[i] > seg[i + 1]]
        if not peaks:
            return None
        top = max(seg[i] for i in peaks)
        if top < 0.25:
            return None
        best = int(lags[next(i for i in peaks if seg[i] >= 0.7 * top)])
    else:
        score = ac[lo_i:hi_i] * np.exp(-0.5 * (np.log(lags / prior) / 0.2) ** 2)
        best = int(lags[int(np.argmax(score))])
        if ac[best] < 0.1:
            return prior
    # sub-pixel: refine on the parabola through the peak
    if lo_i < best < hi_i - 1:
        y0, y1, y2 = ac[best - 1], ac[best], ac[best + 1]
        den = y0 - 2 * y1 + y2
        if den < 0:
            return float(np.clip(best + 0.5 * (y0 - y2) / den, lo_i, hi_i - 1))
    return float(best)


def split_1d(strength: np.ndarray, start: int, end: int, pitch: float,
             wide: np.ndarray | None = None, wide_pitch: float = 0.0,
             open_ends: bool = False) -> list[int]:
    """Cut positions from ``start`` to ``end`` with near-regular spacing at strong seams.

    ``wide[x]`` (0..1) says how much column ``x`` looks like part of a turned
    tile, whose width is ``wide_pitch``; such segments are priced against that
    width instead. ``open_ends``: the run may start and end with a face cut short
    (by the photo's edge). Returns ``[start, c1, ..., end]``.

    Each face is priced by how far its width is from ``pitch``. Along a long
    row that lets a run of faces whose true seams are faint (a bright,
    blurred photo) be cut at the stronger dark columns of their ink instead
    (an 8 dots' two columns of dots), one face too wide and the next too narrow:
    such an uneven cut of :data:`EVEN_MIN_FACES` faces or more is cut again
    by :func:`_split_even`, which also prices the change of width between
    neighbours.
    """
    length = end - start
    if length < 0.5 * pitch:
        return [start, end]
    run = _Run(strength, start, end, pitch, wide, wide_pitch, open_ends)
    best = np.full(end + 1, -np.inf)
    prev = np.zeros(end + 1, int)
    best[start] = 0.0
    # widest first: a tie goes to the widest face, as in the pixel-by-pixel programme
    widths = np.arange(run.hi, (run.short if open_ends else run.lo) - 1, -1)
    blocks = run.blocks(np.arange(start + int(widths[-1]), end))
    # every face that may end at each cut, priced at once (blocks only share the score
    # so far): which may be cut, where it starts, its price, and the seam's gain
    ends = np.concatenate(blocks)
    starts = ends[:, None] - widths[None, :]
    allowed = run.allowed(starts, ends[:, None])
    starts = np.maximum(starts, start)  # (the faces that would start before the run are not ok)
    price = SPLIT_LAMBDA * run.cost(starts, ends[:, None])
    gains = run.gain(ends)
    i = 0
    for block in blocks:
        at = slice(i, i + block.size)
        a = starts[at]
        cand = np.where(allowed[at], best[a] - price[at], -np.inf)
        j = np.argmax(cand, axis=1)
        rows = np.arange(block.size)
        best[block] = cand[rows, j] + gains[at]
        prev[block] = a[rows, j]
        i += block.size
    if not np.isfinite(best[end]):
        n = max(1, round(length / pitch))
        return [start + round(i * length / n) for i in range(n + 1)]
    cuts = [end]
    while cuts[-1] != start:
        cuts.append(int(prev[cuts[-1]]))
    cuts.reverse()
    if len(cuts) > EVEN_MIN_FACES and run.uneven(cuts):
        return _split_even(run) or cuts
    return cuts


SPLIT_LAMBDA = 4.0
"""Weight of a face's departure from the pitch against the seam strength at its cut."""
EVEN_MIN_FACES = 5
"""Runs of this many faces or more are checked for an uneven cut (see :func:`split_1d`).
Shorter runs are melds, where a turned tile is wider than the others by right."""
UNEVEN = 0.2
"""Neighbouring faces whose widths differ by more than this share of the pitch
make a cut uneven."""
EVEN_LAMBDA = 8.0
"""Weight of the change of width between neighbouring faces in :func:`_split_even`
(4 to 16 cut the same benchmark and dev-set faces)."""


@dataclass(frozen=True)
class _Run:
    """One run of faces to cut: its seam strength and how its faces are priced."""

    strength: np.ndarray
    start: int
    end: int
    pitch: float
    wide: np.ndarray | None
    wide_pitch: float
    open_ends: bool

    @cached_property
    def lo(self) -> int:
        """The narrowest face (but for one cut short at an open end)."""
        return max(1, int(0.72 * self.pitch))

    @cached_property
    def hi(self) -> int:
        """The widest face (a turned one included)."""
        return int(1.3 * max(self.pitch, self.wide_pitch)) + 1

    @cached_property
    def short(self) -> int:
        """The narrowest face cut short at an open end."""
        return max(1, int(0.3 * self.pitch))

    @cached_property
    def _relative(self) -> np.ndarray:
        """Seam strength relative to the run's strongest."""
        out: np.ndarray = self.strength / (self.strength[self.start:self.end + 1].max() + 1e-6)
        return out

    @cached_property
    def _turned_columns(self) -> np.ndarray | None:
        """Cumulative ``wide`` (how many columns up to each look turned); None when
        no face is priced as turned."""
        if self.wide is None or self.wide_pitch <= 0:
            return None
        return np.concatenate([[0.0], np.cumsum(self.wide)])

    def gain(self, c: np.ndarray) -> np.ndarray:
        """The seam strength at cuts ``c``, relative to the run's strongest (the end: 0)."""
        out: np.ndarray = np.where(c < self.end, self._relative[np.minimum(c, self.end - 1)], 0.0)
        return out

    def blocks(self, cuts: np.ndarray) -> list[np.ndarray]:
        """``cuts`` (before the end) in blocks of ``lo`` positions, then the end.

        A face ending in a block starts before it (it is at least ``lo`` wide) or at
        the run's start, so a dynamic programme can price a whole block's cuts at
        once: a few dozen array operations per run rather than one per pixel. The
        end comes last: its face may be cut short by the photo's edge."""
        if cuts.size == 0:
            return [np.array([self.end])]
        edges = np.arange(int(cuts[0]), self.end + self.lo, self.lo)
        out = [cuts[(cuts >= x) & (cuts < x + self.lo)] for x in edges[:-1]]
        return [b for b in out if b.size] + [np.array([self.end])]

    def allowed(self, a: np.ndarray, c: int | np.ndarray) -> np.ndarray:
        """Whether faces ``[a, c)`` may be cut: inside the run, at least ``lo`` wide
        (at most ``hi`` is the callers' range of widths), or, at an open end, a face
        cut short by the photo's edge (at the start only while the run is shorter
        than ``lo`` there)."""
        width = c - a
        edge = self.open_ends & ((a == self.start) | (c == self.end))
        out: np.ndarray = ((a >= self.start) & ((width >= self.lo) | edge)
                           & ((a == self.start) | (c - self.start >= self.lo)))
        return out

    def _cut_short(self, a: np.ndarray, c: int | np.ndarray) -> np.ndarray | None:
        """Faces ``[a, c)`` cut short by the photo's edge (None: the run has no open end)."""
        if not self.open_ends:
            return None
        out: np.ndarray = ((a == self.start) | (c == self.end)) & (c - a < self.pitch)
        return out

    def _turned(self, a: np.ndarray, c: int | np.ndarray) -> np.ndarray | None:
        """Faces ``[a, c)`` that look turned (None: no face is priced as turned)."""
        cw = self._turned_columns
        if cw is None:
            return None
        out: np.ndarray = (cw[c] - cw[a]) / (c - a) > 0.5
        return out

    def cost(self, a: np.ndarray, c: int | np.ndarray) -> np.ndarray:
        """How far the widths of faces ``[a, c)`` are from the pitch (a turned face's
        from ``wide_pitch``; a face cut short at an open end costs nothing)."""
        width = (c - a).astype(np.float64)
        cost = ((width - self.pitch) / self.pitch) ** 2
        cut_short = self._cut_short(a, c)
        if cut_short is not None:
            cost = np.where(cut_short, 0.0, cost)
        turned = self._turned(a, c)
        if turned is not None:
            cost = np.where(turned, ((width - self.wide_pitch) / self.pitch) ** 2, cost)
        return cost

    def regular(self, a: np.ndarray, c: int | np.ndarray) -> np.ndarray:
        """Whether faces ``[a, c)`` are regular (neither turned nor cut short): regular
        faces should match their neighbours."""
        out = np.ones(np.broadcast(a, c).shape, bool)
        for odd in (self._cut_short(a, c), self._turned(a, c)):
            if odd is not None:
                out &= ~odd
        return out

    def uneven(self, cuts: list[int]) -> bool:
        """Whether two neighbouring regular faces differ in width by more than
        :data:`UNEVEN` of the pitch."""
        regular = self.regular(np.array(cuts[:-1]), np.array(cuts[1:]))
        widths = np.diff(cuts)
        return any(regular[k] and regular[k - 1]
                   and abs(int(widths[k]) - int(widths[k - 1])) > UNEVEN * self.pitch
                   for k in range(1, len(widths)))


def _split_even(run: _Run) -> list[int] | None:
    """The cuts of :func:`split_1d` with the change of width between neighbouring
    regular faces priced too (:data:`EVEN_LAMBDA`): the faces of one row are
    the same size, so a cut that makes one too wide and the next too narrow
    needs much stronger seams than a cut at the pitch.

    A second-order dynamic programme: the state is a cut and the width of the
    face that ends there. None when no cut fits."""
    start, end, pitch = run.start, run.end, run.pitch
    widths = np.arange(run.short if run.open_ends else run.lo, run.hi + 1)
    k = len(widths)
    best = np.full((end + 1, k), -np.inf)
    prev = np.full((end + 1, k), -1)  # the width index of the face before; -1: none
    regular = np.zeros((end + 1, k), bool)
    change = EVEN_LAMBDA * ((widths[:, None] - widths[None, :]) / pitch) ** 2
    # Cuts go only where the seam strength peaks (and at the ends): 10-30 times
    # fewer states, and a cut beside a peak is never better than the peak itself
    # but for the width it saves.
    peak = np.zeros(end + 1, bool)
    rel = run.gain(np.arange(end + 1))
    peak[start + 1:end] = (rel[start + 1:end] >= rel[start:end - 1]) & (
        rel[start + 1:end] >= rel[start + 2:end + 1]) & (rel[start + 1:end] > 0)
    peak[start] = peak[end] = True
    cuts_at = np.flatnonzero(peak[start + int(widths[0]):end]) + start + int(widths[0])
    for block in run.blocks(cuts_at):
        c = np.repeat(block, k)
        w = np.tile(np.arange(k), block.size)
        a = c - widths[w]
        ok = run.allowed(a, c)
        ok[ok] &= peak[a[ok]]
        c, w, a = c[ok], w[ok], a[ok]
        if c.size == 0:
            continue
        reg = run.regular(a, c)
        own = run.gain(c) - SPLIT_LAMBDA * run.cost(a, c)
        value = np.where(a == start, own, -np.inf)
        inner = np.flatnonzero(a > start)
        if inner.size:
            before = a[inner]
            total = best[before] - change[w[inner]] * (reg[inner, None] & regular[before])
            j = np.argmax(total, axis=1)
            value[inner] = total[np.arange(inner.size), j] + own[inner]
            prev[c[inner], w[inner]] = j
        best[c, w], regular[c, w] = value, reg
    i = int(np.argmax(best[end]))
    if not np.isfinite(best[end, i]):
        return None
    cuts = [end]
    while cuts[-1] > start:
        cut = cuts[-1]
        cuts.append(cut - int(widths[i]))
        i = int(prev[cut, i])
    return cuts[::-1]


# ----------------------------------------------------------------- per blob


@dataclass(frozen=True)
class _Strip:
    """A blob turned upright: gray and mask in strip pixels, and the way back."""

    gray: np.ndarray
    mask: np.ndarray
    to_image: np.ndarray  # 3x3 homography strip -> working image
    prepared: dict[float, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=dict, compare=False, repr=False)
    """The mask cleaned for cutting and its seams by aspect (:func:`_prepared`)."""
    bands: dict[float, _Bands] = field(default_factory=dict, compare=False, repr=False)
    """The row bands cut on that mask, by aspect (:func:`_band`)."""

    def to_working(self, points: np.ndarray) -> np.ndarray:
        """Points (N, 2) in strip pixels -> working pixels."""
        hom = np.c_[points, np.ones(len(points))] @ self.to_image.T
        out: np.ndarray = hom[:, :2] / hom[:, 2:3]
        return out


def _affine_strip(gray: np.ndarray, blob_mask: np.ndarray, contour: np.ndarray,
                  transpose: bool) -> _Strip:
    """The blob's minimum-area rectangle, long side horizontal (or vertical if ``transpose``)."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    if rw < rh:  # make the long side horizontal
        rw, rh, angle = rh, rw, angle + 90
    if transpose:
        rw, rh, angle = rh, rw, angle + 90
    pad = 3
    w, h = int(np.ceil(rw)) + 2 * pad, int(np.ceil(rh)) + 2 * pad
    a = np.deg2rad(angle)
    ux, uy = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    origin = np.array([cx, cy]) - ux * w / 2 - uy * h / 2
    to_image = np.vstack([np.column_stack([ux, uy, origin]), [0, 0, 1]])
    to_strip = cv2.invertAffineTransform(to_image[:2])
    g = cv2.warpAffine(gray, to_strip, (w, h), flags=cv2.INTER_LINEAR)
    m = cv2.warpAffine(blob_mask, to_strip, (w, h), flags=cv2.INTER_NEAREST)
    return _Strip(g, m, to_image)


def _fit_line(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    if len(pts) < 3:
        return None
    vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)


def _intersect(l1: tuple[np.ndarray, np.ndarray], l2: tuple[np.ndarray, np.ndarray]
               ) -> np.ndarray | None:
    (p, r), (q, s) = l1, l2
    den = r[0] * s[1] - r[1] * s[0]
    if abs(den) < 1e-6:
        return None
    t = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / den
    out: np.ndarray = p + t * r
    return out


def _upright_strip(gray: np.ndarray, blob_mask: np.ndarray, contour: np.ndarray,
                   transpose: bool, refine: bool = True) -> _Strip:
    """The blob rectified so that its seams are vertical and evenly spaced.

    The faces of a row form a rectangle on the table; its outline in the photo
    (two long sides, two ends, all straight lines) gives the homography that
    undoes the perspective, so the seams, which all point to one vanishing
    point in the photo, become parallel again.
    """
    rough = _affine_strip(gray, blob_mask, contour, transpose)
    if not refine:
        return rough
    m = _trim_sides(rough.gray, rough.mask) > 0
    y0, y1 = _extent(m, 1)
    x0, x1 = _extent(m, 0)
    if y1 - y0 < MIN_TILE_PX or x1 - x0 < MIN_TILE_PX:
        return rough
    cols = np.arange(x0 + (x1 - x0) // 10, x1 - (x1 - x0) // 10)
    cols = cols[m[:, cols].any(axis=0)]
    # the ends are fitted on the middle of the band, which a turned tile at the end
    # of a meld covers too (its face is lower than the others, bottoms aligned)
    rows = np.arange(y0 + 3 * (y1 - y0) // 10, y1 - 3 * (y1 - y0) // 10)
    rows = rows[m[rows].any(axis=1)]
    if len(cols) < 3 or len(rows) < 3:
        return rough
    tops = np.argmax(m[:, cols], axis=0)
    bots = m.shape[0] - 1 - np.argmax(m[::-1, cols], axis=0)
    lefts = np.argmax(m[rows], axis=1)
    rights = m.shape[1] - 1 - np.argmax(m[rows, ::-1], axis=1)
    # the long edges are fitted on the columns of full-height faces only: a turned
    # tile's face is shorter, and would pull one edge towards the middle
    full = (bots - tops) >= 0.9 * np.percentile(bots - tops, 95)
    if full.sum() >= 3:
        cols, tops, bots = cols[full], tops[full], bots[full]
    lines = (_fit_line(np.c_[cols, tops]), _fit_line(np.c_[rights, rows]),
             _fit_line(np.c_[cols, bots + 1]), _fit_line(np.c_[lefts, rows]))
    if any(ln is None for ln in lines):
        return rough
    top, right, bot, left = lines
    for end in (right, left):  # the ends of a row are across it, never along it
        if abs(end[1][0]) > np.sin(np.deg2rad(35)) * np.linalg.norm(end[1]):  # type: ignore[index]
            return rough
    corners = [_intersect(top, left), _intersect(top, right),  # type: ignore[arg-type]
               _intersect(bot, right), _intersect(bot, left)]  # type: ignore[arg-type]
    if any(c is None for c in corners):
        return rough
    quad = np.array(corners, np.float64)
    width, height = side_lengths(quad)
    # a sane quadrilateral: convex, close to the rough rectangle
    if (not cv2.isContourConvex(quad.astype(np.float32)) or width < 0.7 * (x1 - x0)
            or width > 1.3 * (x1 - x0) or height < 0.5 * (y1 - y0) or height > 1.5 * (y1 - y0)):
        return rough
    pad = 3
    w, h = round(width) + 2 * pad, round(height) + 2 * pad
    img_quad = rough.to_working(quad)
    dst = np.array([[pad, pad], [w - pad, pad], [w - pad, h - pad], [pad, h - pad]], np.float32)
    to_strip = cv2.getPerspectiveTransform(img_quad.astype(np.float32), dst)
    g = cv2.warpPerspective(gray, to_strip, (w, h), flags=cv2.INTER_LINEAR)
    mm = cv2.warpPerspective(blob_mask, to_strip, (w, h), flags=cv2.INTER_NEAREST)
    return _Strip(g, mm, np.linalg.inv(to_strip))


def _extent(mask: np.ndarray, axis: int) -> tuple[int, int]:
    idx = np.nonzero(mask.any(axis=axis))[0]
    return (int(idx[0]), int(idx[-1]) + 1) if idx.size else (0, 0)


def _without_spurs(mask: np.ndarray, aspect: float) -> np.ndarray:
    """The strip's mask less the rows above or below its faces that hold only a spur
    of table: under :data:`SPUR` of the widest row, narrower than
    :data:`SPUR_FACES` faces all along, and at least :data:`SPUR` of the faces'
    height (a ragged edge a few rows high is left: a pung's, trimmed, was cut
    into six).

    Why: a patch of table taken for faces (a lighter patch at a drawn line) that
    touches a row is cut with it, and the row's height, which sets the pitch of its
    faces, was then the patch's and the row's together: real-23 scene 41007's row of
    fourteen, under a patch a face wide and twice its height, was cut as a grid of
    140 half-size cells."""
    cover = (mask > 0).sum(axis=1)
    if not cover.any():
        return mask
    rows = np.flatnonzero(cover >= SPUR * cover.max())
    top, bottom = int(rows[0]), int(rows[-1]) + 1
    face_w = aspect * (bottom - top)
    return _rows_dropped(mask, [
        part for part in (slice(0, top), slice(bottom, None))
        if np.count_nonzero(cover[part]) >= SPUR * (bottom - top)  # (not a ragged edge)
        and cover[part].max() < SPUR_FACES * face_w])


def _rows_dropped(mask: np.ndarray, parts: list[slice]) -> np.ndarray:
    """``mask`` with the rows of ``parts`` cleared (``mask`` itself when there are none)."""
    if not parts:
        return mask
    out = mask.copy()
    for part in parts:
        out[part] = 0
    return out


def _without_plain_rows(gray: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The strip's mask less the rows above or below its faces where nothing is drawn,
    when they are at least :data:`SPUR` of the faces' height.

    Why: the table in a shadow's lighter rim is lighter than the shadow beside it
    and as grey as faces there, so a band of it can join a row above and below
    and make the row's blob two or three faces high (fresh-23 scene 40057: a
    row of fourteen cut as two giant cells). Faces are crossed by ink and by the
    seams between them in every row; that table is smooth (under
    :data:`PLAIN_INK` of its pixels at an edge, where the gaps between two rows
    of a real set, or a tile's side, hold several per cent)."""
    inside = mask > 0
    count = inside.sum(axis=1)
    if not count.any():
        return mask
    edges = np.abs(cv2.Sobel(gray.astype(np.float32), cv2.CV_32F, 1, 0, ksize=3)) > INK_EDGE
    ink = (edges & inside).sum(axis=1) / np.maximum(count, 1)
    drawn = np.flatnonzero(ink >= PLAIN_INK)
    if drawn.size == 0:
        return mask
    top, bottom = int(drawn[0]), int(drawn[-1]) + 1
    return _rows_dropped(mask, [part for part in (slice(0, top), slice(bottom, None))
                                if np.count_nonzero(count[part]) >= SPUR * (bottom - top)])


def _trim_sides(gray: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Drop the rows above and below the faces that are the tiles' lit sides.

    The side of a tile is as pale as its face but in its shade, so along the
    row's length its brightness stays a step below the faces' brightness. A step,
    not a level: light falling across the faces darkens their far end as much,
    smoothly (:data:`SIDE_STEP`). The faces' brightness is the brightest row's,
    unless the rows near it are fewer than half the run's: a side lit from the
    camera's side, or a glare along the faces' near edge, is then brighter than
    the faces, and the median row's is theirs.
    """
    inside = mask > 0
    ceiling = masked_percentile(gray.T, inside.T, SEAM_PERCENTILE)  # ink leaves gaps
    cover = inside.mean(axis=1)
    covered = cover > 0.2 * cover.max()

    def as_bright(level: float) -> np.ndarray:
        bright: np.ndarray = (ceiling >= 0.88 * level) & covered
        return bright

    faces = float(ceiling.max())
    ok = as_bright(faces)
    if 2 * ok.sum() < covered.sum():
        # the brightest rows are a minority: a lit side or a glare along the faces'
        # edge, brighter than the faces they would have trimmed away (real-16 27039)
        faces = float(np.median(ceiling[covered]))
        ok = as_bright(faces)
    rows = np.nonzero(ok)[0]
    if rows.size == 0:
        return mask
    out = mask.copy()
    first, last = np.nonzero(cover > 0)[0][[0, -1]]
    step = SIDE_STEP * faces
    if ceiling[rows[0]] - ceiling[max(first, rows[0] - 4)] >= step:
        out[: rows[0]] = 0
    if ceiling[rows[-1]] - ceiling[min(last, rows[-1] + 4)] >= step:
        out[rows[-1] + 1:] = 0
    return out


def _cut_strip(strip: _Strip, open_ends: bool = False, aspect: float = FACE_ASPECT,
               at_aspect: bool = False, pitch: float | None = None
               ) -> tuple[list[tuple[np.ndarray, int, bool]], float,
                          list[tuple[np.ndarray, int, bool]] | None]:
    """Quads (strip pixels) of one upright blob, with a score of how tile-like they are,
    and, for a row longer than :data:`OTHER_CUT_RUN`, the row cut into one face fewer
    or one more, whichever its seams fit better (``None`` for shorter runs and grids:
    :class:`OtherCut`).

    Two readings are tried when the seams allow both: one row of faces, and a
    grid of rows (a set laid out for a product photo); the one whose cuts sit
    on the stronger seams wins. ``at_aspect``: one row only, at the pitch of the
    photo's face (``aspect`` x the row's height, or ``pitch`` strip pixels when
    given), not the seams' period (see :func:`_readings`).
    """
    g = strip.gray
    m, col_s, row_s = _prepared(strip, aspect)
    memo = strip.bands.setdefault(aspect, {})
    y0, y1 = _extent(m, 1)
    x0, x1 = _extent(m, 0)
    height = y1 - y0
    if height < MIN_TILE_PX or x1 - x0 < MIN_TILE_PX:
        return [], -np.inf, None
    # one row: the pitch is about FACE_ASPECT x the height of the row of faces
    # (a steep photo foreshortens the faces: ``aspect`` is then the photo's own)
    pitch_x = estimate_pitch(col_s, 0.55 * min(height, 1.2 * (x1 - x0)),
                             min(max(ASPECT_RANGE[1], 1.25 * aspect) * height, x1 - x0),
                             aspect * height)
    assert pitch_x is not None
    if at_aspect:
        pitch_x = aspect * height if pitch is None else pitch
    # the run's ends: columns at least half a face high (not a tile's pale side or back)
    rx0, rx1 = _extent((m.sum(axis=0) >= 0.45 * 255 * height)[None, :], 0)
    pitches = _row_pitches(col_s, rx0, rx1, height, aspect, pitch_x)
    # (counts too close to call are cut each at its own aspect: the seams decide)
    best = max((_cut_rows(m, g, [(y0, y1)], p, [], open_ends,
                          aspect if len(pitches) == 1 else p / height, known=pitch is not None,
                          memo=memo)
                for p in pitches), key=lambda cut: cut[1])
    # Taller than a row of faces? Then in a grid the seams across the blob repeat
    # too, at about a face's height. (Not for one row of the photo's faces: a grid
    # brings its own pitch.)
    grid_x = None if at_aspect else estimate_pitch(col_s, MIN_TILE_PX, 0.6 * height, None)
    grid_y = estimate_pitch(row_s, 1.05 * grid_x, 1.9 * grid_x, None) if (
        grid_x is not None and height > 1.6 * grid_x / FACE_ASPECT) else None
    if grid_y is not None and estimate_pitch(row_s, 0.4 * grid_y, 0.6 * grid_y, None):
        grid_y = None  # the rows repeat at half that: two faces per cell, the wrong way round
    if grid_x is not None and grid_y is not None and height > 1.5 * grid_y:
        rn = _normalised(row_s, y0, y1)
        cuts = _best_division(row_s, rn, y0, y1, grid_y, None, 0.0, open_ends)
        grid = _cut_rows(m, g, list(itertools.pairwise(cuts)), grid_x,
                         [float(rn[c]) for c in cuts[1:-1]], open_ends, aspect, memo=memo)
        if grid[1] > best[1]:
            # seams repeating both ways are strong evidence of tiles: a grid read the
            # other way round would be a few giant cells
            return grid[0], grid[1] + 0.3, None
    runner_up = (_count_off_by_one(m, g, y0, y1, rx0, rx1, len(best[0]), open_ends, memo)
                 if len(best[0]) > OTHER_CUT_RUN else None)
    return (*best, runner_up)


def _prepared(strip: _Strip, aspect: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The strip's mask less plain rows, the tiles' sides and spurs of table, and its
    seams' strength along and across it, for cutting at ``aspect``: worked out
    once per strip and aspect, as a short run is cut up to four times on the
    same strip (:func:`_readings`)."""
    if aspect not in strip.prepared:
        m, g = strip.mask, strip.gray
        m = _without_spurs(_trim_sides(g, _without_plain_rows(g, m)), aspect)
        y0, y1 = _extent(m, 1)
        x0, x1 = _extent(m, 0)
        if y1 - y0 < MIN_TILE_PX or x1 - x0 < MIN_TILE_PX:  # (no faces to cut: no seams)
            strip.prepared[aspect] = (m, np.zeros(0), np.zeros(0))
        else:
            # a meld (a short run) may hold a turned tile, whose face is lower: no
            # common margins
            col_s = (column_seams(g, m) if x1 - x0 >= 5.5 * aspect * (y1 - y0)
                     else seam_profile(g, m, 0))
            strip.prepared[aspect] = (m, col_s, seam_profile(g, m, 1))
    return strip.prepared[aspect]


def _count_off_by_one(m: np.ndarray, g: np.ndarray, y0: int, y1: int, x0: int, x1: int,
                      n: int, open_ends: bool, memo: _Bands | None = None
                      ) -> list[tuple[np.ndarray, int, bool]] | None:
    """A long row of ``n`` faces (from ``x0`` to ``x1``) cut into ``n - 1`` or ``n + 1``
    faces, whichever its seams fit better: the cut the hand's count chooses when
    ``n`` leaves it a tile over or short (:class:`OtherCut`).

    Why: the seams of a row of the scanned set's bamboos and characters, drawn
    in columns, often fit a wrong count as well as the right one, and
    :func:`_row_pitches` then keeps the count whose cuts sit on the stronger
    seams: real-17 29085 came out a tile short so, and is read exactly with
    this cut. The row is divided as the first cut was (:func:`_best_division`),
    told the count instead of trying those near its pitch."""
    if x1 <= x0:
        return None
    tries = [_cut_rows(m, g, [(y0, y1)], (x1 - x0) / k, [], open_ends, (x1 - x0) / k / (y1 - y0),
                       count=k, memo=memo) for k in (n - 1, n + 1)]
    tries = [t for t in tries if t[0] and len(t[0]) != n]
    return max(tries, key=lambda cut: cut[1])[0] if tries else None


def _row_pitches(col_s: np.ndarray, x0: int, x1: int, height: int, aspect: float,
                 pitch: float) -> list[float]:
    """The pitch of a long row, checked against every tile count a photo allows: the
    one pitch to cut it at, or several (at most :data:`COUNT_TRIES`, the seams'
    period's first when it is among them) when other counts fit within
    :data:`COUNT_TIE` of the best; the row is then cut at each, at that pitch's
    own aspect (no prior for any), and the cuts' seams decide (:func:`_cut_strip`).

    The aspect prior (``aspect`` x the row's height) fails in steep photos: a
    tilt of 40-45° foreshortens a face-up tile's height to about its width, and
    a row seen along its length narrows the faces instead (aspect 0.5-1.4 in
    all). A long row has enough seams to decide by itself: for each count
    allowed, cuts walked one pitch at a time should land on strong seams (half
    the right count lands on every other seam only, and leaves the others
    unexplained; twice the count lands half its cuts on plain face). A mild prior
    on the aspect breaks near ties.

    Why several: in a 40° photo of a far hand, blurred, the seams of a row of
    eight dots and bamboo tiles are faint and the dots' columns repeat at two
    thirds of a face: twelve faces fitted 0.38, eight 0.40, and the period's
    twelve were kept; cut at eight, the cuts' seams scored 0.82 against 0.49
    (fresh-21 36123, every face cut in pieces). The scanned set draws its
    bamboos and characters in columns, and its rows' fits are often as close:
    over seventeen sets this mended ten hands and lost three (the best cut's
    seams were a wrong count's: real-21 37097, real-17 29085, real-16 27103)."""
    length = x1 - x0
    if length < LONG_ROW * aspect * height or pitch <= 0:
        return [pitch]
    sn = _normalised(col_s, x0, x1)
    w = max(2, round(0.1 * ASPECT_RANGE[0] * height))
    top = cv2.dilate(sn.reshape(1, -1).astype(np.float32), np.ones((1, 2 * w + 1), np.uint8))
    peaks = np.nonzero((sn >= 0.35) & (sn >= top.ravel()))[0]
    peaks = peaks[(peaks > x0 + w) & (peaks < x1 - w)]

    def fit(n: int) -> float:
        prior = ASPECT_PRIOR * abs(float(np.log(length / n / (aspect * height))))
        return _comb_fit(sn, peaks, x0, x1, n) - prior

    n_lo = max(2, int(np.ceil(length / (ASPECT_RANGE[1] * height))))
    n_hi = max(n_lo, min(int(length / (ASPECT_RANGE[0] * height)), MAX_RUN))
    current = max(1, round(length / pitch))
    fits = {n: fit(n) for n in {*range(n_lo, n_hi + 1), current}}
    first = max(fits.values())
    near = sorted((n for n in fits if fits[n] >= first - COUNT_TIE and n != current),
                  key=fits.__getitem__, reverse=True)
    kept = [pitch] if fits[current] >= first - COUNT_TIE else []
    return (kept + [length / n for n in near])[:COUNT_TRIES]


def _comb_fit(sn: np.ndarray, peaks: np.ndarray, start: int, end: int, n: int) -> float:
    """How well ``n`` faces fill ``[start, end)`` (about 0..1).

    Cuts are walked from ``start`` one pitch at a time, each taken at the
    strongest seam within 0.15 of a face of where it is expected (the walk follows
    the seams: a rectified strip is not exactly evenly spaced). The fit is the
    harmonic mean of the cuts' seam strength and the share of the strip's seam
    peaks (``peaks``) that a cut explains, less how far the last face's width is
    from the pitch."""
    pitch = (end - start) / n
    tol = max(1, round(0.15 * pitch))
    pos = float(start)
    found, cuts = [], []
    for _ in range(n - 1):
        target = round(pos + pitch)
        lo, hi = max(start + 1, target - tol), min(end - 1, target + tol + 1)
        if hi <= lo:
            found.append(0.0)
            pos += pitch
            continue
        j = lo + int(np.argmax(sn[lo:hi]))
        found.append(float(sn[j]))
        cuts.append(j)
        pos = float(j) if sn[j] > 0.3 else pos + pitch
    precision = float(np.mean(found)) if found else 0.0
    if peaks.size and cuts:
        near = np.abs(peaks[:, None] - np.array(cuts)[None, :]).min(axis=1) <= 2
        recall = float(sn[peaks][near].sum() / sn[peaks].sum())
    else:
        recall = 1.0 if not peaks.size else 0.0
    f = 2 * precision * recall / max(precision + recall, 1e-6)
    return f - abs(end - pos - pitch) / pitch


def _cut_rows(m: np.ndarray, g: np.ndarray, rows: list[tuple[int, int]], pitch_x: float,
              seam_score: list[float], open_ends: bool = False, aspect: float = FACE_ASPECT,
              known: bool = False, count: int | None = None, memo: _Bands | None = None
              ) -> tuple[list[tuple[np.ndarray, int, bool]], float]:
    """Cut each row band of a strip into faces; the score is the mean seam strength at
    the cuts less the faces' departure from a face's aspect. ``known``: ``pitch_x``
    is the photo's own face width (see :func:`_best_division`); ``count``: each
    band is cut into that many faces."""
    quads: list[tuple[np.ndarray, int, bool]] = []
    aspects: list[float] = []
    seam_score = list(seam_score)
    bands = [_band(m, g, ra, rb, pitch_x, len(rows), memo) for ra, rb in rows]
    shared = _shared_columns(bands, m.shape[1], pitch_x)
    for line, ((ra, rb), band) in enumerate(zip(rows, bands, strict=True)):
        if band is None:
            continue
        band_s, sn, bx0, bx1, wide = band.strength, band.norm, band.x0, band.x1, band.wide
        if shared is not None:
            band_s = sn = np.clip(OWN_COLUMNS * sn + (1 - OWN_COLUMNS) * shared, 0, 1)
        row_h = rb - ra
        # A turned face is as wide as an upright one is long: 4:3 of the upright width
        # whatever the tilt, which shortens heights, not widths (the row's height is
        # that only from straight above: a turned 7 dots in a 37-degree photo was cut
        # at the next tile's dots, benchmark scene 1012).
        cuts = _best_division(band_s, sn, bx0, bx1, pitch_x, wide,
                              pitch_x / FACE_ASPECT if wide is not None else 0.0, open_ends,
                              known, count)
        band_m = m[ra:rb]
        for a, b in itertools.pairwise(cuts):
            if b - a < MIN_TILE_PX * 0.7:
                continue
            seg = band_m[:, a:b] > 0
            ys = np.nonzero(seg.mean(axis=1) > 0.3)[0]
            if ys.size == 0:
                continue
            top, bot = ra + ys[0], ra + ys[-1] + 1
            if (bot - top) < 0.4 * row_h:
                continue
            sideways = bool((b - a) > TURNED * (bot - top))
            quads.append((np.array([[a, top], [b, top], [b, bot], [a, bot]], np.float64),
                          line, sideways))
            if b < bx1:
                seam_score.append(float(sn[b]))
            ratio = (b - a) / (bot - top)
            aspects.append(min(ratio, 1 / ratio) if sideways else ratio)
    if not quads:
        return [], -np.inf
    aspect_err = float(np.median(np.abs(np.log(np.array(aspects) / aspect))))
    seams = float(np.mean(seam_score)) if seam_score else 0.3
    return quads, seams - 3 * aspect_err


@dataclass(frozen=True)
class _Band:
    """One row band of a strip: its seam profile, normalised, and where its faces run."""

    strength: np.ndarray
    norm: np.ndarray
    x0: int
    x1: int
    wide: np.ndarray | None  # columns that look like a turned tile (a single short run)


_Bands = dict[tuple[int, int, bool, int], "_Band | None"]
"""Row bands already worked out on one strip's cleaned mask (:func:`_band`)."""


def _band(m: np.ndarray, g: np.ndarray, ra: int, rb: int, pitch_x: float, n_rows: int,
          memo: _Bands | None = None) -> _Band | None:
    """One row band's seam profile, normalised profile, extent and turned-tile columns
    (None when the band holds no run of faces). ``memo`` keeps them for the other
    pitches a strip is cut at: the pitch only says whether the run is short."""
    band_m = m[ra:rb]
    row_h = rb - ra
    cols = band_m.sum(axis=0) / 255.0
    # the run's ends: columns at least half a face high (a pale side below a
    # tile's dark back is lower than that)
    bx0, bx1 = _extent((cols >= 0.45 * row_h)[None, :], 0)
    if bx1 - bx0 < MIN_TILE_PX:
        return None
    # a turned tile is only ever in a meld: a short run of its own
    short = bool((bx1 - bx0) < 5.5 * pitch_x)
    key = (ra, rb, short, n_rows)
    if memo is not None and key in memo:
        return memo[key]
    full_h = np.percentile(cols[bx0:bx1], 90)
    band_s = (seam_profile(g[ra:rb], band_m, 0) if short and n_rows == 1
              else column_seams(g[ra:rb], band_m))
    wide = (cols < 0.87 * full_h).astype(np.float64) if n_rows == 1 and short else None
    out = _Band(band_s, _normalised(band_s, bx0, bx1), bx0, bx1, wide)
    if memo is not None:
        memo[key] = out
    return out


def _shared_columns(bands: list[_Band | None], width: int, pitch: float) -> np.ndarray | None:
    """The seams a grid's rows share: the geometric mean of their normalised column
    profiles (each widened by a few pixels: a grid is never perfectly straight).

    A set laid out in a grid has its columns in line, so a seam runs on through
    every row, however faintly, while ink is in some rows only: a row of bamboos
    (sticks drawn in columns, seams washed out) is cut where every row shows a
    seam. Rows laid out of line share nothing, and their own seams decide. None for
    fewer than three rows."""
    present = [b for b in bands if b is not None]
    if len(present) < 3:
        return None
    logs = np.zeros(width, np.float64)
    count = np.zeros(width, np.float64)
    k = np.ones((1, 2 * max(1, round(0.05 * pitch)) + 1), np.uint8)
    for b in present:
        wide = cv2.dilate(b.norm.reshape(1, -1).astype(np.float32), k).ravel()
        logs[b.x0:b.x1 + 1] += np.log(SHARED_FLOOR + wide[b.x0:b.x1 + 1])
        count[b.x0:b.x1 + 1] += 1
    out: np.ndarray = np.where(count >= 3, np.exp(logs / np.maximum(count, 1)) - SHARED_FLOOR,
                               0.0).clip(0, 1)
    return out


def _best_division(strength: np.ndarray, sn: np.ndarray, start: int, end: int, pitch: float,
                   wide: np.ndarray | None, wide_pitch: float,
                   open_ends: bool = False, known: bool = False, count: int | None = None
                   ) -> list[int]:
    """Cuts of one run of faces, trying the tile counts near ``length / pitch`` (only
    ``count`` when given).

    The pitch from the seams' period can be off by a tenth (blur, few seams),
    and that is a tile too many over a long row; the count whose cuts sit on the
    strongest seams wins (see :func:`_division_fit`). A long row is also tried
    cut into equal faces (:func:`_equal_cuts`): where dark ink drawn in columns
    (8 dots, bamboo sticks) outshines the faint seams of a bright, blurred set,
    :func:`split_1d` follows the ink, and the faces it cuts are unequal. So is a
    run cut at a ``known`` face width (the photo's own, :func:`_readings`): a meld
    has too few seams to outvote its ink, and that width is its best evidence."""
    if end - start < 1 or pitch <= 0:
        return [start, end]
    n_est = (end - start) / pitch
    row = wide is None and n_est >= LONG_ROW  # a row of a hand, longer than any meld
    best: tuple[float, list[int]] | None = None
    counts = (range(max(1, round(n_est * 0.9)), max(1, round(n_est * 1.1)) + 1)
              if count is None else (count,))
    for n in counts:
        readings = [split_1d(strength, start, end, (end - start) / n, wide, wide_pitch, open_ends)]
        if row or known:
            readings.append(_equal_cuts(sn, start, end, n))
        for cuts in readings:
            fit = _division_fit(cuts, sn, pitch, row, known)
            if best is None or fit > best[0]:
                best = (fit, cuts)
    assert best is not None
    return best[1]


KNOWN_WIDTH = 4.0
"""Weight of the faces' departure from a known face width (the photo's own, learnt
from its long runs) in :func:`_division_fit`: the mean of each face's |log| ratio
to an upright face, one of them perhaps turned (:func:`_width_misfit`). Three 9
bamboos whose sticks outshine their seams were cut as four faces of 0.8 of that
width (fresh-12 20116): the programme follows the sticks, and 0.6 x the mean
width's ratio (the rule for a pitch from the seams' own period) did not outweigh
them. Once only one face may be turned, 3 still cut a kong of four 8 dots at its
dots (fresh-11 17080: faces of 0.7, 1, 1 and 1.25 of that width); over the
fourteen older sets 4 mended it and two more hands and lost none, 5 lost a chow
led by a turned tile (fresh-9 14016)."""
EQUAL_TOLERANCE = 0.05
"""How far (a share of the pitch) :func:`_equal_cuts` moves a cut to the strongest seam."""
UNEQUAL = 4.0
"""Weight of the spread of a long row's face widths (their coefficient of variation)
in :func:`_division_fit`. The faces of one row are the same size: a spread of
8 % (cuts that follow ink in columns) costs 0.32 of seam strength. In the
twelve scene sets, 133 hands had a tile missed or extra without it and 125
with it (real-12 19088 and 19107 among those mended; in the KDE sets one hand
mended and one lost, fresh-11 17078 and 17080); a weight of 6, with cuts that
follow the seams' drift, mended five."""


def _equal_cuts(sn: np.ndarray, start: int, end: int, n: int) -> list[int]:
    """``n`` equal faces from ``start`` to ``end``, each cut moved to the strongest
    seam within :data:`EQUAL_TOLERANCE` of a face of where it falls."""
    pitch = (end - start) / n
    tol = max(1, round(EQUAL_TOLERANCE * pitch))
    cuts = [start]
    for k in range(1, n):
        x = round(start + k * pitch)
        lo, hi = max(cuts[-1] + 1, x - tol), min(end - 1, x + tol + 1)
        cuts.append(lo + int(np.argmax(sn[lo:hi])) if hi > lo else x)
    return [*cuts, end]


def _division_fit(cuts: list[int], sn: np.ndarray, pitch: float, row: bool,
                  known: bool = False) -> float:
    """How well ``cuts`` divide a run: the mean seam strength at the inner cuts, less
    how far the faces' mean width is from ``pitch`` (each face's width from a
    ``known`` one, :data:`KNOWN_WIDTH`), and, in a long ``row``, less how unequal
    the faces are (:data:`UNEQUAL`; the end faces left out, as a photo's edge may
    cut them short)."""
    inner = cuts[1:-1]
    fit = float(np.mean(sn[inner])) if inner else 0.35
    if known:  # each face an upright face's width, or one of them a turned one's
        fit -= KNOWN_WIDTH * _width_misfit(np.diff(cuts) / pitch)
    else:
        fit -= 0.6 * abs(float(np.log((cuts[-1] - cuts[0]) / (len(cuts) - 1) / pitch)))
    if row and len(cuts) > 4:
        widths = np.diff(cuts)[1:-1]
        fit -= UNEQUAL * float(np.std(widths) / np.mean(widths))
    return fit


def _width_misfit(ratios: np.ndarray) -> float:
    """The mean |log| ratio of faces to an upright face's width, where one face, the
    one it suits best, may be a turned tile (its height): a meld shows one tile
    turned at most. Each face free to be turned, a kong of four 8 dots, whose two
    columns of dots part more plainly than its seams, read as three turned faces
    (fresh-11 17080)."""
    upright = np.abs(np.log(ratios))
    turned = np.abs(np.log(ratios * FACE_ASPECT))
    gain = upright - turned
    best = int(np.argmax(gain))
    if gain[best] > 0:
        upright[best] = turned[best]
    return float(np.mean(upright))


def _normalised(strength: np.ndarray, start: int, end: int) -> np.ndarray:
    """Seam strength relative to the strong seams inside ``[start, end)`` (edges excluded)."""
    inner = strength[start + 3: end - 3]
    top = max(float(np.percentile(inner, 98)), 0.6 * float(inner.max())) if inner.size else 0.0
    out: np.ndarray = np.clip(strength / (top + 1e-6), 0, 1) if top > 0 else strength * 0
    return out


Plain = Literal["", "back", "blank"]
"""What :func:`_with_face_down` made of a cell: one of the run's faces (""), a
face-down tile, or a blank face beside the run."""


def _with_face_down(cut: list[tuple[np.ndarray, int, bool]], strip: _Strip, lab: np.ndarray,
                    table: np.ndarray, mask: np.ndarray,
                    ) -> list[tuple[np.ndarray, int, bool, Plain]]:
    """Add the face-down tiles that continue a run of faces at either end, each marked
    "back" (the run's own faces: "").

    A tile's back is neither face nor table: one plain colour, the size of a
    face, right where the next tile of the run would be (a concealed kong shows
    two backs at its ends, or two in the middle between two runs). A plain
    tile there of the faces' own colour is a blank face (a Japanese set's white
    dragon, in shadow beside the run): it is marked "blank" and added face up
    (:mod:`vision.backs`).
    """
    out: list[tuple[np.ndarray, int, bool, Plain]] = [(c, ln, sw, "") for c, ln, sw in cut]
    # (measured once, and only if a plain tile is found: most runs have none)
    paper = cache(lambda: _faces_colour([strip.to_working(c) for c, _, _ in cut], lab, mask))
    upright = [c for c, _, sw in cut if not sw] or [c for c, _, _ in cut]
    pitch = float(np.median([c[1, 0] - c[0, 0] for c in upright]))
    top = float(np.median([c[0, 1] for c in upright]))
    bot = float(np.median([c[2, 1] for c in upright]))
    for direction in (-1, 1):
        edge = min(c[0, 0] for c, _, _ in cut) if direction < 0 else max(c[1, 0] for c, _, _ in cut)
        for _ in range(2):
            a, b = (edge - pitch, edge) if direction < 0 else (edge, edge + pitch)
            corners = np.array([[a, top], [b, top], [b, bot], [a, bot]], np.float64)
            quad = strip.to_working(corners)
            plain = _plain_tile(quad, lab, table, mask)
            if plain is None and _side_shows(a, b, top, bot, strip, lab, table, paper()):
                plain = _plain_tile(quad, lab, table, mask, on_side=True)
                if plain is not None and has_faces_colour(plain, paper()):
                    plain = None  # a blank face is found without a side: this is table
            if plain is None:
                break
            out.append((corners, cut[0][1], False, "blank" if has_faces_colour(plain, paper())
                        else "back"))
            edge = a if direction < 0 else b
    out.sort(key=lambda t: float(t[0][0, 0]))
    return out


def _inner_region(quad: np.ndarray, shape: tuple[int, ...], shrink: float
                  ) -> tuple[slice, slice, np.ndarray] | None:
    """The middle of a quad (``shrink`` of its size, away from the seams): the rows and
    columns of its box and a boolean selection within them; None off the picture."""
    h, w = shape[:2]
    if quad[:, 0].min() < 0 or quad[:, 1].min() < 0 or quad[:, 0].max() >= w or (
            quad[:, 1].max() >= h):
        return None
    centre = quad.mean(axis=0)
    inner = (centre + shrink * (quad - centre)).astype(np.int32)
    x0, y0 = inner.min(axis=0)
    x1, y1 = inner.max(axis=0) + 1
    region = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(region, inner - [x0, y0], 255)
    return slice(y0, y1), slice(x0, x1), region > 0


def _faces_colour(quads: list[np.ndarray], lab: np.ndarray, mask: np.ndarray
                  ) -> np.ndarray | None:
    """The faces' own colour (median Lab of the face pixels in the middle of ``quads``)."""
    px = []
    for quad in quads:
        inner = _inner_region(quad, mask.shape, 0.6)
        if inner is not None:
            rows, cols, sel = inner
            px.append(lab[rows, cols][sel & (mask[rows, cols] > 0)])
    pixels = np.concatenate(px) if px else np.zeros((0, 3), np.float32)
    return np.median(pixels, axis=0) if len(pixels) >= 20 else None


def _plain_tile(quad: np.ndarray, lab: np.ndarray, table: np.ndarray, mask: np.ndarray,
                on_side: bool = False) -> np.ndarray | None:
    """The colour (median Lab) of a tile-sized patch of one plain colour that is neither
    a face the mask found nor the table; None when it is not one. ``on_side``: a
    tile's pale side shows along the patch's edge (:func:`_side_shows`), so it may
    have the table's colour (a green back on green felt).

    One plain colour: nearly all its pixels near their median (:data:`ONE_COLOUR_SHARE`),
    not a small spread of them all: the probe is an upright box in the run's frame,
    and a back seen at an angle leaves a little table or rim in its corners (six
    backs of four concealed kongs were lost so in real-11, their spread in hue 11-12).
    """
    inner = _inner_region(quad, mask.shape, 0.7)  # away from the seams
    if inner is None:
        return None
    rows, cols, sel = inner
    if sel.sum() < MIN_TILE_PX * MIN_TILE_PX / 2:
        return None
    if (mask[rows, cols][sel] > 0).mean() > 0.2:
        return None  # a face with ink, already cut (or not a tile)
    px = lab[rows, cols][sel]
    colour: np.ndarray = np.median(px, axis=0)
    chroma_dist = _table_distance(px[None], table, HUE_ONLY)[0]
    darker = len(table) > 0 and colour[0] < DARKER_THAN_TABLE * float(np.min(table[:, 0]))
    if not (darker or on_side) and (np.median(chroma_dist) < 10 or (chroma_dist < 6).mean() > 0.2):
        return None  # the table (or its shadow) shows there
    near = ((np.abs(px[:, 1:] - colour[1:]).max(axis=1) < ONE_COLOUR_HUE)
            & (np.abs(px[:, 0] - colour[0]) < ONE_COLOUR_LIGHTNESS))
    if near.mean() < ONE_COLOUR_SHARE:
        return None  # not one plain colour
    return colour


def _pale(points: np.ndarray, strip: _Strip, lab: np.ndarray, table: np.ndarray,
          faces: np.ndarray) -> np.ndarray:
    """Whether each strip point (N, 2) shows a tile's pale layer: the faces' hue, a
    side's shading of their lightness (:mod:`vision.backs`), and no table colour."""
    xy = np.round(strip.to_working(points)).astype(int)
    h, w = lab.shape[:2]
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    px = lab[np.clip(xy[:, 1], 0, h - 1), np.clip(xy[:, 0], 0, w - 1)]
    out: np.ndarray = (inside & of_faces_colour(px, faces)
                       & (_table_distance(px[None], table)[0] >= SIDE_FROM_TABLE))
    return out


def _band_share(a: float, b: float, rows: np.ndarray, strip: _Strip, lab: np.ndarray,
                table: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Per strip row: the share of columns of ``[a, b]`` (its middle) that are pale."""
    margin = SIDE_MARGIN * (b - a)
    cols = np.linspace(a + margin, b - margin, 9)
    xs, ys = np.meshgrid(cols, rows)  # row by row, as the shares are taken
    pale = _pale(np.c_[xs.ravel(), ys.ravel()], strip, lab, table, faces)
    share: np.ndarray = pale.reshape(len(rows), len(cols)).mean(axis=1)
    return share


def _side_shows(a: float, b: float, top: float, bot: float, strip: _Strip, lab: np.ndarray,
                table: np.ndarray, faces: np.ndarray | None) -> bool:
    """Whether a tile's pale layer shows along an edge of the patch ``[a, b]`` x
    ``[top, bot]``, as it does at the edge of the run's faces: a tile stands there,
    whatever the colour of its back (a green back on green felt).

    Seen at an angle, a tile shows its side, and the side shows the pale layer of
    the tile (the faces' hue, shaded), a band along the edge nearest the camera
    (inside the faces' boxes, whose outline takes it in). The table has no such
    band; unless it has the faces' colour itself, when the rule is not used."""
    if faces is None or (len(table) and of_faces_colour(np.asarray(table), faces).any()):
        return False
    height = bot - top
    rows = np.r_[np.arange(top - SIDE_OUT * height, top + SIDE_IN * height),
                 np.arange(bot - SIDE_IN * height, bot + SIDE_OUT * height)]
    return int((_band_share(a, b, rows, strip, lab, table, faces) >= SIDE_SHARE).sum()) >= 2


def _drop_duplicates(quads: list[TileQuad]) -> list[TileQuad]:
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
    strip: _Strip
    with_side: bool = False  # one cell, a face and its tile's side (:func:`_face_and_side`)
    other_count: list[tuple[np.ndarray, int, bool]] | None = None
    """A long row cut into one face fewer or more (:func:`_cut_strip`): its other cut."""

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
    shade for :func:`_trim_sides` to find, so the one cell was a face and a
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
    strips: dict[tuple[bool, bool], _Strip] = field(default_factory=dict, compare=False,
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
            src.strips[transpose, inside] = _upright_strip(src.gray, src.mask, src.contour,
                                                           transpose, refine=inside)
        strip = src.strips[transpose, inside]
        to_image = src.back @ strip.to_image
        pitch = None if face_width is None else face_width / _strip_scale(strip, to_image)
        cut, score, other_count = _cut_strip(strip, open_ends=not inside, aspect=aspect,
                                             at_aspect=at_aspect or pitch is not None,
                                             pitch=pitch)
        out.append(_Reading(cut, score, _Strip(strip.gray, strip.mask, to_image),
                            other_count=other_count))
        if out[-1].lines == 1 and len(cut) >= 4:
            break  # one row along the blob's long axis: the usual hand, no doubt left
    return out


def _strip_scale(strip: _Strip, to_image: np.ndarray) -> float:
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
    strips (a steep photo foreshortens them well past :data:`FACE_ASPECT`)."""
    ratios = [_wide(c) for r in readings if len(r.cut) >= 6 and r.lines == 1
              for c, _, sw in r.cut if not sw]
    if len(ratios) < 6:
        return None
    return float(np.clip(np.median(ratios), 0.5, 1.4))


def _gap(left: np.ndarray, right: np.ndarray) -> float:
    """Strip pixels between two faces of a row (0 when they touch)."""
    return abs(float(right[0, 0] - left[1, 0]))


def segment(image: np.ndarray, *, work_side: int = WORK_SIDE) -> Segmentation:
    """Find the tile faces in an RGB image; quads are in the image's own pixels."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ValueError(f"expected an RGB uint8 image (H, W, 3), got {image.dtype} "
                         f"{image.shape}")
    h, w = image.shape[:2]
    scale = _work_scale(max(h, w), work_side)
    small = cv2.resize(image, (max(1, round(w * scale)), max(1, round(h * scale))),
                       interpolation=cv2.INTER_AREA) if scale < 1 else image
    gray = cv2.cvtColor(small, cv2.COLOR_RGB2GRAY)
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB).astype(np.float32)
    mask, table = _face_mask(small, lab)
    quads: list[TileQuad] = []
    others: list[OtherCut] = []
    blobs: list[tuple[list[_Reading], bool, _Source]] = []
    depths: list[float] = []  # each blob's centre row (working pixels)
    for contour in _blobs(mask):
        contour = _ink_bays_closed(contour, lab, table)
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
        blobs.append((_readings(src, inside, FACE_ASPECT), inside, src))
        depths.append(y + bh / 2)
    best_readings = [max(r, key=lambda x: x.score) for r, _, _ in blobs]
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
    quads = _drop_duplicates(quads)
    border = 2.0 / scale
    return Segmentation(tuple(quads), (w, h), _touching_border(quads, (w, h), border), border,
                        tuple(others))


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
        found = _with_face_down(cut, strip, lab, table, mask)
    return [TileQuad(strip.to_working(corners) / scale, blob, line, sideways, plain == "back",
                     sideways and _wide(corners) < SURELY_TURNED, plain == "blank")
            for corners, line, sideways, plain in found]
