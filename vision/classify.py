"""Name the tile in each crop with the bundled ONNX classifier.

Why a module of its own: the segmenter (``vision/segment.py``) only cuts tiles
out; naming them is a learned step with its own model file, pre-processing
contract and failure modes (a crop that is not a tile face, a tile upside
down). This module owns that contract so callers never touch onnxruntime.

Input contract: each crop is the rectified face of one tile, portrait (about
3:4), upright or upside down, any size, as a ``uint8`` array ``(H, W, 3)``
in **BGR** order (what OpenCV reads and the segmenter returns); pass
``rgb=True`` for RGB arrays. Greyscale ``(H, W)`` and BGRA are accepted too.

Output: one :class:`TileGuess` per crop: the tile code (``scoring/tiles.py``
vocabulary, or ``"none"`` when the crop is not a tile face or the model is
unsure), the confidence, the top-3 alternatives and the orientation (0 or 180
degrees: rotate the crop by this to make it upright; always 0 for tiles that
look the same both ways, see :data:`TURNABLE`).

Model location: ``vision/models/tile-classifier.onnx`` inside the installed
package (package data); in a source checkout the same file lives at
``models/tile-classifier.onnx`` at the repository root and ``vision/models``
is a link to it (see ``models/MODEL_CARD.md``). ``MJLENS_MODEL`` overrides
both with a path to another ``.onnx`` file (its ``labels.txt`` beside it).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path

import cv2
import numpy as np

MODEL_FILE = "tile-classifier.onnx"
LABELS_FILE = "labels.txt"
INPUT_H, INPUT_W = 80, 60
"""Network input size (portrait 3:4); crops are resized to it."""
NONE = "none"
"""Label of a crop that is not a tile face."""
TURNABLE: frozenset[str] = frozenset(
    {*(f"{n}m" for n in range(1, 10)), "1z", "2z", "3z", "4z", "6z",
     *(f"{n}f" for n in range(1, 5)), *(f"{n}g" for n in range(1, 5)),
     "1s", "3s", "7s", "6p", "7p"}
)
"""Tiles that look different upside down in (nearly) every set. Others (2p, 5z,
back, 中 ...) look the same both ways, so their orientation is reported as 0."""
MIN_CONFIDENCE = 0.5
"""Below this confidence a crop is reported as ``none``: a wrong tile costs the
user more (a wrong score) than an explicit "unreadable tile" that they fix."""


@dataclass(frozen=True, slots=True)
class Alternative:
    """One candidate label and its probability."""

    code: str
    probability: float


@dataclass(frozen=True, slots=True)
class TileGuess:
    """What the classifier says about one crop.

    ``code`` is ``"none"`` when the crop is not a tile face or when the best
    label's probability is below :data:`MIN_CONFIDENCE`; ``top3`` always lists
    the model's three best labels so a UI can offer them. ``orientation`` is 0
    (upright) or 180 (upside down)."""

    code: str
    confidence: float
    top3: tuple[Alternative, ...]
    orientation: int

    @property
    def is_tile(self) -> bool:
        return self.code != NONE


def _model_dir() -> Path:
    """Where the model is: ``$MJLENS_MODEL``'s folder, package data, or the checkout."""
    env = os.environ.get("MJLENS_MODEL")
    if env:
        return Path(env).parent
    packaged = resources.files("vision") / "models" / MODEL_FILE
    if packaged.is_file():
        return Path(str(packaged)).parent
    return Path(__file__).resolve().parents[1] / "models"


class TileClassifier:
    """An onnxruntime session over the tile model plus its label list.

    Creating one costs ~0.1 s (session start); reuse it, or use
    :func:`classify`, which keeps one per process."""

    def __init__(self, model_path: str | os.PathLike[str] | None = None) -> None:
        import onnxruntime as ort  # type: ignore[import-untyped]  # lazy: keeps CLI start fast

        path = Path(model_path) if model_path else _model_dir() / MODEL_FILE
        if os.environ.get("MJLENS_MODEL") and model_path is None:
            path = Path(os.environ["MJLENS_MODEL"])
        if not path.is_file():
            raise FileNotFoundError(f"tile classifier model not found: {path}")
        self.labels: tuple[str, ...] = tuple(
            (path.parent / LABELS_FILE).read_text(encoding="utf-8").split()
        )
        opts = ort.SessionOptions()
        # One thread: a hand is ~14 small crops, too little work to split, and on a
        # busy 2-core server two threads wait on each other (measured 2x slower).
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(
            str(path), sess_options=opts, providers=["CPUExecutionProvider"]
        )
        n_out = self.session.get_outputs()[0].shape[-1]
        if n_out != len(self.labels):
            raise ValueError(f"model has {n_out} outputs but {LABELS_FILE} has {len(self.labels)}")

    def preprocess(self, crops: Sequence[np.ndarray], *, rgb: bool = False) -> np.ndarray:
        """Crops -> float32 (N, 3, 80, 60) RGB in [0, 255] (normalised inside the model)."""
        batch = np.empty((len(crops), 3, INPUT_H, INPUT_W), np.float32)
        for i, crop in enumerate(crops):
            img = np.asarray(crop)
            if img.dtype != np.uint8:
                raise TypeError(f"crop {i}: expected uint8, got {img.dtype}")
            if img.ndim == 2:
                img = cv2.cvtColor(img, cv2.COLOR_GRAY2RGB)
            elif img.ndim == 3 and img.shape[2] == 4:
                img = cv2.cvtColor(img, cv2.COLOR_RGBA2RGB if rgb else cv2.COLOR_BGRA2RGB)
            elif img.ndim == 3 and img.shape[2] == 3:
                img = img if rgb else cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
            else:
                raise ValueError(f"crop {i}: expected (H, W, 3) image, got shape {img.shape}")
            if img.shape[0] < 2 or img.shape[1] < 2:
                raise ValueError(f"crop {i}: too small ({img.shape[1]}x{img.shape[0]})")
            img = cv2.resize(img, (INPUT_W, INPUT_H), interpolation=cv2.INTER_AREA)
            batch[i] = img.transpose(2, 0, 1)
        return batch

    def logits(self, crops: Sequence[np.ndarray], *, rgb: bool = False
               ) -> tuple[np.ndarray, np.ndarray]:
        """Raw model outputs (label logits (N, L), orientation logits (N, 2))."""
        if len(crops) == 0:
            return np.zeros((0, len(self.labels)), np.float32), np.zeros((0, 2), np.float32)
        out = self.session.run(None, {"image": self.preprocess(crops, rgb=rgb)})
        return np.asarray(out[0]), np.asarray(out[1])

    def probabilities(self, crops: Sequence[np.ndarray], *, rgb: bool = False
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Label probabilities (N, L) and the probability that each crop is upside down (N,).

        Each crop is read twice, as cut and turned 180 degrees, and the two readings
        are averaged (the second one's orientation reversed): a tile's label does
        not change when it is turned, and on the held-out tests the two views
        together made about a third fewer confident errors than one, for twice
        the (small) compute; see ``models/MODEL_CARD.md``."""
        if len(crops) == 0:
            return np.zeros((0, len(self.labels)), np.float32), np.zeros(0, np.float32)
        batch = self.preprocess(crops, rgb=rgb)
        both = np.concatenate([batch, batch[:, :, ::-1, ::-1]])
        logits, orient = (np.asarray(o) for o in self.session.run(None, {"image": both}))
        n = len(batch)
        probs, up = _softmax(logits), _softmax(orient)[:, 1]
        return (probs[:n] + probs[n:]) / 2, (up[:n] + 1 - up[n:]) / 2

    def classify(self, crops: Sequence[np.ndarray], *, rgb: bool = False) -> list[TileGuess]:
        """Name each crop; see the module docstring for the input contract."""
        probs, p_up = self.probabilities(crops, rgb=rgb)
        guesses = []
        for p, up in zip(probs, p_up, strict=True):
            g = guess(self.labels, p, 0)
            if up > 0.5 and g.top3[0].code in TURNABLE:  # others look the same turned
                g = replace(g, orientation=180)
            guesses.append(g)
        return guesses


def guess(labels: Sequence[str], probs: np.ndarray, orientation: int) -> TileGuess:
    """One crop's answer from its label probabilities: the best three labels, and
    ``none`` when the best is below :data:`MIN_CONFIDENCE`."""
    top3 = tuple(Alternative(labels[j], float(probs[j])) for j in np.argsort(-probs)[:3])
    best = top3[0]
    code = best.code if best.probability >= MIN_CONFIDENCE else NONE
    return TileGuess(code, best.probability, top3, orientation)


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: np.ndarray = e / e.sum(axis=1, keepdims=True)
    return out


_default: TileClassifier | None = None
_lock = threading.Lock()


def default_classifier() -> TileClassifier:
    """The process-wide classifier over the bundled model (created on first use)."""
    global _default
    with _lock:
        if _default is None:
            _default = TileClassifier()
        return _default


def classify(crops: Sequence[np.ndarray], *, rgb: bool = False) -> list[TileGuess]:
    """Name each crop (BGR unless ``rgb=True``) with the bundled model."""
    return default_classifier().classify(crops, rgb=rgb)
