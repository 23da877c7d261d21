"""Procedural flower and season faces: any picture, named by its corner writing.

Why: every physical set draws its own pictures on the eight bonus tiles (a
plum branch, a potted plant, a bird, a tree, a butterfly...), so a classifier
that learns the pictures of the sets it was trained on names the bonus tiles
of a new set by chance; what sets share is the *writing*: the character
梅蘭菊竹 / 春夏秋冬 in a corner, usually with the number 1-4 (Arabic or
Chinese), sometimes an English word. These faces put that writing, in many
fonts, sizes, colours and places, over random plants or pictures taken from
the other artworks (a flower's often its own, a season's seldom), so that
the writing, not a memorised drawing, tells the label.

A number alone does not tell flower 1 from season 1; the faces with no
character or English word are flowers (see :data:`LAYOUTS`), and every
season carries its character or word. Held-out styles
(:data:`datasets.artwork.HELD_OUT_STYLES`) are never used as pictures.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

from datasets import artwork
from datasets.artwork import FLOWER_CHARS, LATIN_FONTS, NUMERALS, SEASON_CHARS
from datasets.artwork import draw_centred_text as _text

ENGLISH = {
    "f": ("PLUM", "ORCHID", "MUM", "BAMBOO"),
    "g": ("SPRING", "SUMMER", "AUTUMN", "WINTER"),
}

PICTURE_BANDS: dict[str, dict[str, tuple[float, float]]] = {
    "kde_classic": {"f": (0.2, 1.0), "g": (0.0, 1.0), "1s": (0.12, 1.0)},
    "kde_traditional": {"f": (0.0, 0.72), "g": (0.0, 0.72), "1s": (0.2, 1.0)},
    "shizhao_color": {"f": (0.36, 1.0), "g": (0.36, 1.0), "1s": (0.0, 1.0)},
    "shizhao_mono": {"f": (0.36, 1.0), "g": (0.36, 1.0), "1s": (0.0, 1.0)},
    "font_noto": {"f": (0.36, 0.97), "g": (0.36, 0.97), "1s": (0.0, 1.0)},
    "font_symbola": {"f": (0.36, 0.97), "g": (0.36, 0.97), "1s": (0.0, 1.0)},
    "fluffystuff_regular": {"1s": (0.0, 1.0)},
}
"""Where each artwork's pictures are free of writing (fractions of the face
height, per kind: flowers, seasons, the bird of 1 bamboo)."""

INKS: tuple[tuple[int, int, int], ...] = (
    (200, 25, 30), (170, 20, 40), (30, 50, 160), (40, 70, 190), (20, 20, 20), (25, 110, 50),
)
"""Colours of the writing (RGB): mostly red, blue, black, some green."""

TOP_MARGIN = 0.07
SIDE_MARGIN = (0.08, 0.12)
"""Room between the writing and the face's edge (fractions of its height, width).

Sets print the corner writing inside a margin, and the segmenter's crops are
up to ~8 % tight or shifted: writing drawn at the very edge was cut away in
the crops, leaving a face that no one could name (label noise, measured as
errors on the test renders)."""

SCALE = 2
"""Faces are drawn at twice the face size, then reduced (smooth strokes)."""

PLANT_P = {"f": 0.15, "g": 0.35}
"""Share of flowers and of seasons drawn over a random plant
(``artwork.draw_plant``) rather than a picture cut from a training artwork."""
OWN_PICTURE_P = {"f": 0.6, "g": 0.1}
"""Of the others, the share whose picture is the same tile's own (from a
training artwork). A flower's picture means something: sets draw the plum,
orchid, chrysanthemum and bamboo that name it. A season's is whatever the set
chose. With half of the seasons over their own picture (the earlier recipe),
the bonus reader learnt the training sets' drawings and read an unseen set's
seasons as not bonus tiles at all, its ``1 春`` included."""

NAMELESS_OWN_P = 0.3
"""Share of the flowers with a number alone drawn over their own picture; the
others show another flower's or season's picture or a random plant. Why so
few: an unseen set draws its own plum, and over the training sets' own
pictures (two in three of these faces before the fourteenth session) the
reader learnt the pictures, not the number: an unseen plum with a "1" was
"not a bonus tile" to it, while a training set's plum with the same "1" was
read right (0.85-0.96; ``models/HISTORY.md``, runs 28-31)."""

LAYOUTS: dict[str, dict[str, float]] = {
    "f": {"corners": 0.26, "char_only": 0.12, "stacked": 0.12, "english": 0.1,
          "number_only": 0.4},
    "g": {"corners": 0.4, "char_only": 0.25, "stacked": 0.2, "english": 0.15},
}
"""How often each writing layout is drawn, for flowers and for seasons. Only
flowers are drawn with a number alone (:data:`NAMELESS_OWN_P` of them over
their own flower, the rest over other pictures): some sets write no name on their flowers and
write it on their seasons (KMahjongg's default set, held out, does so; we saw
it there), so a bonus tile with a number and no name is taken for a flower.
Seasons always carry their character or English word. The number alone was
22 % of the flowers until the fourteenth session: against 1 bamboo's bird
with a corner "1" (:func:`datasets.tile_dataset.corner_index`, KMahjongg's
classic set), a lone "1" meant "not a bonus tile" to the reader, and the
unseen set's plum was read as anything but a flower."""


Pictures = dict[str, list[tuple[str, np.ndarray]]]


def _pictures(root: Path | None) -> Pictures:
    """Writing-free pictures by kind (``f``, ``g``, ``1s``): (tile code, RGBA cut to its ink)."""
    pics: Pictures = {"f": [], "g": [], "1s": []}
    for name in PICTURE_BANDS:
        if name in artwork.HELD_OUT_STYLES or name not in artwork.available_sources(root):
            continue
        faces = artwork.load_faces(name, root)
        for code, fs in faces.items():
            kind = "1s" if code == "1s" else code[-1]
            band = PICTURE_BANDS[name].get(kind)
            if band is None or kind not in pics or (kind != "1s" and not code[0].isdigit()):
                continue
            for face in fs:
                part = face[int(band[0] * artwork.FACE_H) : int(band[1] * artwork.FACE_H)]
                if (part[..., 3] > 10).sum() >= 50:
                    pics[kind].append((code, _cut_to_ink(part)))
    return pics


def _cut_to_ink(rgba: np.ndarray) -> np.ndarray:
    """The part of a picture that has ink (the caller knows it has some)."""
    box = artwork.ink_box(rgba)
    assert box is not None
    x0, y0, x1, y1 = box
    return rgba[y0:y1, x0:x1]


def _paste_picture(canvas: Image.Image, pic: np.ndarray, top: float, bottom: float,
                   rng: np.random.Generator) -> None:
    """Fit a picture between the writing bands (fractions of the height), off centre."""
    w, h = canvas.size
    box_w, box_h = w * rng.uniform(0.6, 0.92), h * (bottom - top) * rng.uniform(0.8, 1.0)
    s = min(box_w / pic.shape[1], box_h / pic.shape[0])
    im = Image.fromarray(pic, "RGBA").resize(
        (max(1, int(pic.shape[1] * s)), max(1, int(pic.shape[0] * s))),
        Image.Resampling.LANCZOS)
    x = int((w - im.width) / 2 + rng.normal(0, w * 0.03))
    y = int(h * bottom - im.height - rng.uniform(0, h * 0.03))
    canvas.alpha_composite(im, (min(max(0, x), w - im.width), max(int(h * top), y)))


def _corner_x(w: float, margin: float, size: float, left: bool) -> float:
    """Centre of a mark of ``size`` in the left or right top corner."""
    return margin + size / 2 if left else w - margin - size / 2


def _ink(rng: np.random.Generator) -> tuple[int, int, int, int]:
    c = INKS[rng.integers(len(INKS))]
    return (*(int(np.clip(v + rng.normal(0, 12), 0, 255)) for v in c), 255)  # type: ignore[return-value]


def bonus_face(code: str, pictures: Pictures,
               cjk_fonts: list[Path], latin_fonts: list[Path],
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One flower (``1f``..``4f``) or season (``1g``..``4g``) face, RGBA (FACE_H, FACE_W),
    and the same face without its writing (the picture alone, which names nothing)."""
    n, kind = int(code[0]), code[1]
    w, h = artwork.FACE_W * SCALE, artwork.FACE_H * SCALE
    canvas = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(canvas)
    char = (FLOWER_CHARS if kind == "f" else SEASON_CHARS)[n - 1]
    cjk = cjk_fonts[rng.integers(len(cjk_fonts))]
    latin = latin_fonts[rng.integers(len(latin_fonts))]
    number = str(n) if rng.random() < 0.7 else NUMERALS[n - 1]
    num_font = latin if number.isdigit() else cjk
    names, weights = zip(*LAYOUTS[kind].items(), strict=True)
    layout = names[rng.choice(len(names), p=np.array(weights) / sum(weights))]
    char_size = h * rng.uniform(0.13, 0.24)
    num_size = h * rng.uniform(0.12, 0.2)
    margin = w * rng.uniform(*SIDE_MARGIN)
    left = rng.random() < 0.5
    top = 0.1
    if layout == "corners":  # number in one top corner, character in the other (or centre)
        cy = h * TOP_MARGIN + char_size / 2
        _text(d, num_font, number, _corner_x(w, margin, num_size, left),
              h * TOP_MARGIN + num_size / 2, num_size, _ink(rng))
        cx = _corner_x(w, margin, char_size, not left)
        if rng.random() < 0.3:
            cx = w / 2
        _text(d, cjk, char, cx, cy, char_size, _ink(rng))
        top = TOP_MARGIN + 0.02 + max(char_size, num_size) / h
    elif layout == "char_only":  # one character in a top corner
        _text(d, cjk, char, _corner_x(w, margin, char_size, left),
              h * TOP_MARGIN + char_size / 2, char_size, _ink(rng))
        top = TOP_MARGIN + 0.02 + char_size / h * 0.6  # the picture may reach beside it
    elif layout == "stacked":  # number over character down one side
        x = _corner_x(w, margin, char_size, left)
        _, nh = _text(d, num_font, number, x, h * TOP_MARGIN + num_size / 2, num_size, _ink(rng))
        _text(d, cjk, char, x, h * (TOP_MARGIN + 0.02) + nh + char_size / 2, char_size, _ink(rng))
        top = TOP_MARGIN + 0.08
    elif layout == "number_only":  # a flower with its number and no name
        _text(d, num_font, number, _corner_x(w, margin, num_size, left),
              h * TOP_MARGIN + num_size / 2, num_size, _ink(rng))
        top = TOP_MARGIN + 0.02 + num_size / h * 0.6
    else:  # an English word at the bottom, a number or the character at the top
        word = ENGLISH[kind][n - 1]
        size = min(h * 0.12, w * 0.9 / (0.62 * len(word)))
        _text(d, latin, word, w / 2, h * (1 - TOP_MARGIN) - size / 2, size, _ink(rng))
        mark, font = (number, num_font) if rng.random() < 0.5 else (char, cjk)
        _text(d, font, mark, _corner_x(w, margin, num_size, left),
              h * TOP_MARGIN + num_size / 2, num_size, _ink(rng))
        top = TOP_MARGIN + 0.04 + num_size / h
    under = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    bottom = 0.84 if layout == "english" else 1 - TOP_MARGIN  # the word stays readable
    if layout == "number_only":  # the number must tell: seldom the flower's own picture
        own = rng.random() < NAMELESS_OWN_P
        pic = _picture(code, pictures, rng, own=own, bird=False, others=not own)
    else:
        pic = _picture(code, pictures, rng)
    _paste_picture(under, pic, top, bottom, rng)
    bare = under.copy()
    under.alpha_composite(canvas)
    face_size = (artwork.FACE_W, artwork.FACE_H)
    return (np.asarray(under.resize(face_size, Image.Resampling.LANCZOS)).copy(),
            np.asarray(bare.resize(face_size, Image.Resampling.LANCZOS)).copy())


def _picture(code: str, pictures: Pictures, rng: np.random.Generator, *,
             own: bool = False, bird: bool = True, others: bool = False) -> np.ndarray:
    """The picture under a face's writing: a random plant (:data:`PLANT_P`), the
    same tile's picture from a training artwork (:data:`OWN_PICTURE_P`, always
    when ``own``, never when ``others``), or any other bonus picture or (if
    ``bird``) 1 bamboo's bird.

    A flower with a number alone is never drawn over the bird: the bird with a
    corner "1" is how some sets draw 1 bamboo, a tile the reader must reject."""
    kind = code[1]
    if not own and rng.random() < PLANT_P[kind]:
        im = Image.new("RGBA", (artwork.FACE_W * SCALE, artwork.FACE_H * SCALE), (0, 0, 0, 0))
        artwork.draw_plant(ImageDraw.Draw(im), im.width, im.height, rng)
        return _cut_to_ink(np.asarray(im))
    other = "1s" if bird and rng.random() < 0.5 else ("g" if kind == "f" else "f")
    pool = pictures[kind if own or rng.random() < 0.75 else other] or pictures[kind]
    same = [p for c, p in pool if c == code]
    if same and (own or (not others and rng.random() < OWN_PICTURE_P[kind])):
        return same[rng.integers(len(same))]
    if others:
        pool = [(c, p) for c, p in pool if c != code] or pool
    return pool[rng.integers(len(pool))][1]


def bonus_faces(root: Path | None = None, per_code: int = 240, seed: int = 17, *,
                unnamed: bool = False) -> artwork.FaceSet:
    """``per_code`` faces for each of the eight bonus tiles (see the module docstring);
    with ``unnamed``, also each face without its writing (:data:`artwork.UNNAMED`)."""
    rng = np.random.default_rng(seed)
    pictures = _pictures(root)
    cjk = [f for f in artwork.CJK_FONTS if f.exists()]
    latin = [f for f in LATIN_FONTS if f.exists()]
    if not cjk or not latin or not pictures["f"] or not pictures["g"]:
        raise FileNotFoundError("bonus faces need CJK and Latin fonts and pictures of"
                                f" {sorted(PICTURE_BANDS)}")
    faces: artwork.FaceSet = {}
    for code in (f"{n}{k}" for k in "fg" for n in range(1, 5)):
        pairs = [bonus_face(code, pictures, cjk, latin, rng) for _ in range(per_code)]
        faces[code] = [face for face, _ in pairs]
        if unnamed:
            faces[code + artwork.UNNAMED] = [bare for _, bare in pairs]
    return faces
