"""Builder of the tile-classifier data set: labelled crops rendered from artworks.

Why: no public photo set covers the many physical tile sets our users play
with, so the classifier learns from many *drawings* of tiles (see
:mod:`datasets.artwork`), each rendered the way the photo segmenter will cut
it out of a phone photo: a rectified but imperfect crop (shifted, too tight,
too loose, a sliver of the neighbouring tile or of the tile's side), under
uneven light, glare, shadow, blur, noise, colour casts and JPEG, upright or
upside down. A ``none`` class (table, tile sides, gaps between tiles, junk)
teaches the model to refuse what is not a tile face.

Output: ``build/tiles/<split>.npz`` with ``x`` (N, H, W, 3) uint8 **RGB**,
``y`` (N,) label index into :data:`LABELS`, ``rot`` (N,) 0 upright / 1 upside
down, ``src`` (N,) source name per sample. Real crops (``real-dev``) are
stored un-augmented in ``real.npz``; the trainer augments them on the fly.

A crop in which the ink that names its tile no longer shows (washed out by
the camera's glare, exposure and blur) is drawn again: :func:`render_tile`.

Rebuild everything (about 12 minutes on 2 cores at the model card's sizes, 5
for the bonus reader's data)::

    python3 -m datasets.tile_dataset --out build/tiles
    # --datasets PATH (or $MJLENS_DATASETS) points at the shared data folder
    # --reader bonus: the bonus reader's data (larger crops, mostly flowers and seasons)
    # --splits test_seen test_heldout --pipeline-size: test crops only, at the size the
    #   photo pipeline cuts faces, to measure both stages as a photo feeds them
"""

from __future__ import annotations

import argparse
import csv
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from datasets import artwork

TILE_CODES: tuple[str, ...] = (
    *(f"{n}m" for n in range(1, 10)),
    *(f"{n}p" for n in range(1, 10)),
    *(f"{n}s" for n in range(1, 10)),
    *(f"{n}z" for n in range(1, 8)),
    *(f"{n}f" for n in range(1, 5)),
    *(f"{n}g" for n in range(1, 5)),
    "back",
)
"""The 43 tile labels, in the order of ``scoring/tiles.py`` (index 0-42)."""
NONE = "none"
LABELS: tuple[str, ...] = (*TILE_CODES, NONE)
"""Classifier outputs: 43 tiles + ``none`` (not a tile face)."""
LABEL_INDEX = {c: i for i, c in enumerate(LABELS)}

CROP_H, CROP_W = 80, 60
"""Size of the tile classifier's crops (portrait 3:4); ``vision.classify`` resizes to this."""

BONUS_CODES: tuple[str, ...] = tuple(c for c in TILE_CODES if c[-1] in "fg")
"""The flowers and seasons, the faces that the bonus reader tells apart."""
BONUS_CROP_H, BONUS_CROP_W = 128, 96
"""Size of the bonus reader's crops. What names a flower or a season is often only
its small corner writing (a number, or a character such as 梅 or 冬): at 80x60 that
is a blot of a few pixels, and unseen sets' flowers were read at 75 %."""
PIPELINE_CROP_H, PIPELINE_CROP_W = BONUS_CROP_H, BONUS_CROP_W
"""Size at which the photo pipeline cuts each face (``vision/rectify.py``), and
so what both stages get from a photo: each shrinks it to its own input. Test
crops of the tile classifier rendered at this size (``--pipeline-size``) measure
the two stages as a photo feeds them; at 80x60 the bonus reader and the text
recogniser would read an enlarged blur of the writing that names a bonus tile."""
READERS: tuple[str, ...] = ("tiles", "bonus")
"""The data sets this builder makes: the tile classifier's, and the bonus reader's
(``vision.classify``'s second stage)."""

BONUS_NAMES = {
    "plum": "1f", "orchid": "2f", "chrysanthemum": "3f", "bamboo": "4f",
    "spring": "1g", "summer": "2g", "autumn": "3g", "winter": "4g",
}
"""English names used by ``real-dev/crops/labels.csv`` for bonus tiles."""

REAL_TRAIN_SETS: tuple[str, ...] = ("C", "D", "F", "H", "M")
"""Physical sets of ``real-dev`` that the classifier may be trained on."""
REAL_HELDOUT_SETS: tuple[str, ...] = ("E", "G", "J", "K")
"""Physical sets of ``real-dev`` never trained on: report accuracy on these."""

FACE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (250, 250, 248), (245, 243, 235), (240, 232, 210), (236, 226, 196), (246, 236, 200),
    (232, 220, 170), (238, 240, 228), (226, 232, 222), (250, 245, 230), (220, 214, 200),
)
"""Face colours of real sets (RGB): white, ivory, cream, yellowish, greyish."""
SIDE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (30, 120, 60), (40, 90, 170), (230, 190, 40), (220, 120, 30), (200, 40, 40),
    (240, 238, 230), (60, 60, 60), (90, 160, 200), (225, 215, 190), (20, 80, 40),
)
"""Colours of tile backs/sides (RGB): the coloured layer seen from the side."""
TABLE_COLOURS: tuple[tuple[int, int, int], ...] = (
    (20, 90, 40), (30, 60, 120), (120, 80, 50), (180, 140, 90), (60, 60, 60),
    (200, 200, 200), (240, 240, 240), (90, 30, 30), (30, 30, 30), (150, 160, 150),
)


SOURCE_WEIGHTS: dict[str, dict[str, float]] = {
    "tiles": {"cjk_fonts": 2.5, "bonus_mix": 5.0},
    "bonus": {"cjk_fonts": 2.5, "bonus_mix": 10.0},
}
"""Sampling weight of a source in each reader's data (default 1): the font-written
faces carry the one cue shared by all physical sets (the characters), so they
are drawn more often. ``bonus_mix`` (only flowers and seasons, named by their
writing alone) makes about a third of the classifier's bonus crops and half of
the bonus reader's: the reader is the one that must read the writing."""


@dataclass(frozen=True)
class Sample:
    """One rendered crop and its labels."""

    image: np.ndarray  # (CROP_H, CROP_W, 3) uint8 RGB
    label: int
    upside_down: bool


# ------------------------------------------------------------------ composition


DARK_FACES: tuple[tuple[int, int, int], ...] = (
    (110, 20, 25), (20, 70, 40), (25, 25, 30), (20, 30, 80), (70, 40, 20),
)
"""Rare sets have dark faces with light ink (jade-like, black sets)."""


OUTLINE_P = 0.15
"""Share of faces drawn as line art (:func:`outlined`)."""


def outlined(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The face as line art: the edges of its ink, the fills left blank.

    Why: carved and engraved sets, and printed ones drawn in outline (a plum
    blossom as a brown contour on a white face), show the same symbols as the
    filled colour drawings of most artworks; the held-out KMahjongg default
    set draws its flowers and seasons so, and the bonus reader took them for
    "not a bonus tile". With these faces in its data, its held-out flowers and
    seasons read 42.2 -> 44.0 % (``models/HISTORY.md``, run 29). Thin
    strokes (writing, stems) stay as they are: they are all edge."""
    t = max(1, round(face.shape[0] * rng.uniform(0.006, 0.014)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * t + 1, 2 * t + 1))
    inside = (face[..., 3] > 128).astype(np.uint8)
    contour = cv2.morphologyEx(inside, cv2.MORPH_GRADIENT, disc) > 0
    lab = cv2.cvtColor(np.ascontiguousarray(face[..., :3]), cv2.COLOR_RGB2LAB).astype(np.float32)
    change = sum(np.abs(cv2.Sobel(lab[..., c], cv2.CV_32F, dx, 1 - dx))
                 for c in range(3) for dx in (0, 1))
    boundaries = cv2.dilate(((change > 120) & (inside > 0)).astype(np.uint8), disc) > 0
    out = face.copy()
    if rng.random() < 0.5:  # one ink for every line
        out[..., :3] = np.array(rng.integers(0, 160, 3), np.uint8)
    else:  # each line takes the darkened colour of the fill it bounds
        grown = cv2.dilate(np.ascontiguousarray(face[..., :3]), np.ones((3, 3), np.uint8))
        out[..., :3] = (grown * rng.uniform(0.5, 0.9)).astype(np.uint8)
    out[..., 3] = np.where(contour | boundaries, 255, 0).astype(np.uint8)
    return out


def _vary_ink(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Other sets draw the same symbol bolder, thinner, larger, in other inks or
    in outline."""
    if face[..., 3].min() == 255:
        return face  # opaque artwork: its ink and face cannot be told apart
    out = outlined(face, rng) if rng.random() < OUTLINE_P else face
    r = rng.random()
    if r < 0.35:  # bolder or thinner strokes
        k = np.ones((3, 3), np.uint8)
        alpha = out[..., 3]
        n = int(rng.integers(1, 3))
        alpha = cv2.dilate(alpha, k, iterations=n) if r < 0.2 else cv2.erode(alpha, k, iterations=1)
        out = out.copy()
        if r < 0.2:  # new pixels take the colour of the stroke they grew from
            rgb = cv2.dilate(out[..., :3], k, iterations=n)
            grown = out[..., 3] == 0
            out[grown, :3] = rgb[grown]
        out[..., 3] = alpha
    if rng.random() < 0.3:  # symbol larger or smaller on the face
        s = rng.uniform(0.85, 1.1)
        m = cv2.getRotationMatrix2D((out.shape[1] / 2, out.shape[0] / 2), 0, s)
        out = cv2.warpAffine(out, m, (out.shape[1], out.shape[0]), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    if rng.random() < 0.15:  # other inks (hue shift), colour stays a cue most of the time
        hsv = cv2.cvtColor(np.ascontiguousarray(out[..., :3]), cv2.COLOR_RGB2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + int(rng.integers(0, 180))) % 180
        out = out.copy()
        out[..., :3] = cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)
    elif rng.random() < 0.1:  # monochrome ink
        out = out.copy()
        out[..., :3] = np.array(rng.integers(0, 90, 3), np.uint8)
    return out


CORNER_INDEX_P = 0.3
"""Share of suit and wind faces given a printed index (the number or wind letter),
and of the bonus reader's training flowers and seasons (:func:`corner_index`).

At 12 % the model read the small "3" in the corner of an unseen set's
3 characters as a 5 (covering it raised those crops from 46 to 77 %): a
digit it has seen in few fonts and on few faces is a cue it half-trusts."""


MIRRORED: frozenset[str] = frozenset({"1s", "3p", "7p"})
"""Tiles that sets draw either way round: the bird of 1 bamboo faces left or
right, and the diagonal of 3 and 7 dots runs down to the right or to the left.
No tile mirrored becomes another tile, so mirroring these is free variety
(the held-out ``kde_default`` draws its 7 dots mirrored, which is how we saw it)."""
MIRROR_P = 0.3


def mirror_variant(face: np.ndarray, code: str, rng: np.random.Generator) -> np.ndarray:
    """The face mirrored left-right, sometimes, for the tiles of :data:`MIRRORED`."""
    if code in MIRRORED and rng.random() < MIRROR_P:
        return np.ascontiguousarray(face[:, ::-1])
    return face


def corner_index(face: np.ndarray, code: str, rng: np.random.Generator, *,
                 bonus: bool = False) -> np.ndarray:
    """Print the tile's index in a top corner over a shrunken symbol, sometimes.

    Why: American and some Chinese sets mark 4 characters with a red "4" and
    south with an "S"; a model that only saw such corner marks on flowers and
    seasons took them for bonus tiles.

    ``bonus`` (the bonus reader's training crops only, so that test crops
    stay as the artworks draw them and the tile classifier's data is as it
    was): flowers and seasons get their number too. Two training artworks
    print a "1" over 1 bamboo's bird, this function prints one on others,
    and few training flowers carried one, so to the bonus reader a "1"
    meant "not a bonus tile": it read an unseen set's "2" and "4" on any
    of that set's flower pictures and its "1" on none, and called its plum
    "not a bonus tile". With the number on 30 % of the reader's training
    flowers and seasons (run 34), the unseen sets' flowers and seasons read
    57.9 % instead of 52.1 %, and the photo benchmark's plums went wrong in
    5 hands instead of 7 (``models/HISTORY.md``)."""
    if code[-1] in "mps":
        mark = code[0]
    elif code in ("1z", "2z", "3z", "4z"):
        mark = "ESWN"[int(code[0]) - 1]
    elif bonus and code[-1] in "fg":
        mark = code[0]
    else:
        return face
    if face[..., 3].min() == 255 or rng.random() >= CORNER_INDEX_P:
        return face
    from PIL import Image, ImageDraw, ImageFont

    from datasets.bonus_faces import INKS

    fonts = [f for f in artwork.LATIN_FONTS if f.exists()]
    if not fonts:
        return face
    h, w = face.shape[:2]
    s = rng.uniform(0.72, 0.86)
    small = cv2.resize(face, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    left = rng.random() < 0.5
    out = np.zeros_like(face)
    x = w - small.shape[1] - int(w * 0.04) if left else int(w * 0.04)
    y = h - small.shape[0] - int(h * 0.03)
    out[y : y + small.shape[0], x : x + small.shape[1]] = small
    im = Image.fromarray(out, "RGBA")
    d = ImageDraw.Draw(im)
    font = ImageFont.truetype(str(fonts[rng.integers(len(fonts))]), int(h * rng.uniform(0.12, 0.2)))
    ink = INKS[rng.integers(len(INKS))]
    d.text((w * 0.06 if left else w * 0.78, h * 0.05), mark, font=font, fill=(*ink, 255))
    return np.asarray(im).copy()


def _inked_face(face: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Flatten a face on a random face colour (sometimes dark with light ink).

    Returns the face (RGB) and the same face without its ink, which
    :func:`render_tile` renders alongside to see whether the ink survived the
    camera. An opaque artwork's ink and face cannot be told apart; its blank
    is its median colour."""
    face = _vary_ink(face, rng)
    if face[..., 3].min() < 255 and rng.random() < 0.06:
        ink = np.array([rng.uniform(200, 255), rng.uniform(190, 255), rng.uniform(170, 255)])
        light = face.copy()
        light[..., :3] = ink.astype(np.uint8)
        dark = np.array(DARK_FACES[rng.integers(len(DARK_FACES))], np.float32)
        dark = np.clip(dark + rng.normal(0, 10, 3), 0, 255)
        rgb = artwork.compose_on_face(light, tuple(int(c) for c in dark))  # type: ignore[arg-type]
        return rgb, np.broadcast_to(dark.astype(np.uint8), rgb.shape).copy()
    colour = np.array(FACE_COLOURS[rng.integers(len(FACE_COLOURS))], np.float32)
    colour = np.clip(colour + rng.normal(0, 6, 3), 0, 255)
    rgb = artwork.compose_on_face(face, tuple(int(c) for c in colour))  # type: ignore[arg-type]
    if rng.random() < 0.3:  # faded ink
        k = rng.uniform(0.55, 1.0)
        rgb = (colour * (1 - k) + rgb.astype(np.float32) * k).astype(np.uint8)
    if face[..., 3].min() == 255:
        colour = np.median(rgb.reshape(-1, 3), axis=0)
    return rgb, np.broadcast_to(colour.astype(np.uint8), rgb.shape).copy()


def _face_rgb(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A face flattened on a random face colour (:func:`_inked_face`), without its blank."""
    return _inked_face(face, rng)[0]


def _tile_body(face: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A tile seen from the front: face with a rim and the coloured back layer.

    Returns the tile image (RGB) and the face quad inside it (4x2 float, TL TR BR BL)."""
    fh, fw = face.shape[:2]
    rim = int(rng.uniform(0.0, 0.08) * fw)
    side = int(rng.uniform(0.0, 0.25) * fh)  # thickness seen in perspective (below/above)
    side_colour = np.array(SIDE_COLOURS[rng.integers(len(SIDE_COLOURS))], np.uint8)
    edge = np.clip(face[2:6, fw // 2 - 2 : fw // 2 + 2].reshape(-1, 3).mean(0) * 0.92, 0, 255)
    h, w = fh + 2 * rim + side, fw + 2 * rim
    tile = np.empty((h, w, 3), np.uint8)
    tile[:] = edge.astype(np.uint8)
    ivory_part = int(side * rng.uniform(0.2, 0.7))
    if side:  # ivory part of the thickness then coloured back layer
        tile[fh + 2 * rim : fh + 2 * rim + ivory_part] = (edge * 0.85).astype(np.uint8)
        tile[fh + 2 * rim + ivory_part :] = side_colour
    tile[rim : rim + fh, rim : rim + fw] = face
    quad = np.array([[rim, rim], [rim + fw, rim], [rim + fw, rim + fh], [rim, rim + fh]],
                    np.float32)
    if rng.random() < 0.5:  # thickness seen above the face (the face itself stays upright)
        tile = tile[::-1].copy()
        y0 = h - rim - fh
        tile[y0 : y0 + fh, rim : rim + fw] = face
        quad[:, 1] += y0 - rim
    return tile, quad


def _background(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A table-like background: colour, gradient, noise texture."""
    colour = np.array(TABLE_COLOURS[rng.integers(len(TABLE_COLOURS))], np.float32)
    colour = np.clip(colour + rng.normal(0, 20, 3), 0, 255)
    img = np.empty((h, w, 3), np.float32)
    img[:] = colour
    xx = np.arange(w, dtype=np.float32)[None, :]  # a row and a column, not two full grids
    yy = np.arange(h, dtype=np.float32)[:, None]
    gx, gy = rng.normal(size=2)
    img *= (1 + 0.2 * (xx / w - 0.5) * gx + 0.2 * (yy / h - 0.5) * gy)[..., None]
    size = (max(2, h // 8), max(2, w // 8), 3)
    small = rng.normal(0, rng.uniform(2, 18), size).astype(np.float32)
    img += cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    return np.clip(img, 0, 255).astype(np.uint8)


def _paste(dst: np.ndarray, src: np.ndarray, x: int, y: int) -> None:
    h, w = src.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, dst.shape[1]), min(y + h, dst.shape[0])
    if x1 > x0 and y1 > y0:
        dst[y0:y1, x0:x1] = src[y0 - y : y1 - y, x0 - x : x1 - x]


def _scene(face: np.ndarray, neighbours: Sequence[np.ndarray], rng: np.random.Generator
           ) -> tuple[np.ndarray, np.ndarray]:
    """The tile in a row of touching tiles on a table; returns image and face quad."""
    tile, quad = _tile_body(face, rng)
    th, tw = tile.shape[:2]
    pad_x, pad_y = tw, th // 2
    canvas = _background(th + 2 * pad_y, tw + 2 * pad_x, rng)
    gap = int(rng.integers(-1, 4))
    for k, nb in enumerate(neighbours[:2]):  # left and right neighbours, touching
        ntile, _ = _tile_body(nb, rng)
        nh = ntile.shape[0]
        x = pad_x - ntile.shape[1] - gap if k == 0 else pad_x + tw + gap
        _paste(canvas, ntile, x, pad_y + th - nh + int(rng.integers(-3, 4)))
    _paste(canvas, tile, pad_x, pad_y)
    return canvas, quad + np.array([pad_x, pad_y], np.float32)


def _jitter_quad(quad: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """The segmenter's imperfect face quad: shift, scale, rotation, corner noise."""
    w = float(np.linalg.norm(quad[1] - quad[0]))
    h = float(np.linalg.norm(quad[3] - quad[0]))
    c = quad.mean(0)
    s = rng.uniform(1 - 0.08 * strength, 1 + 0.14 * strength)
    sx = s * rng.uniform(1 - 0.05 * strength, 1 + 0.05 * strength)
    ang = np.deg2rad(rng.normal(0, 3 * strength))
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]], np.float32)
    q = (quad - c) * np.array([sx, s], np.float32)
    q = q @ rot.T + c
    q += rng.normal(0, 1, 2).astype(np.float32) * np.array([w, h], np.float32) * 0.04 * strength
    q += rng.normal(0, 1, (4, 2)).astype(np.float32) * np.array([w, h]) * 0.025 * strength
    return q.astype(np.float32)


def _warp(img: np.ndarray, quad: np.ndarray, h: int = CROP_H, w: int = CROP_W) -> np.ndarray:
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


# ------------------------------------------------------------------ photometrics


def photometric(img: np.ndarray, rng: np.random.Generator, strength: float = 1.0) -> np.ndarray:
    """Camera and light: gradient, glare, shadow, colour cast, blur, noise, JPEG.

    Works on any RGB uint8 image; also used on real crops during training."""
    h, w = img.shape[:2]
    x = img.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    yy /= h
    xx /= w
    # exposure, contrast, gamma
    x = (x - 128) * rng.uniform(1 - 0.35 * strength, 1 + 0.2 * strength) + 128
    x = x * rng.uniform(1 - 0.4 * strength, 1 + 0.15 * strength)
    # colour cast (white balance)
    x *= (1 + rng.normal(0, 0.07 * strength, 3)).astype(np.float32)
    # lighting gradient
    g = 1 + strength * 0.35 * ((xx - 0.5) * rng.normal() + (yy - 0.5) * rng.normal())
    x *= g[..., None]
    if rng.random() < 0.3 * strength:  # glare spot
        cx, cy, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.1, 0.5)
        spot = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2 * 0.6) / (r * r)))
        x += (spot * rng.uniform(40, 160))[..., None]
    if rng.random() < 0.3 * strength:  # soft shadow over part of the crop
        ang = rng.uniform(0, 2 * np.pi)
        d = (xx - 0.5) * np.cos(ang) + (yy - 0.5) * np.sin(ang) - rng.uniform(-0.3, 0.4)
        shade = 1 - rng.uniform(0.2, 0.55) / (1 + np.exp(-d * rng.uniform(8, 40)))
        x *= shade[..., None]
    x = np.clip(x, 0, 255)
    out = x.astype(np.uint8)
    r = rng.random()
    if r < 0.35 * strength:
        k = rng.uniform(0.3, 1.3) * strength
        out = cv2.GaussianBlur(out, (0, 0), k)
    elif r < 0.5 * strength:  # motion blur
        n = int(rng.integers(3, 6))
        ker = np.zeros((n, n), np.float32)
        ker[n // 2] = 1.0 / n
        m = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1)
        ker = cv2.warpAffine(ker, m, (n, n))
        out = cv2.filter2D(out, -1, ker / max(ker.sum(), 1e-6))
    if rng.random() < 0.7:
        sigma = rng.uniform(0, 9) * strength
        out = np.clip(out + rng.normal(0, sigma, out.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        q = int(rng.integers(25, 90))
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    if rng.random() < 0.05:  # greyscale camera / strong desaturation
        grey = cv2.cvtColor(out, cv2.COLOR_RGB2GRAY)
        out = cv2.cvtColor(grey, cv2.COLOR_GRAY2RGB)
    return out


def _downup(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Simulate a far-away tile: few real pixels, upscaled by the segmenter."""
    if rng.random() < 0.35:
        f = rng.uniform(0.3, 0.8)
        small = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    return img


# ------------------------------------------------------------------ samples


INK_STANDS_OUT = 32.0
"""How far (RGB distance) a pixel must lie from the blank face to count as ink."""
LEGIBLE = 0.08
"""Share of a face's ink that must still stand out in its crop.

Why: the camera's glare, exposure and blur, on a face whose ink was already
thinned, outlined or faded and then shrunk, sometimes leave a crop where the
ink has all but gone: Shizhao's outlined dots, a character's faint number, a
flower under a glare spot. Nobody can name such a crop; as a test crop it
counted as an error of the model, and as a training crop it taught noise
(thirty-seventh session: 0.7 % of the training styles' test crops, 17 of the
shipped model's 96 errors on them, ``models/HISTORY.md``). Below 8 % the
crops looked at were blank to the eye; at 10-25 % most are faint but readable."""
NO_INK = 0.001
"""A face with less ink than this share of its area (a blank white dragon, a
back; about 30 pixels, less than the thinnest numeral 一) is never redrawn."""
NAMED_BLANK = frozenset({"5z", "back"})
"""Labels that a crop with no ink left still names: the white dragon (blank in
Japanese sets, framed in Chinese ones) and a tile's back (its colour). A
washed-out frame leaves a white dragon and a washed-out emboss a back, so
these are never redrawn. (A first version redrew them: 14 of the held-out
``kde_default`` dragons, whose faint shading glare wipes away, and 64 backs.)"""
REDRAWS = 8
"""Tries at a legible crop before the last one is kept."""


def _camera(canvas: np.ndarray, quad: np.ndarray, rng: np.random.Generator,
            size: tuple[int, int]) -> np.ndarray:
    """The face at ``quad`` of a scene (:func:`_scene`), cut out and photographed."""
    strength = 1.0 if rng.random() < 0.8 else 0.3
    crop = _warp(_downup(canvas, rng), _jitter_quad(quad, rng, strength), *size)
    return photometric(crop, rng)


def legibility(face_rgb: np.ndarray, blank: np.ndarray, crop: np.ndarray,
               blank_crop: np.ndarray) -> float:
    """Share of the face's ink that still stands out in the crop (``inf``: no ink).

    ``blank_crop`` is the blank face rendered with the same random draws as
    ``crop``, so the two differ only where the ink shows."""
    def ink(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.linalg.norm(a.astype(np.float32) - b.astype(np.float32), axis=2) > INK_STANDS_OUT

    share = float(ink(face_rgb, blank).mean())
    if share < NO_INK:
        return float("inf")
    return float(ink(crop, blank_crop).mean()) / share


T_ = TypeVar("T_")


def _same_draws(rng: np.random.Generator, draw: Callable[[], T_]) -> T_:
    """``draw()``, then ``rng`` put back where it was: the next call draws the same."""
    state = rng.bit_generator.state
    try:
        return draw()
    finally:
        rng.bit_generator.state = state


@dataclass(frozen=True)
class Render:
    """One try at a crop, and how much of its face's ink it shows (:func:`legibility`)."""

    crop: np.ndarray
    legibility: float


def render_once(face: np.ndarray, neighbours: Sequence[np.ndarray], rng: np.random.Generator,
                size: tuple[int, int] = (CROP_H, CROP_W), unnamed: np.ndarray | None = None
                ) -> Render:
    """One crop of a face, as :func:`render_tile` draws it before any redraw.

    The blank face (``unnamed``, the face without the writing that names it,
    if given; else the face without any ink) takes the face's place in the
    same scene and is photographed with the same random draws, then the
    generator is left where the face's photograph left it: a legible crop is
    the same as it was before the check existed."""
    # the unnamed face inked alike: the same face colour, strokes and fading
    named_apart = None if unnamed is None else _same_draws(rng,
                                                           lambda: _inked_face(unnamed, rng)[0])
    face_rgb, ink_free = _inked_face(face, rng)
    blank = ink_free if named_apart is None else named_apart
    scale = rng.uniform(0.45, 1.0)  # the crop's resolution varies before warping
    small = cv2.resize(face_rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    fh, fw = small.shape[:2]
    nbs = [cv2.resize(_face_rgb(n, rng), (fw, fh), interpolation=cv2.INTER_AREA)
           for n in neighbours]
    canvas, quad = _scene(small, nbs, rng)
    x, y = (int(v) for v in quad[0])  # the face lies in the scene as it was drawn
    blank_canvas = canvas.copy()
    blank_canvas[y : y + fh, x : x + fw] = cv2.resize(blank, (fw, fh),
                                                      interpolation=cv2.INTER_AREA)
    blank_crop = _same_draws(rng, lambda: _camera(blank_canvas, quad, rng, size))
    crop = _camera(canvas, quad, rng, size)
    return Render(crop, legibility(face_rgb, blank, crop, blank_crop))


def render_tile(face: np.ndarray, neighbours: Sequence[np.ndarray], rng: np.random.Generator,
                size: tuple[int, int] = (CROP_H, CROP_W), unnamed: np.ndarray | None = None
                ) -> np.ndarray:
    """One crop (``size`` = height, width) of a tile face as the segmenter would cut
    it (RGB, upright), drawn again while the ink that names it does not stand out
    (:data:`LEGIBLE`; ``unnamed``: the face without that ink, when the rest of
    its ink names nothing, as a ``bonus_mix`` face's borrowed picture).

    A redraw takes a generator spawned from ``rng`` and leaves ``rng`` itself
    where it was, so every other crop of a data set stays as it was."""
    render = render_once(face, neighbours, rng, size, unnamed)
    for _ in range(REDRAWS):
        if render.legibility >= LEGIBLE:
            break
        render = render_once(face, neighbours, rng.spawn(1)[0], size, unnamed)
    return render.crop


def _texture(rng: np.random.Generator) -> np.ndarray:
    """Wood grain, a woven cloth or speckled noise, in a table colour (RGB crop).

    Why: striped and noisy surfaces are what a plain-colour ``none`` never
    showed the model, and it named them as bamboo tiles or backs."""
    yy, xx = np.mgrid[0:CROP_H * 2, 0:CROP_W * 2].astype(np.float32)
    ang = rng.uniform(0, np.pi)
    u = xx * np.cos(ang) + yy * np.sin(ang)
    v = -xx * np.sin(ang) + yy * np.cos(ang)
    kind = rng.integers(3)
    if kind == 0:  # wood: wavy stripes of varying width
        warp = cv2.resize(rng.normal(0, 1, (6, 4)).astype(np.float32), (CROP_W * 2, CROP_H * 2),
                          interpolation=cv2.INTER_CUBIC)
        pattern = np.sin(u * rng.uniform(0.1, 0.5) + warp * rng.uniform(2, 6))
    elif kind == 1:  # cloth: two crossing weaves
        f = rng.uniform(0.4, 1.5)
        pattern = np.sin(u * f) * np.sin(v * f)
    else:  # speckle
        pattern = rng.normal(0, 1, u.shape).astype(np.float32)
        pattern = cv2.GaussianBlur(pattern, (0, 0), rng.uniform(0.5, 2.5))
        pattern /= pattern.std() + 1e-6
    base = _background(CROP_H * 2, CROP_W * 2, rng).astype(np.float32)
    img = base * (1 + rng.uniform(0.08, 0.35) * pattern[..., None])
    img = np.clip(img, 0, 255).astype(np.uint8)
    return cv2.resize(img, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)


def render_none(faces: Sequence[np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """A crop that is not one tile face: table, gap between tiles, side, junk."""
    kind = rng.integers(6)
    if kind == 5:  # a textured table: wood grain, woven cloth, speckle
        return photometric(_texture(rng), rng)
    if kind == 0:  # plain table / background
        img = _background(CROP_H * 2, CROP_W * 2, rng)
        crop = cv2.resize(img, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
    elif kind in (1, 2):  # straddling two tiles (half of each) or far off the face
        face = _face_rgb(faces[rng.integers(len(faces))], rng)
        nbs = [_face_rgb(faces[rng.integers(len(faces))], rng) for _ in range(2)]
        canvas, quad = _scene(face, nbs, rng)
        w = quad[1, 0] - quad[0, 0]
        h = quad[3, 1] - quad[0, 1]
        if kind == 1:
            shift = np.array([rng.choice([-1, 1]) * rng.uniform(0.45, 0.6) * w, 0], np.float32)
        else:
            shift = np.array([rng.uniform(-0.3, 0.3) * w,
                              rng.choice([-1, 1]) * rng.uniform(0.55, 0.9) * h], np.float32)
        crop = _warp(canvas, _jitter_quad(quad + shift, rng, 0.5))
    elif kind == 3:  # a tile's side or back layer seen edge-on (stripes)
        img = np.empty((CROP_H, CROP_W, 3), np.uint8)
        c1 = np.array(SIDE_COLOURS[rng.integers(len(SIDE_COLOURS))], np.uint8)
        c2 = np.array(FACE_COLOURS[rng.integers(len(FACE_COLOURS))], np.uint8)
        cut = int(rng.integers(10, CROP_W - 10))
        img[:, :cut] = c1
        img[:, cut:] = c2
        if rng.random() < 0.5:
            img = np.ascontiguousarray(img.transpose(1, 0, 2))
            img = cv2.resize(img, (CROP_W, CROP_H))
        crop = img
    else:  # junk: random shapes, strokes and colours (fingers, cups, clutter)
        crop = _background(CROP_H, CROP_W, rng)
        for _ in range(int(rng.integers(1, 6))):
            col = tuple(int(v) for v in rng.integers(0, 256, 3))
            p = (int(rng.integers(0, CROP_W)), int(rng.integers(0, CROP_H)))
            if rng.random() < 0.5:
                cv2.circle(crop, p, int(rng.integers(3, 30)), col, -1)
            else:
                q = (int(rng.integers(0, CROP_W)), int(rng.integers(0, CROP_H)))
                cv2.line(crop, p, q, col, int(rng.integers(1, 10)))
    return photometric(crop, rng)


SPLITS: tuple[str, ...] = ("train", "test_seen", "test_heldout")
"""The rendered splits: training crops, new renders of the training styles, and
renders of the held-out styles (``artwork.HELD_OUT_STYLES``)."""
SHARDS = 2
"""Each split is rendered as this many shards, each seeded on its own (``seed`` x 1000 +
its index), however many worker processes share them: the crops are the seed's alone.
When the shards followed the workers, ``--workers 1`` drew other test crops than the
model card's, and the same models read 98.11 % of them for 98.50 % (forty-fourth
session). Two, as this 2-core machine's default always drew them: every data set
built before is drawn again crop for crop."""


def label_counts(n_per_class: int, reader: str = "tiles") -> dict[str, int]:
    """How many crops of each label a split of ``reader``'s data gets.

    The bonus reader only runs on crops that the classifier took for a flower, a
    season or the 1 bamboo's bird, so it needs those in full and the other faces
    only as a reminder of what is *not* a bonus tile."""
    if reader not in READERS:
        raise ValueError(f"unknown reader {reader!r}: expected one of {READERS}")
    if reader == "tiles":
        return dict.fromkeys(LABELS, n_per_class)
    return {lab: n_per_class if lab in BONUS_CODES or lab == "1s" else n_per_class // 8
            for lab in LABELS}


def crop_size(reader: str = "tiles") -> tuple[int, int]:
    """(height, width) of ``reader``'s crops."""
    return (BONUS_CROP_H, BONUS_CROP_W) if reader == "bonus" else (CROP_H, CROP_W)


def _work(args: tuple[list[str], dict[str, int], int, str | None, bool, str, tuple[int, int]]
          ) -> dict[str, np.ndarray]:
    """Render ``counts[label]`` crops of each label from the given sources (one process),
    at ``size`` (height, width).

    ``mirror``: training only; test renders show each artwork as it is drawn."""
    sources, counts, seed, root, mirror, reader, size = args
    weights = SOURCE_WEIGHTS[reader]
    rng = np.random.default_rng(seed)
    # per code: the sources that draw it; a source is drawn first (weighted), then
    # one of its faces, so that a source with many variants does not dominate
    # (and the faces without the writing that names them, where a source has them)
    pools: dict[str, list[tuple[str, list[np.ndarray], list[np.ndarray] | None]]] = {
        c: [] for c in TILE_CODES}
    all_faces: list[np.ndarray] = []
    for s in sources:
        unnamed = artwork.load_unnamed(s, root)
        for code, faces in artwork.load_faces(s, root).items():
            pools[code].append((s, faces, unnamed.get(code)))
            if code != "back":
                all_faces += faces
    xs, ys, rots, srcs = [], [], [], []
    for label in LABELS:
        pool = pools.get(label, [])
        if label != NONE and not pool:
            continue
        for _ in range(counts.get(label, 0)):
            if label == NONE:
                img, src = render_none(all_faces, rng), "none"
                if img.shape[:2] != size:  # drawn at the classifier's size: only a reminder
                    img = cv2.resize(img, size[::-1], interpolation=cv2.INTER_LINEAR)
            else:
                w = np.array([weights.get(name, 1.0) for name, _, _ in pool])
                src, faces, bare_faces = pool[rng.choice(len(pool), p=w / w.sum())]
                k = rng.integers(len(faces))
                face = faces[k]
                nbs = [all_faces[rng.integers(len(all_faces))] for _ in range(2)]
                if mirror:
                    face = mirror_variant(face, label, rng)
                drawn = corner_index(face, label, rng, bonus=mirror and reader == "bonus")
                # a face redrawn with a corner number no longer matches its unnamed twin
                bare = bare_faces[k] if bare_faces and drawn is faces[k] else None
                if label in NAMED_BLANK:
                    bare = drawn  # none of its ink names it: never redrawn
                img = render_tile(drawn, nbs, rng, size, bare)
            up = bool(rng.random() < 0.5)
            if up:
                img = img[::-1, ::-1]
            xs.append(np.ascontiguousarray(img))
            ys.append(LABEL_INDEX[label])
            rots.append(int(up))
            srcs.append(src)
    return {"x": np.stack(xs), "y": np.array(ys, np.int64), "rot": np.array(rots, np.int64),
            "src": np.array(srcs)}


def build_split(sources: list[str], n_per_class: int, seed: int, workers: int,
                root: str | None, *, mirror: bool = False, reader: str = "tiles",
                size: tuple[int, int] | None = None) -> dict[str, np.ndarray]:
    """Render a split of ``reader``'s data as :data:`SHARDS` seeded shards in up to
    ``workers`` processes, at ``size`` (height, width; default: the reader's own crop
    size)."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    for s in sources:  # fill the face cache once, before forking
        artwork.load_faces(s, root)
    counts = label_counts(n_per_class, reader)
    shares = [{lab: n // SHARDS + (1 if i < n % SHARDS else 0) for lab, n in counts.items()}
              for i in range(SHARDS)]
    size = size or crop_size(reader)
    jobs = [(sources, c, seed * 1000 + i, root, mirror, reader, size)
            for i, c in enumerate(shares) if any(c.values())]
    with ProcessPoolExecutor(max_workers=max(1, min(workers, len(jobs)))) as ex:
        parts = list(ex.map(_work, jobs))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def load_real(root: str | None = None) -> dict[str, np.ndarray]:
    """The labelled real crops of ``real-dev`` (RGB, resized to the crop size)."""
    base = artwork.datasets_root(root) / "real-dev" / "crops"
    xs, ys, sets, files = [], [], [], []
    with open(base / "labels.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            code = BONUS_NAMES.get(row["tile"], row["tile"])
            if code not in LABEL_INDEX:
                continue
            img = cv2.imread(str(base / row["file"]), cv2.IMREAD_COLOR)
            img = cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
            xs.append(cv2.resize(img, (CROP_W * 2, CROP_H * 2), interpolation=cv2.INTER_AREA))
            ys.append(LABEL_INDEX[code])
            sets.append(row["set"])
            files.append(row["file"])
    return {"x": np.stack(xs), "y": np.array(ys, np.int64), "set": np.array(sets),
            "files": np.array(files)}


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=str(artwork.build_dir() / "tiles"))
    p.add_argument("--datasets", default=None, help="shared data folder (default: $MJLENS_DATASETS"
                   " or ../shared/datasets)")
    p.add_argument("--train-per-class", type=int, default=1500)
    p.add_argument("--test-per-class", type=int, default=150)
    p.add_argument("--workers", type=int, default=max(1, min(SHARDS, os.cpu_count() or 1)),
                   help=f"processes (at most {SHARDS} are used; the crops do not depend on it)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--reader", choices=READERS, default="tiles",
                   help="whose data: the tile classifier's, or the bonus reader's (flowers, "
                   "seasons and 1s in full, other faces an eighth as often, "
                   f"{BONUS_CROP_H}x{BONUS_CROP_W})")
    p.add_argument("--splits", nargs="+", choices=SPLITS, default=list(SPLITS),
                   help="which splits to render (default all); the real crops always")
    p.add_argument("--pipeline-size", action="store_true",
                   help=f"render at the {PIPELINE_CROP_H}x{PIPELINE_CROP_W} at which the photo "
                   "pipeline cuts faces, not at the reader's own size: test crops that measure "
                   "both stages as a photo feeds them")
    p.add_argument("--allow-missing", action="store_true",
                   help="build from the sources and fonts this machine has, even if it lacks "
                   "some of datasets/SOURCES.md (the crops then differ from the model card's)")
    a = p.parse_args(argv)
    missing = artwork.missing_for_training(a.datasets)
    if missing and not a.allow_missing:
        p.error("this machine lacks what the documented training data is drawn from:\n  "
                + "\n  ".join(missing) + "\ninstall the Debian packages of datasets/SOURCES.md"
                " (README: Training data), or pass --allow-missing")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    train_src = artwork.training_sources(a.datasets)
    held = [s for s in artwork.HELD_OUT_STYLES if s in artwork.available_sources(a.datasets)]
    print("training sources:", train_src, "\nheld-out styles:", held, flush=True)
    splits = {
        "train": (train_src, a.train_per_class, a.seed),
        "test_seen": (train_src, a.test_per_class, a.seed + 100),  # new renders, seen styles
        "test_heldout": (held, a.test_per_class, a.seed + 200),  # never-seen styles
    }
    size = (PIPELINE_CROP_H, PIPELINE_CROP_W) if a.pipeline_size else crop_size(a.reader)
    for name, (srcs, n, seed) in splits.items():
        if name not in a.splits:
            continue
        data = build_split(srcs, n, seed, a.workers, a.datasets, mirror=name == "train",
                           reader=a.reader, size=size)
        np.savez(out / f"{name}.npz", **data)
        print(f"{name}: {len(data['y'])} crops ({time.time() - t0:.0f}s)", flush=True)
    real = load_real(a.datasets)
    np.savez(out / "real.npz", **real)
    print(f"real: {len(real['y'])} crops; done in {time.time() - t0:.0f}s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
