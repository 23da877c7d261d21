"""Which pixels of a photo are tile faces, and the runs of touching faces they make.

Why this is the first step of :mod:`vision.segment`: tiles in a hand touch, so
their faces cannot be found one by one; what can be found is where the faces
are, as opposed to the table. Faces are light and unsaturated; the table is
learnt from the photo's border (its lightness near each pixel, so that shadows
and falling light are followed, and its colours by k-means in Lab). A face in
the shade, a table lit brighter than the faces, a table of the faces' own
colour and ink that bites into a face's outline each have their own rule
below. The mask is then closed and its holes filled, giving one blob per run of
touching tiles (:func:`find_blobs`), which :mod:`vision.seams` cuts into faces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

FACE_ASPECT = 0.75
"""Width / height of an upright tile face (typical sets: 0.68-0.8)."""
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
MIN_TILE_PX = 10
"""A face narrower than this (working pixels) is noise, not a tile."""
STANDS_CLEAR = 40
"""V - S this much more above the table's darkest around a pixel than faces must stand
(``stands_out`` in :func:`face_mask`) makes a face even below :data:`FACE_FLOOR`:
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
"""Distance (:func:`table_distance`) to one table colour under which the photo's
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
"""Weights of :func:`table_distance` that leave lightness out: a colour's hue (Lab a, b),
which light and shadow leave alone."""
LIGHTEST_TABLE = 11.0
"""Distance (:func:`table_distance`) under which the mask's lightest pixels are the
table's own colour rather than faces a little lighter than the table. Ivory faces
on a table of their hue, 24 lighter than its lightest colour, are 11.8 from it
(real-12 19110: at :data:`TABLE_NEAR` they were taken for table, four tiles lost);
the lit middle of a pale green table 9.2 (real-16 27087)."""
LIGHTEST_OWN = 0.002
"""Share of the photo that the lightest pixels not of the table's colours must cover to
be the faces' colour when the mask's lightest are the table's (a hand's faces cover
more; a few tile edges or a speck of glare less)."""
TABLE_NEAR = 12
"""Distance (:func:`table_distance`) under which a pixel is of one of the table's colours."""
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
PLAIN = 0.1
"""A run of the mask with under this share of pixels lighter than the table around them
(or of another hue) is a bright patch of table."""
PLAIN_STD = 12.0
"""Spread of lightness (V - S, standard deviation) under which a run has no ink at all."""
HOLE = 0.005
"""Holes in the face mask smaller than this share of the photo are filled before the
mask is opened (a face is about 0.3 % of a photo of a hand)."""
INK_HOLE = 0.5
"""Least share of a hole's pixels apart from the table's colours (:data:`TABLE_NEAR`) for
the hole to be ink (:func:`_ink_filled`)."""
SOLID = 0.6
"""...and only in a part of the mask that covers this share of its outline at least:
a run of faces, not the net of lines a checked cloth leaves in the mask."""
FRAMED = 0.2
"""...and only holes whose middle is face for this share at least (a frame's blank),
and whose short side is :data:`STRIP` of the long one at least."""
STRIP = 0.3
"""A hole narrower than this for its length is a strip: the gap between two rows,
or under a row's faces."""


def face_mask(img: np.ndarray, lab: np.ndarray | None = None
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
        if table_distance(face_lab[None, None, :], centres)[0, 0] < LIGHTEST_TABLE:
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
            lighter[lighter] = table_distance(_colours_at(lab, lighter)[None], face_lab[None, :],
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
            lighter[lighter] = table_distance(_colours_at(lab, lighter)[None], vivid,
                                               HUE_ONLY)[0] >= TABLE_EXACT
        faint = ((drop & ~lighter & (mask > 0)) | (checked & (d >= TABLE_NEAR))) & (
            white >= table_level + FAINTER)
        # (a shaded pixel must be near the lightest faces' hue and of another hue than
        # the table around it: a blue tile back beside the faces is as dark, and grey
        # paper or a cream table in a hand's shadow as grey as the faces there)
        shaded &= differs
        if shaded.any():
            shaded[shaded] = table_distance(_colours_at(lab, shaded)[None], face_lab[None, :],
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
    """The pixels of the working image whose distances to colours :func:`face_mask`
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
        """:func:`table_distance` to ``centres`` at these pixels (the same values as
        over the whole image), infinite elsewhere."""
        out = np.full(self.shape[0] * self.shape[1], np.inf, np.float32)
        if self.at.size:
            out[self.at] = table_distance(self.colours, centres)[0]
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
        hue[some] = table_distance(_colours_at(lab, some)[None], face_lab[None, :],
                                    HUE_ONLY)[0]
    if far.any():
        table_hue[far] = table_distance(_colours_at(lab, far)[None], centres, HUE_ONLY)[0]
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
    own = table_distance(px[None], face_lab[None, :], HUE_ONLY)[0]
    for a, b in pairs:
        lo, hi = sorted((float(a[0]), float(b[0])))
        dl = 0.5 * np.maximum(0, np.maximum(lo - px[:, 0], px[:, 0] - hi))  # as in d
        dc = table_distance(px[None], ((a + b) / 2)[None, :], HUE_ONLY)[0]
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
    to_table = table_distance(px, centres, HUE_ONLY)[0]
    to_face = table_distance(px, face_lab[None, :], HUE_ONLY)[0]
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
    hue = table_distance(each, face_lab[None, :], HUE_ONLY)[:, 0]
    lit = (hue < SHADE_CHROMA) & (table_distance(each, face_lab[None, :])[:, 0] < LIT_TABLE)
    # (not when nearer grey than the table's hue: white faces, or glare on them)
    if not lit.any() or hue[lit].min() >= np.hypot(face_lab[1] - 128, face_lab[2] - 128):
        return face_lab
    # (and the photo's border, where the table was learnt, shows it so light somewhere)
    at_border = lab.reshape(-1, 3)[border]
    as_light = (at_border[:, 0] >= face_lab[0] - 10) & (
        table_distance(at_border[None], face_lab[None, :], HUE_ONLY)[0] < SHADE_CHROMA)
    if np.count_nonzero(as_light) < LIT_BORDER * len(border):
        return face_lab
    near = cv2.dilate(where.view(np.uint8), np.ones((5, 5), np.uint8)) > 0
    apart = np.zeros(where.shape, np.uint8)
    apart[near] = table_distance(_colours_at(lab, near)[None], centres, HUE_ONLY)[0] >= FACE_APART
    own = (cv2.morphologyEx(apart, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)) > 0) & where
    if np.count_nonzero(own) < LIT_OWN * where.size:
        return face_lab
    lightest = _lightest_of(white, own)
    if np.count_nonzero(lightest) < 20:
        return face_lab
    faces = _median_colour(lab, lightest)
    # (the lightest of another hue near the lightest's own hue: faces both, in two lights)
    other = table_distance(faces[None, None, :], face_lab[None, :], HUE_ONLY)[0, 0]
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
    to_faces = table_distance(np.asarray(centres, np.float32)[None], face_lab[None, :],
                               HUE_ONLY)[0]
    apart = to_faces >= FACE_APART
    if (not apart.any() or not where.any() or to_faces.min() < SHADE_CHROMA
            or face_lab[0] >= NEAR_WHITE):
        return out
    # (judged around ``where`` too: the table's pixels a speckled mask left out fill
    # the area that the opening needs)
    near = cv2.dilate(where.view(np.uint8), np.ones((5, 5), np.uint8)) > 0
    px = _colours_at(lab, near)[None]
    to_table = table_distance(px, centres[apart], HUE_ONLY)[0]
    to_face = table_distance(px, face_lab[None, :], HUE_ONLY)[0]
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


def table_distance(lab: np.ndarray, centres: np.ndarray,
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


def find_blobs(mask: np.ndarray, lab: np.ndarray, table: np.ndarray) -> list[np.ndarray]:
    """Contours of runs of touching faces (seams and ink closed, holes filled).

    ``lab`` and ``table`` (the photo in Lab and the table's colours, from
    :func:`face_mask`) tell the holes that ink leaves in a face, filled before the
    mask is opened (:func:`_ink_filled`), from holes of table."""
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (5, 5))
    closed = _ink_filled(_frames_filled(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, k)),
                         lab, table)
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


def _small_holes(mask: np.ndarray
                 ) -> tuple[Sequence[np.ndarray], list[tuple[np.ndarray, int]]]:
    """The mask's outlines, and its holes under :data:`HOLE` of the photo, each with the
    index of the outline around it: the holes that :func:`_frames_filled` and
    :func:`_ink_filled` may fill before the mask is opened."""
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    if hierarchy is None:
        return contours, []
    limit = HOLE * mask.shape[0] * mask.shape[1]
    return contours, [(c, int(parent)) for c, (_, _, _, parent)
                      in zip(contours, hierarchy[0], strict=True)
                      if parent >= 0 and cv2.contourArea(c) <= limit]


def _frames_filled(mask: np.ndarray) -> np.ndarray:
    """The mask with the holes that frames leave in it filled, before opening it can
    break them open: small (:data:`HOLE`), in a solid run (:data:`SOLID`), and
    shaped and filled like a frame (:func:`_holds_face`).

    A framed white dragon (as Chinese sets draw it) is a dark frame ink on a face
    whose margin outside the frame is a pixel or two wide: the opening that clears
    specks off the mask broke that margin, the frame became a bay open to the
    table, too large for :func:`ink_bays_closed`, and two such dragons in a row
    were lost (generated scene 12007, the scanned ``xmahjongg_real`` set). The
    frames' ink counts towards the run's solidity: three of that set's dragons in
    a meld are more frame than face (real-49 49110)."""
    contours, small = _small_holes(mask)
    if not small:
        return mask
    n, labels = cv2.connectedComponents(mask, connectivity=8)
    pixels = np.bincount(labels.ravel(), minlength=n)
    framed: dict[int, list[np.ndarray]] = {}  # the holes that are frames, by their outline
    for c, parent in small:
        if _holds_face(mask, c):
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


def _ink_filled(mask: np.ndarray, lab: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The mask with the holes that ink leaves in its faces filled: small (:data:`HOLE`)
    and mostly not of the table's colours (:data:`INK_HOLE`).

    Why before the opening: a face's margin between its ink and its edge can be a
    pixel or two wide, and the opening that clears specks off the mask broke it; the
    ink's holes then opened onto the table, the face between them was cut off as
    specks, and the run's outline lost the whole face (real-63 63042: a 5 bamboo in
    the shade, whose sticks reach its edge, missing from a row of eight). A hole of
    the table's colours is left: a patch of table enclosed by tiles and their
    shadows is no face. (Not in a close-up, which has no table colours to tell ink
    from table by.)"""
    if len(table) == 0:
        return mask
    ink = []
    for c, _ in _small_holes(mask)[1]:
        x, y, w, h = cv2.boundingRect(c)
        inside = np.zeros((h, w), np.uint8)
        cv2.drawContours(inside, [c - [x, y]], -1, 255, -1)
        hole = (inside > 0) & (mask[y:y + h, x:x + w] == 0)
        if not hole.any():
            continue
        far = table_distance(lab[y:y + h, x:x + w][hole][None], table) >= TABLE_NEAR
        if far.mean() >= INK_HOLE:
            ink.append(c)
    if not ink:
        return mask
    out = mask.copy()
    cv2.drawContours(out, ink, -1, 255, -1)
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


def ink_bays_closed(contour: np.ndarray, lab: np.ndarray, table: np.ndarray) -> np.ndarray:
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
    bay[table_distance(lab, table) < TABLE_NEAR] = 0
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
