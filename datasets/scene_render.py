"""Pixels of a generated photo: tables, tile bodies, camera, light and the phone's faults.

Why it looks the way it does: the pipeline must split *touching* tiles, so the
renderer draws what makes that hard in real photos (faces that abut with only a
bevel between them, the coloured side of the tiles, shadows joining
neighbours, glare, perspective and blur) and nothing that would make it easy
(no outlines, no gaps unless the layout has them).
"""

from __future__ import annotations

import gzip
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.scene_layout import FACE_ASPECT, PlacedTile

KDE_BACKGROUNDS = Path("/usr/share/kmahjongglib/backgrounds")
FACE_COLOURS = ((248, 246, 238), (240, 236, 220), (252, 252, 250), (236, 230, 208))
BACK_COLOURS = (
    (30, 120, 60), (20, 85, 45), (40, 90, 170), (30, 60, 130), (225, 185, 40),
    (215, 120, 30), (190, 40, 40), (120, 30, 40), (80, 150, 200), (70, 70, 70),
)
BACKGROUND_KINDS = ("felt", "wood", "cloth", "paper", "kde")


@dataclass(frozen=True)
class Camera:
    """Plane-to-image homography and which way the player faces in the image."""

    homography: np.ndarray  # table units -> output pixels (3x3)
    flipped: bool  # photo taken from the far side of the table (180°)


def _kde_background(name: str, cache: Path) -> np.ndarray | None:
    """A KMahjongg table background rasterised once (RGB), or None when absent."""
    out = cache / f"{name}.png"
    if not out.exists():
        src = KDE_BACKGROUNDS / f"{name}.svgz"
        exe = shutil.which("rsvg-convert")
        if not src.exists() or exe is None:
            return None
        cache.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            svg = Path(tmp) / "b.svg"
            svg.write_bytes(gzip.decompress(src.read_bytes()))
            subprocess.run([exe, "-w", "1024", "-o", str(out), str(svg)], check=True,
                           capture_output=True)
    img = cv2.imread(str(out), cv2.IMREAD_COLOR)
    return None if img is None else cv2.cvtColor(img, cv2.COLOR_BGR2RGB)


def _smooth_noise(rng: np.random.Generator, w: int, h: int, cells: int) -> np.ndarray:
    """Low-frequency noise in [-1, 1] (bicubic upscaling of a small random grid)."""
    small = rng.uniform(-1, 1, (max(2, cells * h // max(w, 1) + 2), cells + 2)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def background(rng: np.random.Generator, w: int, h: int, kind: str, cache: Path) -> np.ndarray:
    """A table surface of the given kind at the output size (RGB uint8)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "kde":
        # the table-like ones (the landscape, berries and Egyptian pictures are not tables)
        names = ("default", "wood_light")
        img = _kde_background(str(rng.choice(names)), cache)
        if img is not None:
            return cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)
        kind = "felt"
    if kind == "felt":
        base = np.array(rng.choice(
            [(30, 110, 60), (25, 70, 120), (110, 30, 40), (40, 40, 45), (20, 90, 90)]), np.float32)
        tex = rng.normal(0, 6, (h, w)).astype(np.float32)
        tex = cv2.GaussianBlur(tex, (0, 0), 1.0) + 10 * _smooth_noise(rng, w, h, 6)
        img = base[None, None, :] + tex[..., None]
    elif kind == "wood":
        base = np.array(rng.choice([(150, 100, 60), (120, 75, 40), (185, 140, 95)]), np.float32)
        warp = 25 * _smooth_noise(rng, w, h, 5) * (h / 500)
        period = h / rng.uniform(20, 60)
        grain = np.sin((yy + warp) / period * 2 * np.pi) * 0.5 + 0.5
        fine = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 0.8)
        img = base[None, None, :] * (0.85 + 0.2 * grain[..., None] + 0.02 * fine[..., None])
    elif kind == "cloth":
        c1 = np.array(rng.uniform(40, 200, 3), np.float32)
        c2 = np.array(rng.uniform(40, 200, 3), np.float32)
        period = w / rng.uniform(15, 60)
        pattern = ((xx // period + yy // period) % 2)[..., None]
        img = c1 * pattern + c2 * (1 - pattern) + rng.normal(0, 5, (h, w, 1)).astype(np.float32)
    else:  # paper: kraft, grey or pastel, never the tiles' own white
        base = np.array(rng.choice(
            [(190, 160, 120), (170, 170, 175), (200, 185, 150), (160, 190, 200)]), np.float32)
        fib = cv2.GaussianBlur(rng.normal(0, 8, (h, w)).astype(np.float32), (0, 0), 1.5)
        img = base[None, None, :] + fib[..., None] + 8 * _smooth_noise(rng, w, h, 4)[..., None]
    return np.clip(img, 0, 255).astype(np.uint8)


def _bevel(face: np.ndarray, strength: float) -> tuple[np.ndarray, np.ndarray]:
    """Darken the rim of a face and round its corners (the seam between touching tiles)."""
    h, w = face.shape[:2]
    r = max(2, int(0.09 * min(w, h)))
    mask = np.zeros((h, w), np.uint8)
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1)
    dist = cv2.distanceTransform((mask > 0).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 1.0 - strength * np.exp(-dist / max(1.0, 0.035 * w))
    out = face.astype(np.float32) * shade[..., None]
    return np.clip(out, 0, 255).astype(np.uint8), mask


def face_image(tile: PlacedTile, faces: dict[str, list[np.ndarray]], face_rgb: tuple[int, ...],
               back_rgb: tuple[int, ...], px_w: int, rng: np.random.Generator,
               ) -> tuple[np.ndarray, np.ndarray]:
    """The tile's face drawn upright at ``px_w`` pixels wide, then turned as laid: RGB + mask."""
    px_h = round(px_w * FACE_ASPECT)
    if tile.face_down:
        rgb = np.empty((px_h, px_w, 3), np.float32)
        rgb[:] = back_rgb
        rgb *= (1 + 0.05 * _smooth_noise(rng, px_w, px_h, 3))[..., None]
        rgb = np.clip(rgb, 0, 255).astype(np.uint8)
    else:
        options = faces[tile.code]
        art = options[int(rng.integers(len(options)))]
        art = cv2.resize(art, (px_w, px_h), interpolation=cv2.INTER_AREA)
        a = art[..., 3:4].astype(np.float32) / 255.0
        rgb = (art[..., :3] * a + np.array(face_rgb, np.float32) * (1 - a)).astype(np.uint8)
    rgb, mask = _bevel(rgb, float(rng.uniform(0.2, 0.45)))
    if tile.upside_down:
        rgb, mask = rgb[::-1, ::-1], mask[::-1, ::-1]
    if tile.sideways:
        k = 1 if rng.random() < 0.5 else 3
        rgb, mask = np.rot90(rgb, k), np.rot90(mask, k)
    return np.ascontiguousarray(rgb), np.ascontiguousarray(mask)


def _paste(canvas: np.ndarray, alpha: np.ndarray, src: np.ndarray, src_mask: np.ndarray,
           dst: np.ndarray) -> None:
    """Warp ``src`` onto the quad ``dst`` (TL, TR, BR, BL) of ``canvas`` in place."""
    h, w = src.shape[:2]
    x0, y0 = np.floor(dst.min(0)).astype(int) - 1
    x1, y1 = np.ceil(dst.max(0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    srcq = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(srcq, (dst - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(src, m, size, flags=cv2.INTER_AREA)
    wm = cv2.warpPerspective(src_mask, m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255
    roi = canvas[y0:y1, x0:x1]
    roi[:] = (warped * wm[..., None] + roi * (1 - wm[..., None])).astype(np.uint8)
    alpha[y0:y1, x0:x1] = np.maximum(alpha[y0:y1, x0:x1], (wm * 255).astype(np.uint8))


def render_table(tiles: list[PlacedTile], faces: dict[str, list[np.ndarray]], unit_px: float,
                 towards_camera: float, tilt_deg: float, rng: np.random.Generator,
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Draw the tiles seen from straight above onto a transparent table canvas.

    The side of each tile that faces the camera shows as a strip (ivory layer,
    then the coloured back), as long as the camera's tilt makes it. Returns the
    canvas RGB, its alpha and the offset (table units) of the canvas origin.
    """
    pts = np.concatenate([t.corners() for t in tiles])
    margin = 1.0
    lo = pts.min(0) - margin
    hi = pts.max(0) + margin
    size = np.ceil((hi - lo) * unit_px).astype(int)
    canvas = np.zeros((size[1], size[0], 3), np.uint8)
    alpha = np.zeros((size[1], size[0]), np.uint8)
    face_rgb = FACE_COLOURS[int(rng.integers(len(FACE_COLOURS)))]
    back_rgb = BACK_COLOURS[int(rng.integers(len(BACK_COLOURS)))]
    thickness = 0.75 * np.sin(np.deg2rad(tilt_deg)) + 0.04
    ivory_part = float(rng.uniform(0.35, 0.6))
    order = sorted(tiles, key=lambda t: t.corners()[:, 1].mean() * towards_camera)
    for t in order:
        c = (t.corners() - lo) * unit_px
        # the side facing the camera: the face's edge nearest the camera, pushed out
        edge = (c[2], c[3]) if towards_camera > 0 else (c[0], c[1])
        shift = np.array([0.0, towards_camera * thickness * unit_px])
        # back-coloured layer first, the ivory layer under the face on top of it
        for frac, rgb, shade in ((1.0, back_rgb, 0.8), (ivory_part, face_rgb, 0.78)):
            quad = np.array([edge[0], edge[1], edge[1] + shift * frac, edge[0] + shift * frac])
            col = tuple(int(v * shade) for v in rgb)
            cv2.fillConvexPoly(canvas, quad.astype(np.int32), col, cv2.LINE_AA)
            cv2.fillConvexPoly(alpha, quad.astype(np.int32), 255, cv2.LINE_AA)
        px_w = max(8, round(min(t.w, t.h) * unit_px))
        rgb, mask = face_image(t, faces, face_rgb, back_rgb, px_w, rng)
        # the face image is drawn upright; corners() lists TL, TR, BR, BL of the laid face
        _paste(canvas, alpha, rgb, mask, c.astype(np.float32))
    return canvas, alpha, lo


def camera(rng: np.random.Generator, layout_lo: np.ndarray, layout_hi: np.ndarray,
           out_w: int, out_h: int, tilt_deg: float, flipped: bool, coverage: float,
           ) -> Camera:
    """A pinhole camera over the table: tilt towards the player, some turn, phone-like lens."""
    centre = (layout_lo + layout_hi) / 2
    span = float(np.linalg.norm(layout_hi - layout_lo))
    turn = float(rng.normal(0, 6)) + (180.0 if flipped else 0.0)
    a = np.deg2rad(turn)
    rot = np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    shift = np.array([[1, 0, -centre[0]], [0, 1, -centre[1]], [0, 0, 1]])
    f = 0.8 * max(out_w, out_h)
    dist = f * span / (coverage * out_w)
    th = np.deg2rad(tilt_deg)
    cx = out_w / 2 + float(rng.normal(0, 0.04)) * out_w
    cy = out_h / 2 + float(rng.normal(0, 0.04)) * out_h
    tilt = np.array([
        [f, -cx * np.sin(th), cx * dist],
        [0, f * np.cos(th) - cy * np.sin(th), cy * dist],
        [0, -np.sin(th), dist],
    ])
    return Camera(tilt @ rot @ shift, flipped)


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a homography to Nx2 points."""
    p = np.c_[pts, np.ones(len(pts))] @ h.T
    return p[:, :2] / p[:, 2:3]


def photo_effects(img: np.ndarray, tiles_alpha: np.ndarray, rng: np.random.Generator,
                  tile_px: float) -> np.ndarray:
    """Light falloff, a soft shadow, glare, colour cast, blur and sensor noise."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    xx = np.arange(w, dtype=np.float32)[None, :]
    yy = np.arange(h, dtype=np.float32)[:, None]
    light = (1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)).astype(np.float32)
    if rng.random() < 0.35:  # the shadow of a hand or a phone across the table
        m = np.zeros((h, w), np.float32)
        centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(0.15, 0.4) * w), int(rng.uniform(0.1, 0.3) * h))
        cv2.ellipse(m, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        m = cv2.GaussianBlur(m, (0, 0), 0.05 * w)
        light *= 1 - float(rng.uniform(0.2, 0.45)) * m
    out *= light[..., None]
    out *= rng.uniform(0.92, 1.08, 3).astype(np.float32)[None, None, :]
    if rng.random() < 0.35:  # glare on the glossy faces
        ys, xs = np.nonzero(tiles_alpha[:: max(1, h // 200), :: max(1, w // 200)] > 128)
        if len(ys):
            i = int(rng.integers(len(ys)))
            g = np.zeros((h, w), np.float32)
            cy, cx = ys[i] * max(1, h // 200), xs[i] * max(1, w // 200)
            g[min(cy, h - 1), min(cx, w - 1)] = 1
            g = cv2.GaussianBlur(g, (0, 0), tile_px * rng.uniform(0.4, 1.2))
            g /= max(float(g.max()), 1e-6)
            out += float(rng.uniform(30, 90)) * g[..., None] * (tiles_alpha[..., None] / 255)
    sigma = float(rng.uniform(0.0, 1.0)) * max(1.0, tile_px / 60)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    noise = np.empty(out.shape, np.float32)
    cv2.setRNGSeed(int(rng.integers(2**31)))  # OpenCV's generator, seeded from ours
    cv2.randn(noise, 0, float(rng.uniform(1, 5)))
    out += noise
    return np.clip(out, 0, 255).astype(np.uint8)


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    """Round-trip through JPEG compression, as a phone would store it."""
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_RGB2BGR),
                           [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.cvtColor(cv2.imdecode(buf, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
