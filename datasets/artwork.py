"""Tile artworks as RGBA face images, one loader per source.

Why this module exists: the tile classifier (``datasets/tile_dataset.py``) and
the scene generator (``datasets/scenes*.py``) must draw tiles from the *same*
artworks and must keep the *same* styles out of training, or the held-out
accuracy we report would be a lie. Everything that knows where an artwork lives
and how its files are named is here; nothing here augments or composes scenes.

Face image convention (what every loader returns)
-------------------------------------------------
``load_faces(source)`` -> ``{tile code: [face, ...]}`` where each ``face`` is a
``uint8`` array of shape ``(FACE_H, FACE_W, 4)`` (RGBA, portrait 3:4, upright)
covering exactly the *face* of the tile (no side, no shadow):

* where alpha < 255 the tile's face colour (white, ivory, yellow, ...) shows
  through: compose with :func:`compose_on_face`. Most sources are such
  transparent "ink" layers so the caller picks the face colour.
* some sources are opaque (alpha 255 everywhere): their artwork comes with its
  own face colour (e.g. the dark red ``kde_jade`` set, GNOME theme tiles).

Codes are those of ``scoring/tiles.py`` (``1m``..``9m``, ``1p``.., ``1s``..,
``1z``..``7z``, ``1f``..``4f``, ``1g``..``4g``, ``back``). A code may have
several faces (e.g. the normal and the red five). Sources need not cover every
code (Japanese sets have no flowers).

A procedural source where only part of a face's ink names the tile
(``bonus_mix``'s writing over a borrowed picture; in ``cjk_fonts``, the
writing over a random plant and the number over 萬) also returns, under
``code +`` :data:`UNNAMED`, each such face again without that ink, in the
same order: :func:`load_unnamed`. The data builder photographs the two alike
and redraws a crop in which that writing no longer shows.

Rasterising SVG is slow-ish (a few seconds per source), so results are cached
as ``.npz`` under ``build/artwork/`` (override with ``MJLENS_BUILD``).

Paths: the shared data folder is ``../shared/datasets`` relative to the
repository root, overridden by the ``MJLENS_DATASETS`` environment variable or
an explicit ``root`` argument. Debian-packaged artworks are read from
``/usr/share`` (packages ``kdegames-mahjongg-data-kf5``, ``gnome-mahjongg``,
``xmahjongg``, ``fonts-noto-core``, ``fonts-symbola``); SVG needs ``rsvg-convert``
(``librsvg2-bin``), fonts and GIF tile sets need Pillow. A source whose files are missing is
simply not in :func:`available_sources`.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:  # Pillow is needed only by the data build
    from PIL import ImageDraw

FACE_H = 200
"""Height of every face image (pixels)."""
FACE_W = 150
"""Width of every face image (pixels): faces are portrait 3:4."""

HELD_OUT_STYLES: tuple[str, ...] = ("kde_default", "kde_jade", "xmahjongg_real")
"""Artworks never used for training (classifier or scene-based training).

``kde_jade`` is the ``kde_default`` drawing recoloured (white ink on a dark red
face), so both are held out together: otherwise the held-out style would leak.
``xmahjongg_real`` (a scanned physical Hong Kong set, no relation to the KDE
drawings) is a second, independent family. Use them only for evaluation; the
first is the style of the generated test photos."""

CACHE_VERSION = 1

REPO_ROOT = Path(__file__).resolve().parents[1]

FaceSet = dict[str, list[np.ndarray]]

UNNAMED = ".unnamed"
"""Suffix of the codes under which a loader lists its faces without the ink
that names them (see the module docstring)."""


@dataclass(frozen=True)
class Source:
    """One artwork: its name, where it comes from and under which licence."""

    name: str
    origin: str
    licence: str
    loader: Callable[[Path], FaceSet]
    needs: tuple[str, ...]  # files that must exist (``{root}`` = datasets root)
    revision: int = 0  # raised when the loader draws other faces: a new cache file
    fonts: tuple[Path, ...] = ()  # fonts it writes with, those present (some may be missing)


# --------------------------------------------------------------------------- paths


def datasets_root(root: str | os.PathLike[str] | None = None) -> Path:
    """The shared data folder: ``root`` if given, else ``$MJLENS_DATASETS``,
    else ``../shared/datasets`` next to the repository."""
    if root is not None:
        return Path(root)
    env = os.environ.get("MJLENS_DATASETS")
    if env:
        return Path(env)
    return (REPO_ROOT / ".." / "shared" / "datasets").resolve()


def build_dir() -> Path:
    """Ignored output folder for caches and rendered data (``$MJLENS_BUILD`` or ``build/``)."""
    return Path(os.environ.get("MJLENS_BUILD", REPO_ROOT / "build"))


# ------------------------------------------------------------------ small helpers


def _rgba(img: np.ndarray) -> np.ndarray:
    """OpenCV BGR(A) -> RGBA uint8."""
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    elif img.shape[2] == 3:
        img = cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)
    return cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA)


def _resize(img: np.ndarray, w: int = FACE_W, h: int = FACE_H) -> np.ndarray:
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)


def ink_box(img: np.ndarray, thr: int = 10) -> tuple[int, int, int, int] | None:
    """The box (x0, y0, x1, y1) around an RGBA image's ink (alpha above ``thr``)."""
    ys, xs = np.nonzero(img[..., 3] > thr)
    if len(ys) == 0:
        return None
    return int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1


def _fit_glyph(img: np.ndarray, margin: float = 0.08) -> np.ndarray:
    """Place an ink layer cropped to its bounding box on a face-sized canvas.

    A box already shaped like a face (aspect 0.65-0.9) is the artist's face
    rectangle and is stretched to fill it, like the game that ships it does;
    anything else is fitted, aspect kept, inside a margin.
    """
    box = ink_box(img)
    canvas = np.zeros((FACE_H, FACE_W, 4), np.uint8)
    if box is None:
        return canvas
    x0, y0, x1, y1 = box
    crop = img[y0:y1, x0:x1]
    aspect = crop.shape[1] / crop.shape[0]
    if 0.65 <= aspect <= 0.9:
        return _resize(crop)
    aw, ah = FACE_W * (1 - 2 * margin), FACE_H * (1 - 2 * margin)
    s = min(aw / crop.shape[1], ah / crop.shape[0])
    w, h = max(1, round(crop.shape[1] * s)), max(1, round(crop.shape[0] * s))
    small = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)
    x, y = (FACE_W - w) // 2, (FACE_H - h) // 2
    canvas[y : y + h, x : x + w] = small
    return canvas


def compose_on_face(face: np.ndarray, face_rgb: tuple[int, int, int]) -> np.ndarray:
    """Flatten an RGBA face onto a face colour -> RGB uint8 (opaque faces unchanged)."""
    a = face[..., 3:4].astype(np.float32) / 255.0
    bg = np.array(face_rgb, np.float32)
    out = face[..., :3].astype(np.float32) * a + bg * (1 - a)
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _opaque(face: np.ndarray, face_rgb: tuple[int, int, int]) -> np.ndarray:
    out = np.empty_like(face)
    out[..., :3] = compose_on_face(face, face_rgb)
    out[..., 3] = 255
    return out


def _rsvg(svg_path: Path, element: str | None, height: int) -> np.ndarray:
    """Rasterise an SVG (or one element of it, by id) with ``rsvg-convert``."""
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise RuntimeError("rsvg-convert not found: apt-get install librsvg2-bin")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "x.png"
        cmd = [exe, "-h", str(height), "-o", str(out)]
        if element:
            cmd += ["-i", element]
        subprocess.run([*cmd, str(svg_path)], check=True, capture_output=True)
        img = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise RuntimeError(f"rsvg-convert produced nothing for {svg_path}#{element}")
    return _rgba(img)


# ---------------------------------------------------------------------- sources

_SUITS = {"Man": "m", "Pin": "p", "Sou": "s"}
_FLUFFY_HONOURS = {
    "Ton": "1z", "Nan": "2z", "Shaa": "3z", "Pei": "4z", "Haku": "5z", "Hatsu": "6z", "Chun": "7z",
}


def _fluffy(root: Path, variant: str) -> FaceSet:
    folder = root / "artwork" / "fluffystuff" / "Export" / variant
    front = _rgba(cv2.imread(str(folder / "Front.png"), cv2.IMREAD_UNCHANGED))
    # The dark body of the Black variant is the face colour of its faces.
    dark = variant == "Black"
    face_rgb = tuple(int(v) for v in np.median(front[300:500, 200:400, :3].reshape(-1, 3), 0))
    faces: FaceSet = {}

    def add(code: str, name: str) -> None:
        img = _rgba(cv2.imread(str(folder / f"{name}.png"), cv2.IMREAD_UNCHANGED))
        face = _resize(img)
        if dark:
            face = _opaque(face, face_rgb)  # type: ignore[arg-type]
        faces.setdefault(code, []).append(face)

    for prefix, suit in _SUITS.items():
        for n in range(1, 10):
            add(f"{n}{suit}", f"{prefix}{n}")
        add(f"5{suit}", f"{prefix}5-Dora")
    for name, code in _FLUFFY_HONOURS.items():
        if dark and code == "5z":
            continue  # a blank dark face looks exactly like the dark back: ambiguous
        add(code, name)
    if not dark:  # the Black set's back is the same black as its face
        back = _resize(_rgba(cv2.imread(str(folder / "Back.png"), cv2.IMREAD_UNCHANGED)))
        back[..., 3] = 255
        faces["back"] = [back]
    return faces


_SHIZHAO_IDS: dict[str, str] = {
    **{f"{n}p": f"t_do{n}" for n in range(1, 10)},
    **{f"{n}m": f"t_ch{n}" for n in range(1, 10)},
    **{f"{n}s": f"t_ba{n}" for n in range(1, 10)},
    "1z": "t_wi_east", "2z": "t_wi_south", "3z": "t_wi_west", "4z": "t_wi_north",
    "5z": "t_dr_white", "6z": "t_dr_green", "7z": "t_dr_red",
    "1f": "t_fl_plum", "2f": "t_fl_orchid", "3f": "t_fl_chrysanthemum", "4f": "t_fl_bamboo",
    "1g": "t_se_spring", "2g": "t_se_summer", "3g": "t_se_fall", "4g": "t_se_winter",
}


def _shizhao(root: Path, filename: str) -> FaceSet:
    src = (root / "artwork" / "shizhao" / filename).read_text(encoding="utf-8")
    head, defs_end = src.split("</defs>", 1)[0], "</defs>"
    faces: FaceSet = {}
    with tempfile.TemporaryDirectory() as tmp:
        for code, sid in _SHIZHAO_IDS.items():
            m = re.search(rf'<svg id="{sid}" viewBox="([^"]+)"', src)
            vb = m.group(1) if m else "0 0 74.7 95.1"
            _, _, w, h = (float(v) for v in vb.split())
            body = re.sub(r'viewBox="[^"]*"', f'viewBox="0 0 {w} {h}"', head, count=1)
            svg = f'{body}{defs_end}<use xlink:href="#{sid}" width="{w}" height="{h}"/></svg>'
            path = Path(tmp) / "f.svg"
            path.write_text(svg, encoding="utf-8")
            faces[code] = [_resize(_rsvg(path, None, FACE_H * 2))]
    return faces


_KDE_DIR = Path("/usr/share/kmahjongglib/tilesets")


def _kde_ids(flowers: tuple[int, int, int, int] = (1, 2, 3, 4)) -> dict[str, str]:
    ids = {f"{n}m": f"CHARACTER_{n}" for n in range(1, 10)}
    ids |= {f"{n}p": f"ROD_{n}" for n in range(1, 10)}  # KMahjongg calls dots "rods"
    ids |= {f"{n}s": f"BAMBOO_{n}" for n in range(1, 10)}
    ids |= {"4z": "WIND_1", "2z": "WIND_2", "1z": "WIND_3", "3z": "WIND_4"}  # N S E W
    ids |= {"5z": "DRAGON_1", "6z": "DRAGON_2", "7z": "DRAGON_3"}
    ids |= {f"{code}f": f"FLOWER_{i}" for code, i in zip(range(1, 5), flowers, strict=True)}
    ids |= {f"{n}g": f"SEASON_{n}" for n in range(1, 5)}
    return ids


def _kde(name: str, flowers: tuple[int, int, int, int] = (1, 2, 3, 4)) -> FaceSet:
    """A KMahjongg tileset: each face is an SVG element, cropped to its box."""
    faces: FaceSet = {}
    with tempfile.TemporaryDirectory() as tmp:
        svg = Path(tmp) / "t.svg"
        svg.write_bytes(gzip.decompress((_KDE_DIR / f"{name}.svgz").read_bytes()))
        dark_rgb: tuple[int, int, int] | None = None
        if name == "jade":  # white ink meant for a dark red tile body
            body = _rsvg(svg, "TILE_1", 400)
            hh, ww = body.shape[:2]
            centre = body[hh // 3 : 2 * hh // 3, ww // 3 : 2 * ww // 3, :3].reshape(-1, 3)
            dark_rgb = tuple(int(v) for v in np.median(centre, 0))  # type: ignore[assignment]
        for code, element in _kde_ids(flowers).items():
            img = _rsvg(svg, element, 400)
            box = ink_box(img)
            if box is not None and box[3] - box[1] < 300:  # element small in its export area
                scale = 400 * 400 / max(1, box[3] - box[1])
                img = _rsvg(svg, element, int(min(scale, 6000)))
            face = _fit_glyph(img)
            if dark_rgb is not None:
                face = _opaque(face, dark_rgb)
            faces[code] = [face]
    return faces


_GNOME_DIR = Path("/usr/share/gnome-mahjongg/themes")
# Column order of GNOME Mahjongg theme images (43 columns, 2 rows: normal, highlighted).
_GNOME_ORDER: tuple[str | None, ...] = (
    *(f"{n}p" for n in range(1, 10)),
    "4z", "3z", "2z", "1z", "7z", "6z",
    *(f"{n}m" for n in range(1, 10)),
    *(f"{n}s" for n in range(1, 10)),
    "f33", "f34", "f35", "f36", "5z", "1g", "2g", "3g", "4g", None,
)


def _gnome(name: str, flower_codes: tuple[str, str, str, str]) -> FaceSet:
    """A GNOME Mahjongg theme: one image of 43 tiles with bodies; keep the face part."""
    path = _GNOME_DIR / name
    if path.suffix == ".svg":
        img = _rsvg(path, None, 176 * 4)
    else:
        img = _rgba(cv2.imread(str(path), cv2.IMREAD_UNCHANGED))
    tw, th = img.shape[1] // 43, img.shape[0] // 2
    flowers = dict(zip(("f33", "f34", "f35", "f36"), flower_codes, strict=True))
    faces: FaceSet = {}
    for i, code in enumerate(_GNOME_ORDER):
        if code is None:
            continue
        code = flowers.get(code, code)
        tile = img[0:th, i * tw : (i + 1) * tw]
        # the face is the top-left part; the bevel/side is right and bottom
        face = tile[int(th * 0.03) : int(th * 0.89), int(tw * 0.04) : int(tw * 0.89)].copy()
        face[..., 3] = 255
        faces[code] = [_resize(face)]
    return faces


_XMAHJONGG_DIR = Path("/usr/share/games/xmahjongg/tiles")
# Tile order of xmahjongg's drawn sets (two rows of 21 tiles: normal; two more: highlighted).
_XMAHJONGG_ORDER: tuple[str, ...] = (
    *(f"{n}p" for n in range(1, 10)), "4z", "3z", "2z", "1z", "7z", "6z",
    *(f"{n}m" for n in range(1, 10)), *(f"{n}s" for n in range(1, 10)),
    "1g", "2g", "3g", "4g", "5z", "4f", "2f", "1f", "3f",
)
# The ``real`` set is a photograph of a Hong Kong set laid out in a grid (9 x 5).
_XMAHJONGG_REAL_ROWS: tuple[tuple[str, ...], ...] = (
    tuple(f"{n}p" for n in range(1, 10)),
    tuple(f"{n}s" for n in range(1, 10)),
    tuple(f"{n}m" for n in range(1, 10)),
    ("1g", "2g", "3g", "4g", "4z", "2z", "1z", "3z"),
    ("1f", "2f", "3f", "4f", "6z", "5z", "7z"),
)


def _upscale(img: np.ndarray) -> np.ndarray:
    """Enlarge a small bitmap face smoothly (INTER_AREA would keep its blocks)."""
    return cv2.resize(img, (FACE_W, FACE_H), interpolation=cv2.INTER_CUBIC)


def _xmahjongg_rgb(name: str) -> np.ndarray:
    """An xmahjongg tile set's GIF as RGB: Pillow reads GIF palettes, OpenCV does not."""
    from PIL import Image  # only the data build needs Pillow

    return np.asarray(Image.open(_XMAHJONGG_DIR / f"{name}.gif").convert("RGB"))


def _xmahjongg_drawn(name: str) -> FaceSet:
    """A drawn xmahjongg tile set (``dorothys``, ``dorwhite``): small bitmap tiles
    with their sides, every face painted on one flat colour, which is made
    transparent so that the dataset picks the face colour, as for the other
    ink layers."""
    rgb = _xmahjongg_rgb(name)
    ch, cw = rgb.shape[0] // 4, rgb.shape[1] // 21
    colours, counts = np.unique(rgb[: 2 * ch].reshape(-1, 3), axis=0, return_counts=True)
    face_rgb = colours[counts.argmax()].astype(np.int16)  # the commonest colour: bare face
    faces: FaceSet = {}
    for i, code in enumerate(_XMAHJONGG_ORDER):
        r, c = divmod(i, 21)
        # the face is the top-left part of a cell; the sides are right and below
        cell = rgb[r * ch : (r + 1) * ch, c * cw : (c + 1) * cw].astype(np.int16)
        cell = cell[1 : round(0.84 * ch), 1 : round(0.81 * cw)]
        ink = np.empty((*cell.shape[:2], 4), np.uint8)
        ink[..., :3] = cell
        ink[..., 3] = np.clip(np.abs(cell - face_rgb).max(axis=2) * 4, 0, 255)
        faces[code] = [_upscale(ink)]
    return faces


def _xmahjongg_scanned() -> FaceSet:
    """xmahjongg's ``real`` set: a scan of a physical set laid out in a grid. Its
    faces keep their own colour and shading (opaque)."""
    rgb = _xmahjongg_rgb("real")
    ch, cw = rgb.shape[0] / 5, rgb.shape[1] / 9
    faces: FaceSet = {}
    for r, codes in enumerate(_XMAHJONGG_REAL_ROWS):
        for c, code in enumerate(codes):
            # inside the dark seams between the photographed tiles
            y0, y1 = round(r * ch + 0.05 * ch), round((r + 1) * ch - 0.05 * ch)
            x0, x1 = round(c * cw + 0.06 * cw), round((c + 1) * cw - 0.06 * cw)
            face = np.empty((y1 - y0, x1 - x0, 4), np.uint8)
            face[..., :3] = rgb[y0:y1, x0:x1]
            face[..., 3] = 255
            faces[code] = [_upscale(face)]
    return faces


_FONT_FILES = {
    "font_noto": Path("/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf"),
    "font_symbola": Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),
}


def _unicode_codes() -> dict[str, int]:
    cps = {"1z": 0x1F000, "2z": 0x1F001, "3z": 0x1F002, "4z": 0x1F003}
    cps |= {"7z": 0x1F004, "6z": 0x1F005, "5z": 0x1F006}
    cps |= {f"{n}m": 0x1F006 + n for n in range(1, 10)}
    cps |= {f"{n}s": 0x1F00F + n for n in range(1, 10)}
    cps |= {f"{n}p": 0x1F018 + n for n in range(1, 10)}
    cps |= {"1f": 0x1F022, "2f": 0x1F023, "4f": 0x1F024, "3f": 0x1F025}  # Unicode order
    cps |= {f"{n}g": 0x1F025 + n for n in range(1, 5)}
    return cps  # U+1F02B (back) is a hatched outline, unlike a real back: not used


def _font(name: str) -> FaceSet:
    """Glyphs of the Unicode mahjong block, drawn by a font, as black ink."""
    from PIL import Image, ImageDraw, ImageFont  # only the data build needs Pillow

    font = ImageFont.truetype(str(_FONT_FILES[name]), 400)
    faces: FaceSet = {}
    for code, cp in _unicode_codes().items():
        im = Image.new("L", (700, 700), 0)
        ImageDraw.Draw(im).text((50, 50), chr(cp), font=font, fill=255)
        a = np.asarray(im)
        ink = np.zeros((*a.shape, 4), np.uint8)
        ink[..., 3] = a
        faces[code] = [_fit_glyph(ink, margin=0.02)]
    return faces


CJK_FONTS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/arphic/ukai.ttc"),  # brush (kai) style, like real tiles
    Path("/usr/share/fonts/truetype/arphic/uming.ttc"),
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
)
LATIN_FONTS: tuple[Path, ...] = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"),
    Path("/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"),
    Path("/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf"),
    *(Path("/usr/share/fonts/opentype/urw-base35") / f"{name}.otf" for name in (
        "NimbusSans-Regular", "NimbusSans-Bold", "NimbusSansNarrow-Regular", "NimbusRoman-Regular",
        "C059-Roman", "P052-Roman", "URWBookman-Light", "URWGothic-Book")),
)
"""Latin fonts of the bonus faces' numbers and English words and of the corner
index digits (Debian ``fonts-dejavu-core``, ``fonts-noto-core``, ``fonts-urw-base35``)."""
NUMERALS = "一二三四五六七八九"
_WINDS = "東南西北"
FLOWER_CHARS = "梅蘭菊竹"
"""Plum, orchid, chrysanthemum, bamboo: the characters of flowers 1f-4f."""
SEASON_CHARS = "春夏秋冬"
"""Spring, summer, autumn, winter: the characters of seasons 1g-4g."""
_INKS = ((20, 20, 20), (30, 40, 150), (180, 20, 30), (20, 110, 50), (30, 30, 90))


def draw_centred_text(d: ImageDraw.ImageDraw, font: Path, s: str, cx: float, cy: float,
                      size: float, fill: tuple[int, ...]) -> tuple[float, float]:
    """Draw ``s`` with its ink box centred on (cx, cy); returns the box's width and height.

    Font metrics put a glyph's ink anywhere in its advance box, so procedural faces
    centre the measured ink, not the box."""
    from PIL import ImageFont

    f = ImageFont.truetype(str(font), max(6, int(size)))
    x0, y0, x1, y1 = d.textbbox((0, 0), s, font=f)
    d.text((cx - (x1 - x0) / 2 - x0, cy - (y1 - y0) / 2 - y0), s, font=f, fill=fill)
    return x1 - x0, y1 - y0


def draw_plant(d: ImageDraw.ImageDraw, w: int, h: int, rng: np.random.Generator) -> None:
    """A random flowering plant (2-4 stems, five-petal blossoms, sometimes a pot)
    on a ``w`` x ``h`` canvas: a picture that belongs to no tile, so that faces
    drawn over it can only be named by their writing."""
    base = (w / 2 + rng.normal(0, w / 15), h * 0.9)
    k = h / 400  # sizes were drawn for a 300x400 canvas
    green = (int(rng.integers(20, 80)), int(rng.integers(100, 170)), int(rng.integers(30, 90)), 255)
    for _ in range(int(rng.integers(2, 5))):  # stems
        pts = [base]
        for _ in range(4):
            px, py = pts[-1]
            pts.append((px + rng.normal(0, 25 * k), py - rng.uniform(30, 60) * k))
        d.line(pts, fill=green, width=max(1, int(rng.integers(3, 8) * k)))
        tip = pts[-1]
        petal = tuple(int(v) for v in rng.integers(0, 256, 3))
        if rng.random() < 0.7:
            petal = (int(rng.integers(180, 255)), int(rng.integers(20, 120)),
                     int(rng.integers(30, 140)))
        r = rng.uniform(10, 26) * k
        for j in range(5):
            a = 2 * np.pi * j / 5
            cx, cy = tip[0] + r * np.cos(a), tip[1] + r * np.sin(a)
            d.ellipse((cx - r / 1.6, cy - r / 1.6, cx + r / 1.6, cy + r / 1.6), fill=(*petal, 255))
        d.ellipse((tip[0] - 5 * k, tip[1] - 5 * k, tip[0] + 5 * k, tip[1] + 5 * k),
                  fill=(230, 200, 40, 255))
    if rng.random() < 0.4:  # a pot
        d.rectangle((w * 0.3, h * 0.82, w * 0.7, h * 0.95), fill=(*green[:3], 255))


def _cjk_faces(variants_per_font: int = 3) -> FaceSet:
    """Tile faces composed from Chinese fonts: characters, honours, flowers, seasons.

    Why: every physical set writes the same characters (一..九 over 萬, 東南西北,
    中, 發, and 梅蘭菊竹 / 春夏秋冬 beside a number on bonus tiles) in its own
    hand, while its pictures (flowers!) differ completely. Faces that share only
    the characters, over random plant drawings, teach the classifier to read them.
    """
    from PIL import Image, ImageDraw

    rng = np.random.default_rng(11)
    fonts = [f for f in CJK_FONTS if f.exists()]
    margin = 0.08 * FACE_W * 2  # corner writing stays inside it (canvas pixels, drawn at 2x)
    faces: FaceSet = {}

    def canvas() -> tuple[Image.Image, ImageDraw.ImageDraw]:
        im = Image.new("RGBA", (FACE_W * 2, FACE_H * 2), (0, 0, 0, 0))
        return im, ImageDraw.Draw(im)

    def ink() -> tuple[int, int, int, int]:
        c = _INKS[rng.integers(len(_INKS))]
        return (*(int(np.clip(v + rng.normal(0, 15), 0, 255)) for v in c), 255)  # type: ignore[return-value]

    text = draw_centred_text

    def corner(d: ImageDraw.ImageDraw, label: str) -> None:
        x = margin + 18
        x = x if rng.random() < 0.5 else FACE_W * 2 - x
        text(d, fonts[0], label, x, margin + 18, 36, (200, 30, 30, 255))  # Latin digits

    def done(code: str, im: Image.Image, bare: Image.Image | None = None) -> None:
        """Keep a face; ``bare``, the same face without its writing, for the codes
        whose picture names nothing (:data:`UNNAMED`)."""
        for key, image in ((code, im), (code + UNNAMED, bare)):
            if image is not None:
                face = np.asarray(image.resize((FACE_W, FACE_H), Image.Resampling.LANCZOS))
                faces.setdefault(key, []).append(face.copy())

    for fp in fonts:
        for _ in range(variants_per_font):
            for n, ch in enumerate(NUMERALS, 1):
                im, d = canvas()
                if n == 5 and rng.random() < 0.5:
                    ch = "伍"
                text(d, fp, ch, FACE_W, FACE_H * 0.55, int(rng.uniform(105, 140)), ink(),)
                wan = "万" if rng.random() < 0.1 else "萬"
                size, red = int(rng.uniform(130, 165)), int(rng.integers(150, 220))
                bare, bare_d = canvas()  # 萬 alone: the number is what names the tile
                for draw in (d, bare_d):
                    text(draw, fp, wan, FACE_W, FACE_H * 1.4, size, (red, 20, 30, 255))
                if rng.random() < 0.5:
                    corner(d, str(n))
                done(f"{n}m", im, bare)
            for n, ch in enumerate(_WINDS, 1):
                im, d = canvas()
                text(d, fp, ch, FACE_W, FACE_H, int(rng.uniform(170, 230)), ink())
                if rng.random() < 0.5:
                    corner(d, "ESWN"[n - 1])
                done(f"{n}z", im)
            im, d = canvas()
            text(d, fp, "中", FACE_W, FACE_H, int(rng.uniform(170, 230)),
                 (int(rng.integers(170, 230)), 20, 30, 255))
            done("7z", im)
            im, d = canvas()
            text(d, fp, "發" if rng.random() < 0.85 else "发", FACE_W, FACE_H,
                 int(rng.uniform(170, 230)), (20, int(rng.integers(100, 150)), 50, 255))
            done("6z", im)
            for n in range(1, 5):
                for code, chars in (("f", FLOWER_CHARS), ("g", SEASON_CHARS)):
                    im, d = canvas()
                    draw_plant(d, FACE_W * 2, FACE_H * 2, rng)
                    bare = im.copy()  # a plant of no tile: only the writing names it
                    size = int(rng.uniform(58, 85))
                    left = rng.random() < 0.5
                    # inside the face's margin, as sets print it: a segmenter's tight
                    # crop must not cut away the only thing that names the tile
                    x = margin + size / 2
                    x = x if left else FACE_W * 2 - x
                    text(d, fp, chars[n - 1], x, margin + size / 2, size, ink())
                    arabic = rng.random() < 0.7
                    num = str(n) if arabic else NUMERALS[n - 1]
                    x_num = margin + 24
                    text(d, fonts[0] if arabic else fp, num,
                         x_num if not left else FACE_W * 2 - x_num, margin + 24, 48,
                         (200, 30, 30, 255))
                    done(f"{n}{code}", im, bare)
    for _ in range(6):  # white dragons: a frame (Chinese sets) or blank (Japanese sets)
        im, d = canvas()
        if rng.random() < 0.8:
            m = rng.uniform(25, 50)
            col = ink()
            d.rectangle((m, m * 1.3, FACE_W * 2 - m, FACE_H * 2 - m * 1.3), outline=col,
                        width=int(rng.integers(6, 14)))
            if rng.random() < 0.5:
                m2 = m + rng.uniform(18, 30)
                d.rectangle((m2, m2 * 1.2, FACE_W * 2 - m2, FACE_H * 2 - m2 * 1.2), outline=col,
                            width=int(rng.integers(3, 8)))
        done("5z", im)
    return faces


def _bonus_mix(root: Path) -> FaceSet:
    from datasets.bonus_faces import bonus_faces  # it reads the other sources through us

    return bonus_faces(root, unnamed=True)


_BACK_COLOURS: tuple[tuple[int, int, int], ...] = (
    (34, 120, 60), (20, 80, 40), (40, 90, 170), (25, 50, 120), (230, 190, 40),
    (220, 120, 30), (200, 40, 40), (120, 30, 40), (90, 160, 200), (60, 60, 60),
    (140, 80, 160), (80, 150, 120),
)


def _plain_backs(_root: Path) -> FaceSet:
    """Coloured tile backs (solid, slightly graded, some with a faint emboss).

    Real backs are plain coloured plastic; no artwork covers their variety."""
    rng = np.random.default_rng(7)
    backs = []
    yy, xx = np.mgrid[0:FACE_H, 0:FACE_W].astype(np.float32)
    for i, rgb in enumerate(_BACK_COLOURS):
        gx, gy = rng.normal(size=2)
        grad = 1.0 + 0.12 * ((xx / FACE_W - 0.5) * gx + (yy / FACE_H - 0.5) * gy)
        img = np.array(rgb, np.float32)[None, None, :] * grad[..., None]
        if i % 3 == 0:  # faint embossed pattern (a diamond grid)
            pat = (np.sin(xx * 0.25 + yy * 0.25) * np.sin(xx * 0.25 - yy * 0.25)) * 10
            img += pat[..., None]
        face = np.empty((FACE_H, FACE_W, 4), np.uint8)
        face[..., :3] = np.clip(img, 0, 255).astype(np.uint8)
        face[..., 3] = 255
        backs.append(face)
    return {"back": backs}


SOURCES: dict[str, Source] = {
    s.name: s
    for s in (
        Source("fluffystuff_regular", "FluffyStuff/riichi-mahjong-tiles, Export/Regular",
               "CC0 1.0", lambda r: _fluffy(r, "Regular"),
               ("{root}/artwork/fluffystuff/Export/Regular/Man1.png",)),
        Source("fluffystuff_black", "FluffyStuff/riichi-mahjong-tiles, Export/Black",
               "CC0 1.0", lambda r: _fluffy(r, "Black"),
               ("{root}/artwork/fluffystuff/Export/Black/Man1.png",)),
        Source("shizhao_color", "Wikimedia Commons (Shizhao), uni.svg", "public domain",
               lambda r: _shizhao(r, "uni.svg"), ("{root}/artwork/shizhao/uni.svg", "@rsvg")),
        Source("shizhao_mono", "Wikimedia Commons (Shizhao), unib.svg", "public domain",
               lambda r: _shizhao(r, "unib.svg"), ("{root}/artwork/shizhao/unib.svg", "@rsvg")),
        Source("kde_classic", "kdegames-mahjongg-data-kf5: classic.svgz", "GPL-2+",
               lambda r: _kde("classic", flowers=(2, 1, 3, 4)),
               (str(_KDE_DIR / "classic.svgz"), "@rsvg")),
        Source("kde_default", "kdegames-mahjongg-data-kf5: default.svgz", "GPL-2+",
               lambda r: _kde("default"), (str(_KDE_DIR / "default.svgz"), "@rsvg")),
        Source("kde_jade", "kdegames-mahjongg-data-kf5: jade.svgz", "GPL-2+",
               lambda r: _kde("jade"), (str(_KDE_DIR / "jade.svgz"), "@rsvg")),
        Source("kde_traditional", "kdegames-mahjongg-data-kf5: traditional.svgz", "GPL-2+",
               lambda r: _kde("traditional"), (str(_KDE_DIR / "traditional.svgz"), "@rsvg")),
        Source("gnome_smooth", "gnome-mahjongg: themes/smooth.png", "GPL-2+",
               lambda r: _gnome("smooth.png", ("2f", "3f", "1f", "4f")),
               (str(_GNOME_DIR / "smooth.png"),)),
        Source("gnome_postmodern", "gnome-mahjongg: themes/postmodern.svg", "GPL-2+",
               lambda r: _gnome("postmodern.svg", ("1f", "2f", "3f", "4f")),
               (str(_GNOME_DIR / "postmodern.svg"), "@rsvg")),
        Source("xmahjongg_real", "xmahjongg: tiles/real.gif (Mark Sanctuary)", "GPL-2+",
               lambda r: _xmahjongg_scanned(), (str(_XMAHJONGG_DIR / "real.gif"), "@pil")),
        Source("xmahjongg_dorothys", "xmahjongg: tiles/dorothys.gif (Dorothy Robinson)",
               "GPL-2+", lambda r: _xmahjongg_drawn("dorothys"),
               (str(_XMAHJONGG_DIR / "dorothys.gif"), "@pil")),
        Source("xmahjongg_dorwhite", "xmahjongg: tiles/dorwhite.gif (Dorothy Robinson)",
               "GPL-2+", lambda r: _xmahjongg_drawn("dorwhite"),
               (str(_XMAHJONGG_DIR / "dorwhite.gif"), "@pil")),
        Source("font_noto", "fonts-noto-core: Noto Sans Symbols 2", "SIL OFL 1.1",
               lambda r: _font("font_noto"), (str(_FONT_FILES["font_noto"]), "@pil")),
        Source("font_symbola", "fonts-symbola: Symbola", "Symbola licence (free use)",
               lambda r: _font("font_symbola"), (str(_FONT_FILES["font_symbola"]), "@pil")),
        Source("cjk_fonts", "procedural faces written with Debian CJK fonts (fonts-arphic-ukai,"
               " fonts-arphic-uming, fonts-wqy-microhei, fonts-droid-fallback)",
               "Arphic Public Licence / Apache-2.0 (fonts)", lambda r: _cjk_faces(),
               (str(CJK_FONTS[0]), "@pil"), revision=1, fonts=CJK_FONTS),
        Source("plain_backs", "procedural (this module)", "project licence", _plain_backs, ()),
        Source("bonus_mix", "procedural (datasets/bonus_faces.py): corner writing in CJK and"
               " Latin fonts over random plants or pictures of the other training artworks",
               "as the fonts and artworks it draws on", _bonus_mix,
               (str(CJK_FONTS[0]), "@pil", str(_KDE_DIR / "classic.svgz"), "@rsvg"), revision=8,
               fonts=CJK_FONTS + LATIN_FONTS),
    )
}
"""Every known artwork, by name. Skipped on purpose: KMahjongg ``alphabet`` and
``egypt`` and GNOME ``edu_kang_xi`` (their faces are not mahjong symbols)."""


def _has(need: str, root: Path) -> bool:
    if need == "@rsvg":
        return shutil.which("rsvg-convert") is not None
    if need == "@pil":
        try:
            import PIL  # noqa: F401
        except ImportError:
            return False
        return True
    return Path(need.format(root=root)).exists()


def available_sources(root: str | os.PathLike[str] | None = None) -> list[str]:
    """Names of the sources whose files (and renderer) are present on this machine."""
    r = datasets_root(root)
    return [name for name, s in SOURCES.items() if all(_has(n, r) for n in s.needs)]


def missing_for_training(root: str | os.PathLike[str] | None = None) -> list[str]:
    """What the documented training data needs and this machine lacks: whole sources
    (their files or renderer) and the fonts that procedural sources write with.

    Why: a source or font that is not installed is simply left out, so the data
    build still runs, but on other crops than the model card's (one machine
    without the packages of ``datasets/SOURCES.md`` read the training-style test
    crops at 96.9 % instead of 98.2 %, with the same model)."""
    r = datasets_root(root)
    have = set(available_sources(root))
    out = [f"source {name} (needs {', '.join(n for n in s.needs if not _has(n, r))})"
           for name, s in SOURCES.items() if name not in have]
    fonts = dict.fromkeys(f for s in SOURCES.values() for f in s.fonts)
    return out + [f"font {f}" for f in fonts if not f.exists()]


def training_sources(root: str | os.PathLike[str] | None = None) -> list[str]:
    """Available sources minus :data:`HELD_OUT_STYLES`: the only ones to train on."""
    return [s for s in available_sources(root) if s not in HELD_OUT_STYLES]


def load_faces(
    source_name: str, root: str | os.PathLike[str] | None = None, *, use_cache: bool = True
) -> FaceSet:
    """Faces of one artwork: ``{tile code: [RGBA uint8 (FACE_H, FACE_W, 4), ...]}``.

    Cached under ``build/artwork/<source>.npz``; pass ``use_cache=False`` to
    re-rasterise. Raises ``KeyError`` for an unknown source and
    ``FileNotFoundError`` when its files are missing.
    """
    faces = _load(source_name, root, use_cache)
    return {c: fs for c, fs in faces.items() if not c.endswith(UNNAMED)}


def load_unnamed(source_name: str, root: str | os.PathLike[str] | None = None) -> FaceSet:
    """The faces of :func:`load_faces`, same codes and order, without the ink
    that names them; only for the codes where that is not all of their ink
    (``{}`` for most sources)."""
    faces = _load(source_name, root, True)
    return {c.removesuffix(UNNAMED): fs for c, fs in faces.items() if c.endswith(UNNAMED)}


def _load(source_name: str, root: str | os.PathLike[str] | None, use_cache: bool) -> FaceSet:
    """Everything a source's loader returns, through the cache."""
    source = SOURCES[source_name]
    r = datasets_root(root)
    missing = [n for n in source.needs if not _has(n, r)]
    if missing:
        raise FileNotFoundError(f"source {source_name!r} needs {missing}")
    revision = f"r{source.revision}" if source.revision else ""
    present = sum(1 << i for i, f in enumerate(source.fonts) if f.exists())
    if present != (1 << len(source.fonts)) - 1:  # faces written with fewer fonts are others
        revision += f"f{present:x}"
    cache = build_dir() / "artwork" / f"{source_name}.v{CACHE_VERSION}{revision}.npz"
    if use_cache and cache.exists():
        with np.load(cache) as z:
            return _grouped({key: z[key] for key in z.files})
    faces = source.loader(r)
    if not use_cache:
        return faces
    cache.parent.mkdir(parents=True, exist_ok=True)
    arrays = {f"{c}__{i:02d}": f for c, fs in faces.items() for i, f in enumerate(fs)}
    # a name of this process's own: two builders started together on a fresh
    # machine both write the cache, and a shared temporary name made one fail
    tmp = cache.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    tmp.replace(cache)
    return _grouped(arrays)


def _grouped(arrays: dict[str, np.ndarray]) -> FaceSet:
    """Cached faces (``<code>__<index>``) by code, in the order of their sorted names.

    That order puts a code's face 100 between faces 10 and 11; every data set
    was drawn in it, so it stays. A source's faces come back in it whether
    the cache was read or just written, so that :func:`load_faces` and
    :func:`load_unnamed` list the same faces in the same order."""
    out: FaceSet = {}
    for key in sorted(arrays):
        out.setdefault(key.rsplit("__", 1)[0], []).append(arrays[key])
    return out
