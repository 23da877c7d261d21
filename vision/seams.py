"""Cut a run of touching tiles into faces at the seams between them.

Why seams and not contours: the faces of a run merge into one blob
(:mod:`vision.face_mask`). What separates them is the seam, dark in every pixel
of the column that holds it, while a tile's ink is not:

1. the blob is turned upright along its long axis (:func:`upright_strip`);
2. a high percentile of the brightness of each column (row) peaks down at
   seams and hardly at ink (also in the faces' ink-free top and bottom margins,
   where abutting faces leave a notch: :func:`seam_profile`);
3. the tile pitch is the period of that seam profile (autocorrelation), with
   the face aspect (about 3:4) as a prior when there are few seams; a long row
   checks its tile count against every aspect a tilt allows
   (:func:`estimate_pitch`);
4. a dynamic programme places the cuts: near-regular widths (one turned tile
   in a meld is allowed to be a tile-height wide) at the strongest seams; the
   rows of a grid also weigh the seams all rows share (a grid's columns are in
   line, ink is not: :func:`split_1d`, :func:`cut_strip`).

Which of a blob's cuts is kept is :mod:`vision.segment`'s choice.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision.face_mask import FACE_ASPECT, MIN_TILE_PX
from vision.rectify import side_lengths

SEAM_PERCENTILE = 93.0
"""A column is a seam when this share of it is dark: ink (even a bamboo stick) leaves
the face's margins light, a seam runs from edge to edge."""
SEAM_CHUNK = 120
"""Length (working pixels) of the pieces a long column is cut into for its seam profile."""
TURNED = 1.1
"""A face cut this much wider than tall (in its upright strip) is a tile turned sideways."""
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
SIDE_STEP = 0.06
"""Least fall of brightness (share of the faces') within 4 rows of a run's edge that
marks the tiles' lit side there; a smooth fall is light falling across the faces."""
SIDE_LEVEL = 0.94
"""A band at a run's end at most this share of the faces' brightness (their rows' 90th
percentile) may be the tiles' side (:func:`_side_band`)..."""
SIDE_FLAT = 0.02
"""...when its rows' brightness stays within this share of the faces' of each other,"""
SIDE_ROWS = (0.06, 0.3)
"""...it covers this share of the run's height (a side shows up to half a face's height at
45 degrees),"""
SIDE_FALL = 0.15
"""...the faces' brightness is reached again within this share of the run's height,"""
SIDE_INK = 0.1
"""...its rows hold nearly no ink (in its median row, under this share of the pixels at a
horizontal edge: a band of faces in shade holds their ink),"""
SIDE_RUN = 1.5
"""...and the run is at least this many times as long as it is high: across a few faces a
plain band is the side, where one face's own plain margin may pass for it (a lone tile's
side is told by the photo's face size: :func:`vision.segment._face_and_side`)."""
SIDE_BLUR = 2
"""Rows at each end of such a band left out of those measures: blur brings its edges'
steps into them, and darkens its last rows into the table or the tile's back."""
SIDE_COVER = 0.7
"""Share of the run's widest row under which an end row is the run's rounded end."""
SIDE_KEEP = 0.6
"""Least share of a face's height that the side's band may leave it (a turned tile's face
is lower than its run's: a band that would leave it less is not its side)."""
BAND_ROWS = 4
"""A step test's trim of at least this many rows beyond the rise of the faces' blurred
edge, at a run's end, is a band: the tiles' side, or faces in shade (:func:`_trim_rows`)..."""
BAND_LEVEL = 0.7
"""...and neither band is taken for faces when either is darker than this share of the
faces' brightness: table joined to the run (a photo from overhead on paper, real-69
69003: paper at 0.55 above the faces' fall at 0.72), where the tiles' sides and faces
in shade are at 0.8-0.9 (:func:`_one_side`)."""
BAND_COVER = 0.45
"""...nor when the band taken for faces covers, in its median row, under this share of
the run's widest row: faces span the run, or at least a meld's upright faces above its
lower turned tile (a chow's: 0.53-0.58 of its length, fresh-71 71099), where a spur
of table over one end of a row covers a tenth (real-69 69080)."""
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
SHARED_FLOOR = 0.05
"""A row without a trace of a seam at a column counts as this much (the geometric mean of
the rows' seams is not zeroed by one row's noise)."""
ASPECT_PRIOR = 0.25
"""Cost of a tile count per unit of log-distance from the prior aspect (a mild tie-break)."""
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
class Strip:
    """A blob turned upright: gray and mask in strip pixels, and the way back."""

    gray: np.ndarray
    mask: np.ndarray
    to_image: np.ndarray  # 3x3 homography strip -> working image
    faces_at: tuple[bool, bool] = (False, False)
    """Whether the band at its top, its bottom, was judged a band of faces, not the
    tiles' side, when the strip was fitted (:func:`_trim_rows`): the strip's own
    trims keep it."""
    prepared: dict[float, tuple[np.ndarray, np.ndarray, np.ndarray]] = field(
        default_factory=dict, compare=False, repr=False)
    """The mask cleaned for cutting and its seams by aspect (:func:`_prepared`)."""
    bands: dict[float, _Bands] = field(default_factory=dict, compare=False, repr=False)
    """The row bands cut on that mask, by aspect (:func:`_band`)."""

    @cached_property
    def face_rows(self) -> tuple[int, int]:
        """The rows ``[top, bottom)`` of its faces without the tiles' side
        (:func:`_face_rows`)."""
        return _face_rows(self)

    def to_working(self, points: np.ndarray) -> np.ndarray:
        """Points (N, 2) in strip pixels -> working pixels."""
        hom = np.c_[points, np.ones(len(points))] @ self.to_image.T
        out: np.ndarray = hom[:, :2] / hom[:, 2:3]
        return out


def _affine_strip(gray: np.ndarray, blob_mask: np.ndarray, contour: np.ndarray,
                  transpose: bool) -> Strip:
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
    return Strip(g, m, to_image)


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


def upright_strip(gray: np.ndarray, blob_mask: np.ndarray, contour: np.ndarray,
                   transpose: bool, refine: bool = True) -> Strip:
    """The blob rectified so that its seams are vertical and evenly spaced.

    The faces of a row form a rectangle on the table; its outline in the photo
    (two long sides, two ends, all straight lines) gives the homography that
    undoes the perspective, so the seams, which all point to one vanishing
    point in the photo, become parallel again.
    """
    rough = _affine_strip(gray, blob_mask, contour, transpose)
    if not refine:
        return rough
    trim = _trim_rows(rough.gray, rough.mask)
    m = trim.applied(rough.mask) > 0
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
    return Strip(g, mm, np.linalg.inv(to_strip), trim.faces_at)


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


@dataclass(frozen=True)
class _Trim:
    """The rows of a strip's faces that :func:`_trim_rows` keeps: rows before ``top``
    and from ``bottom`` on are the tiles' side (``None``: nothing trimmed there)."""

    top: int | None
    bottom: int | None
    faces_at: tuple[bool, bool] = (False, False)  # a band there was judged faces

    def applied(self, mask: np.ndarray) -> np.ndarray:
        out = mask.copy()
        if self.top is not None:
            out[: self.top] = 0
        if self.bottom is not None:
            out[self.bottom:] = 0
        return out


def _trim_sides(gray: np.ndarray, mask: np.ndarray,
                faces_at: tuple[bool, bool] = (False, False)) -> np.ndarray:
    """The strip's mask without the rows of the tiles' lit sides (:func:`_trim_rows`)."""
    return _trim_rows(gray, mask, faces_at).applied(mask)


def _trim_rows(gray: np.ndarray, mask: np.ndarray,
               faces_at: tuple[bool, bool] = (False, False)) -> _Trim:
    """Which rows above and below the faces are the tiles' lit sides.

    The side of a tile is as pale as its face but in its shade, so along the
    row's length its brightness stays a step below the faces' brightness. A step,
    not a level: light falling across the faces darkens their far end as much,
    smoothly (:data:`SIDE_STEP`). The faces' brightness is the brightest row's,
    unless the rows near it are fewer than half the run's: a side lit from the
    camera's side, or a glare along the faces' near edge, is then brighter than
    the faces, and the median row's is theirs.

    Only the end nearer the camera shows a side. Where both ends fall a step
    over a band (:data:`BAND_ROWS`), the band that is not the side is faces whose
    top is darker than the rest, its numbers and first dots (fresh-68 68077: a
    chow of dots cut at 70 % of its height read as a pung of 4 dots, surely):
    see :func:`_one_side`. It is judged only on runs at least :data:`SIDE_RUN`
    times as long as high, as :func:`_face_rows` judges its band. ``faces_at``
    (:attr:`Strip.faces_at`) marks an end judged so before, when the strip was
    fitted: the side at the other end is then outside the strip, and the band
    would pass for one.
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
        return _Trim(None, None, faces_at)
    first, last = (int(r) for r in np.nonzero(cover > 0)[0][[0, -1]])
    step = SIDE_STEP * faces
    top = int(rows[0]) if ceiling[rows[0]] - ceiling[max(first, rows[0] - 4)] >= step else None
    bottom = (int(rows[-1]) + 1 if ceiling[rows[-1]] - ceiling[min(last, rows[-1] + 4)] >= step
              else None)
    n = len(ceiling)
    # a band is what the step trims beyond the rise of the faces' blurred edge
    top_band = None if top is None else (_rise(ceiling, first, top), top)
    bottom_band = None if bottom is None else (
        bottom, n - _rise(ceiling[::-1], n - 1 - last, n - bottom))
    if top_band is not None and top_band[1] - top_band[0] < BAND_ROWS:
        top_band = None
    if bottom_band is not None and bottom_band[1] - bottom_band[0] < BAND_ROWS:
        bottom_band = None
    x0, x1 = _extent(inside, 0)
    if top_band and bottom_band and not any(faces_at) and x1 - x0 >= SIDE_RUN * (last - first):
        faces_at = _one_side(ceiling, cover, top_band, bottom_band, faces)
    if top_band and faces_at[0]:
        top = top_band[0]
    if bottom_band and faces_at[1]:
        bottom = bottom_band[1]
    return _Trim(top, bottom, faces_at)


def _one_side(ceiling: np.ndarray, cover: np.ndarray, top: tuple[int, int],
              bottom: tuple[int, int], faces: float) -> tuple[bool, bool]:
    """Which of two bands at a run's ends (rows ``[start, end)``), each a step below
    the faces' brightness, is faces (``(top is, bottom is)``): the side is the
    flatter band, an even shade; a band of faces holds their ink and the fall of
    their bevelled edge. (The rows next to the faces, where blur spreads the
    step, are left out.)

    Neither is when either band is darker than :data:`BAND_LEVEL` of the faces
    (table joined to the run, not faces nor their pale side), nor when the
    band taken for faces does not span the run as faces do (:data:`BAND_COVER`):
    a spur of a checked cloth's light squares over one end of a row (real-69
    69080) was kept, the row's faces were cut taller, and the photo's face
    size with them."""
    top_rows = ceiling[top[0]: top[1] - SIDE_BLUR]
    bottom_rows = ceiling[bottom[0] + SIDE_BLUR: bottom[1]]
    if min(np.median(top_rows), np.median(bottom_rows)) < BAND_LEVEL * faces:
        return False, False
    faces_at = (True, False) if np.ptp(bottom_rows) <= np.ptp(top_rows) else (False, True)
    band = top if faces_at[0] else bottom
    if np.median(cover[band[0]: band[1]]) < BAND_COVER * cover.max():
        return False, False
    return faces_at


def _rise(ceiling: np.ndarray, edge: int, kept: int) -> int:
    """The row where the brightness, rising from the table at row ``edge``, stops
    rising before row ``kept``: the faces' own edge, blurred into the table (the
    rows before it are trimmed, as the step test trimmed them before)."""
    i = edge
    while i + 1 < kept and ceiling[i + 1] > ceiling[i]:
        i += 1
    return i


def _face_rows(strip: Strip) -> tuple[int, int]:
    """The rows ``[top, bottom)`` of a strip that hold its faces without the tiles'
    side, when a side shows as a band that :func:`_trim_sides` left (all rows
    otherwise): the outlines of the faces cut from the strip end there.

    Why: the step test of :func:`_trim_sides` misses a side whose fall from the
    faces' brightness blur spreads over more than four rows, as it does in a
    photo of a hand (real-69: half the scanned set's faces were cut over 4 %
    too tall, a quarter over 10 %), and a face cut with its side is squeezed
    into its crop: KDE's 6 dots then read as 8 dots (fresh-68 68051). Only the
    outlines end at the band: the cuts, and the photo's face size that judges
    them, are measured as before, because a side trimmed on some runs and not
    on others (a side too thin to show as a band) made the face size of one
    disagree with the other's, and runs were cut into a face more or fewer
    (real-72 72141; a lone bonus tile cut as a turned one, benchmark 1052).
    Only the end nearer the camera shows a side: where both ends hold a band,
    the darker one is the side, and an end judged faces when the strip was
    fitted (:attr:`Strip.faces_at`) holds none. A band is judged across a run of
    a few faces (:data:`SIDE_RUN`): one face's own plain margin may pass for a
    side."""
    m = _trim_sides(strip.gray, _without_plain_rows(strip.gray, strip.mask), strip.faces_at)
    inside = m > 0
    top, bottom = _extent(inside, 1)
    x0, x1 = _extent(inside, 0)
    if bottom - top >= MIN_TILE_PX and x1 - x0 >= SIDE_RUN * (bottom - top):
        ceiling = masked_percentile(strip.gray.T, inside.T, SEAM_PERCENTILE)
        cover = inside.mean(axis=1)
        edges = np.abs(cv2.Sobel(strip.gray.astype(np.float32), cv2.CV_32F, 0, 1,
                                 ksize=3)) > INK_EDGE
        ink = (edges & inside).sum(axis=1) / np.maximum(inside.sum(axis=1), 1)
        faces = float(np.percentile(ceiling[cover > 0.2 * cover.max()], 90))
        near = None if strip.faces_at[0] else _side_band(ceiling[::-1], cover[::-1],
                                                         ink[::-1], faces)
        far = None if strip.faces_at[1] else _side_band(ceiling, cover, ink, faces)
        if near is not None and (far is None or near[1] < far[1]):
            top = len(ceiling) - near[0]
        elif far is not None:
            bottom = far[0]
    return top, bottom


def without_side(corners: np.ndarray, rows: tuple[int, int]) -> np.ndarray:
    """A face's corners (strip pixels) ending at its strip's ``rows`` of faces
    (:attr:`Strip.face_rows`), unless that would leave under :data:`SIDE_KEEP` of it."""
    y = np.clip(corners[:, 1], *rows)
    if np.ptp(y) < SIDE_KEEP * np.ptp(corners[:, 1]):
        return corners
    out: np.ndarray = np.c_[corners[:, 0], y]
    return out


def _side_band(ceiling: np.ndarray, cover: np.ndarray, ink: np.ndarray, faces: float
               ) -> tuple[int, float] | None:
    """The first row of a tile's side at the end of a run (the end is the last row of
    ``ceiling``, the rows' brightness) and the side's brightness, or ``None`` when no
    side shows there.

    A side is a band of even brightness (:data:`SIDE_FLAT`), :data:`SIDE_ROWS` of
    the run's height, at most :data:`SIDE_LEVEL` of the faces' brightness, which
    the faces reach again within :data:`SIDE_FALL` of the run's height, and plain
    (:data:`SIDE_INK`). Light falling across the faces makes no such band: its far
    end keeps darkening, and the rows before it are not as bright as the faces;
    a band of faces in shade holds their ink."""
    solid = np.flatnonzero(cover >= SIDE_COVER * cover.max())
    if solid.size < 8:
        return None
    start, end = int(solid[0]), int(solid[-1]) + 1  # (the end's rounded rows left out)
    c = ceiling[start:end]
    n = c.size
    length = 0  # (blur darkens the band's last rows into the table or the tile's back)
    for size in range(max(SIDE_BLUR + 3, int(np.ceil(SIDE_ROWS[0] * n))),
                      int(SIDE_ROWS[1] * n) + 1):
        tail = c[n - size: n - SIDE_BLUR]
        if tail.max() - tail.min() > SIDE_FLAT * faces:
            break
        length = size
    if not length:
        return None
    side = float(np.median(c[n - length: n - SIDE_BLUR]))
    if np.median(ink[start:end][n - length + SIDE_BLUR: n - SIDE_BLUR]) > SIDE_INK:
        return None  # ink: a band of faces in shade
    before = c[max(0, n - length - max(3, round(SIDE_FALL * n))): n - length]
    if (side > SIDE_LEVEL * faces or before.size == 0 or before.max() < (1 - SIDE_STEP) * faces
            or before.max() - side < SIDE_STEP * faces):
        return None
    # the side begins after the last row of the fall still nearer the faces' brightness
    midway = (side + float(before.max())) / 2
    lit = np.flatnonzero(c[: n - length] >= midway)
    return start + (int(lit[-1]) + 1 if lit.size else n - length), side


def cut_strip(strip: Strip, open_ends: bool = False, aspect: float = FACE_ASPECT,
               at_aspect: bool = False, pitch: float | None = None
               ) -> tuple[list[tuple[np.ndarray, int, bool]], float,
                          list[tuple[np.ndarray, int, bool]] | None]:
    """Quads (strip pixels) of one upright blob, with a score of how tile-like they are,
    and, for a row longer than :data:`OTHER_CUT_RUN`, the row cut into one face fewer
    or one more, whichever its seams fit better (``None`` for shorter runs and grids:
    :class:`vision.segment.OtherCut`).

    Two readings are tried when the seams allow both: one row of faces, and a
    grid of rows (a set laid out for a product photo); the one whose cuts sit
    on the stronger seams wins. ``at_aspect``: one row only, at the pitch of the
    photo's face (``aspect`` x the row's height, or ``pitch`` strip pixels when
    given), not the seams' period (see :func:`vision.segment._readings`).
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


def _prepared(strip: Strip, aspect: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The strip's mask less plain rows, the tiles' sides and spurs of table, and its
    seams' strength along and across it, for cutting at ``aspect``: worked out
    once per strip and aspect, as a short run is cut up to four times on the
    same strip (:func:`vision.segment._readings`)."""
    if aspect not in strip.prepared:
        m, g = strip.mask, strip.gray
        m = _without_spurs(_trim_sides(g, _without_plain_rows(g, m), strip.faces_at), aspect)
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
    ``n`` leaves it a tile over or short (:class:`vision.segment.OtherCut`).

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
    own aspect (no prior for any), and the cuts' seams decide (:func:`cut_strip`).

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
    run cut at a ``known`` face width (the photo's own, :func:`vision.segment._readings`): a meld
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
