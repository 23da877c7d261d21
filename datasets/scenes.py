"""Generated photos of winning hands, with ground truth, for tests and benchmarks.

Why generated: real photos of *hands* (not of whole sets) with every tile's
outline labelled do not exist in our data, and the pipeline's targets (recall,
precision, exact hands) need thousands of labelled tiles. The scenes use the
artwork styles the classifier never trained on
(:data:`datasets.artwork.HELD_OUT_STYLES`) so the figures are honest.

Small, seeded scenes for tests::

    scene = generate_scene(3, size=(800, 600))

The benchmark set (JPEG + JSON ground truth per scene, phone resolutions)::

    python -m datasets.scenes --count 200 --out build/scenes
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from datasets.artwork import HELD_OUT_STYLES, build_dir, load_faces
from datasets.scene_layout import FACE_ASPECT, lay_out, random_hand
from datasets.scene_render import (
    BACKGROUND_KINDS,
    background,
    camera,
    jpeg,
    photo_effects,
    project,
    render_table,
)

RENDER_SIDE = 2000
"""Longest side scenes are drawn at before being enlarged to the requested size."""

DEFAULT_STYLE = HELD_OUT_STYLES[0]
"""The style of test and benchmark scenes: one the classifier never saw."""

PHONE_SIZES: tuple[tuple[int, int], ...] = (
    (4000, 3000), (3000, 4000), (4032, 3024), (3264, 2448), (2448, 3264), (4624, 3472),
)
"""Output sizes of the benchmark set: 8 to 16 megapixels, landscape and portrait."""


@dataclass(frozen=True)
class SceneTile:
    """Ground truth of one tile, in the order the player reads the hand."""

    code: str  # for a face-down tile, "back"
    outline: tuple[tuple[float, float], ...]  # face corners in image pixels
    row: int
    group: int
    kind: str  # concealed | meld | bonus
    face_down: bool
    sideways: bool
    orientation: int  # 0 upright for the player, 180 upside down


@dataclass(frozen=True)
class Scene:
    """A generated photo and what is in it."""

    image: np.ndarray  # RGB uint8, as displayed (EXIF already applied)
    tiles: tuple[SceneTile, ...]
    flipped: bool  # taken from across the table: the hand is upside down in the image
    style: str
    background: str
    tilt: float
    seed: int
    jpeg_quality: int

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]

    def truth(self) -> dict[str, Any]:
        """JSON-ready ground truth (everything but the pixels)."""
        h, w = self.image.shape[:2]
        return {
            "image": {"width": w, "height": h},
            "seed": self.seed, "style": self.style, "background": self.background,
            "tilt": round(self.tilt, 2), "flipped": self.flipped,
            "tiles": [
                {**asdict(t), "outline": [[round(x, 1), round(y, 1)] for x, y in t.outline]}
                for t in self.tiles
            ],
        }


@cache
def _faces(style: str) -> dict[str, list[np.ndarray]]:
    return load_faces(style)


def generate_scene(
    seed: int,
    *,
    size: tuple[int, int] = (800, 600),
    style: str = DEFAULT_STYLE,
    tilt: float | None = None,
    flipped: bool | None = None,
    background_kind: str | None = None,
    compress: bool = True,
) -> Scene:
    """Render one photo of a winning hand; everything random is drawn from ``seed``.

    ``tilt`` is the camera's angle from straight above (0-45°); ``flipped``
    takes the photo from the far side of the table. ``compress=False`` leaves
    the JPEG round-trip to whoever saves the image.
    """
    rng = np.random.default_rng(seed)
    faces = _faces(style)
    with_bonus = all(f"{i}f" in faces for i in range(1, 5))
    tiles = lay_out(random_hand(rng, with_bonus=with_bonus), rng)
    # Drawn at most RENDER_SIDE pixels wide, then enlarged to the phone's size: the
    # detail a 12-megapixel sensor adds is not what the pipeline (or the tests) need,
    # and drawing it costs ten times more.
    final_w, final_h = size
    shrink = min(1.0, RENDER_SIDE / max(size))
    out_w, out_h = max(1, round(final_w * shrink)), max(1, round(final_h * shrink))
    tilt_deg = float(rng.uniform(0, 45)) if tilt is None else tilt
    is_flipped = bool(rng.random() < 0.25) if flipped is None else flipped
    kind = str(rng.choice(BACKGROUND_KINDS)) if background_kind is None else background_kind

    pts = np.concatenate([t.corners() for t in tiles])
    lo, hi = pts.min(0), pts.max(0)
    coverage = float(rng.uniform(0.55, 0.85))
    for _ in range(20):
        cam = camera(rng, lo, hi, out_w, out_h, tilt_deg, is_flipped, coverage)
        img_pts = project(cam.homography, pts)
        m = 0.03 * min(out_w, out_h)
        if (img_pts.min(0) > m).all() and (img_pts[:, 0].max() < out_w - m) and (
                img_pts[:, 1].max() < out_h - m):
            break
        coverage *= 0.85
    # pixels per table unit near the middle of the hand, to draw the table at that detail
    mid = (lo + hi) / 2
    ends = project(cam.homography, np.array([mid, mid + np.array([1.0, 0.0])]))
    px_per_unit = float(np.linalg.norm(ends[1] - ends[0]))
    unit_px = min(300.0, max(20.0, 1.3 * px_per_unit))
    canvas, alpha, origin = render_table(tiles, faces, unit_px, -1.0 if is_flipped else 1.0,
                                         tilt_deg, rng)
    to_units = np.array([[1 / unit_px, 0, origin[0]], [0, 1 / unit_px, origin[1]], [0, 0, 1]])
    warp = cam.homography @ to_units
    table = background(rng, out_w, out_h, kind, build_dir() / "backgrounds").astype(np.float32)
    fg = cv2.warpPerspective(canvas, warp, (out_w, out_h), flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, warp, (out_w, out_h), flags=cv2.INTER_LINEAR)
    af = a.astype(np.float32) / 255
    shadow = cv2.GaussianBlur(af, (0, 0), max(1.0, 0.12 * px_per_unit))
    dx, dy = (rng.uniform(-0.1, 0.1, 2) * px_per_unit).round().astype(int)
    shadow = np.roll(shadow, (int(dy), int(dx)), axis=(0, 1))
    table *= (1 - float(rng.uniform(0.3, 0.55)) * shadow)[..., None]
    img = (fg * af[..., None] + table * (1 - af[..., None])).astype(np.uint8)
    img = photo_effects(img, a, rng, px_per_unit)
    quality = int(rng.integers(70, 96))
    if shrink < 1:
        img = cv2.resize(img, (final_w, final_h), interpolation=cv2.INTER_LINEAR)
        grain = np.empty(img.shape, np.int16)
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(grain, 0, 2)  # the sensor's own noise at full size
        img = cv2.add(img, grain, dtype=cv2.CV_8U)
    if compress:
        img = jpeg(img, quality)

    truth = []
    for t in tiles:
        # the player's corners; in a flipped photo the top-left lands bottom-right
        quad = project(cam.homography, t.corners()) / shrink
        truth.append(SceneTile(
            "back" if t.face_down else t.code,
            tuple((float(x), float(y)) for x, y in quad),
            t.row, t.block, t.kind, t.face_down, t.sideways, 180 if t.upside_down else 0,
        ))
    return Scene(img, tuple(truth), is_flipped, style, kind, tilt_deg, seed, quality)


def save_scene(scene: Scene, folder: Path, name: str, *, exif_turn: int = 0) -> Path:
    """Write ``name.jpg`` and ``name.json``; ``exif_turn`` stores the pixels turned
    (90, 180 or 270° counter-clockwise) with the EXIF orientation that undoes it."""
    from PIL import Image  # only saving needs Pillow

    folder.mkdir(parents=True, exist_ok=True)
    im = Image.fromarray(scene.image)
    exif = Image.Exif()
    tags = {0: 1, 90: 6, 180: 3, 270: 8}
    if exif_turn:
        im = im.rotate(exif_turn, expand=True)
    exif[0x0112] = tags[exif_turn]
    path = folder / f"{name}.jpg"
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=scene.jpeg_quality, exif=exif.tobytes())
    path.write_bytes(buf.getvalue())
    truth = scene.truth() | {"photo": path.name, "exif_orientation": tags[exif_turn]}
    (folder / f"{name}.json").write_text(json.dumps(truth, indent=1))
    return path


def load_truth(path: Path) -> dict[str, Any]:
    """The ground truth written next to a saved scene."""
    data: dict[str, Any] = json.loads(path.with_suffix(".json").read_text())
    return data


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m datasets.scenes", description="Generate photos of hands with ground truth."
    )
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--out", type=Path, default=build_dir() / "scenes")
    parser.add_argument("--seed", type=int, default=1000, help="seed of the first scene")
    parser.add_argument("--style", default=DEFAULT_STYLE)
    parser.add_argument("--size", default="", help="WxH for every scene (default: phone sizes)")
    args = parser.parse_args(argv)
    fixed: tuple[int, int] | None = None
    if args.size:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            parser.error(f"--size must look like 4000x3000, not {args.size!r}")
        fixed = (w, h)
    for i in range(args.count):
        seed = args.seed + i
        rng = np.random.default_rng(seed + 7_000_000)
        size = fixed or PHONE_SIZES[int(rng.integers(len(PHONE_SIZES)))]
        scene = generate_scene(seed, size=size, style=args.style, compress=False)
        turn = int(rng.choice([0, 0, 0, 90, 180, 270]))
        save_scene(scene, args.out, f"scene_{seed:05d}", exif_turn=turn)
        print(f"\r{i + 1}/{args.count}", end="", file=sys.stderr, flush=True)
    print(f"\nwrote {args.count} scenes to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())


__all__ = ["FACE_ASPECT", "Scene", "SceneTile", "generate_scene", "load_truth", "save_scene"]
