"""Face-down tiles and blank faces that continue a run of faces.

Why apart from the seams: a tile's back has no seam to find and no ink: it is
one plain colour, the size of a face, right where the next tile of a run would
be (a concealed kong shows two backs at its ends, or two in the middle between
two runs). Whether a plain tile there is a back or a blank face (a Japanese
set's white dragon) is its colour (:mod:`vision.backs`).
"""

from __future__ import annotations

from functools import cache
from typing import Literal

import cv2
import numpy as np

from vision.backs import has_faces_colour, of_faces_colour
from vision.face_mask import HUE_ONLY, MIN_TILE_PX, table_distance
from vision.seams import Strip

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
(:func:`vision.face_mask.table_distance`, lightness counted half)."""
SIDE_MARGIN = 0.2
"""Share of a face's width left out at each end of a band (the seams, a neighbour's
edge)."""


Plain = Literal["", "back", "blank"]
"""What :func:`with_face_down` made of a cell: one of the run's faces (""), a
face-down tile, or a blank face beside the run."""


def with_face_down(cut: list[tuple[np.ndarray, int, bool]], strip: Strip, lab: np.ndarray,
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
    chroma_dist = table_distance(px[None], table, HUE_ONLY)[0]
    darker = len(table) > 0 and colour[0] < DARKER_THAN_TABLE * float(np.min(table[:, 0]))
    if not (darker or on_side) and (np.median(chroma_dist) < 10 or (chroma_dist < 6).mean() > 0.2):
        return None  # the table (or its shadow) shows there
    near = ((np.abs(px[:, 1:] - colour[1:]).max(axis=1) < ONE_COLOUR_HUE)
            & (np.abs(px[:, 0] - colour[0]) < ONE_COLOUR_LIGHTNESS))
    if near.mean() < ONE_COLOUR_SHARE:
        return None  # not one plain colour
    return colour


def _pale(points: np.ndarray, strip: Strip, lab: np.ndarray, table: np.ndarray,
          faces: np.ndarray) -> np.ndarray:
    """Whether each strip point (N, 2) shows a tile's pale layer: the faces' hue, a
    side's shading of their lightness (:mod:`vision.backs`), and no table colour."""
    xy = np.round(strip.to_working(points)).astype(int)
    h, w = lab.shape[:2]
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    px = lab[np.clip(xy[:, 1], 0, h - 1), np.clip(xy[:, 0], 0, w - 1)]
    out: np.ndarray = (inside & of_faces_colour(px, faces)
                       & (table_distance(px[None], table)[0] >= SIDE_FROM_TABLE))
    return out


def _band_share(a: float, b: float, rows: np.ndarray, strip: Strip, lab: np.ndarray,
                table: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """Per strip row: the share of columns of ``[a, b]`` (its middle) that are pale."""
    margin = SIDE_MARGIN * (b - a)
    cols = np.linspace(a + margin, b - margin, 9)
    xs, ys = np.meshgrid(cols, rows)  # row by row, as the shares are taken
    pale = _pale(np.c_[xs.ravel(), ys.ravel()], strip, lab, table, faces)
    share: np.ndarray = pale.reshape(len(rows), len(cols)).mean(axis=1)
    return share


def _side_shows(a: float, b: float, top: float, bot: float, strip: Strip, lab: np.ndarray,
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
