"""Latency of the tile classifier: per-crop time for batches of 14 and 100 crops.

Why: a hand is 14-18 tiles; the whole photo-to-score round trip must feel
instant, so classifying a hand should take well under 15 ms on a laptop CPU.

Reproduce (from the repository root)::

    python3 bench/bench_classifier.py            # --repeats 50 --model OTHER.onnx

Times ``TileClassifier.classify`` end to end (resize + onnxruntime over both
views of each crop, see ``TileClassifier.probabilities`` + softmax) on random
240x320 BGR crops and prints the median over the repeats, per batch and per
crop. Random crops seldom look like flowers, so the second stage (the bonus
reader, which reads again only the crops that may be flowers or seasons) is
timed on its own for 1, 4 and 8 crops, and so is the reading of what is
written (flowers' names, characters' numbers) on crops still in doubt: a
hand's time is the first line plus the lines for its doubtful tiles. On a
random crop no Chinese name is read, so its name line includes the English
words read after it (``WritingReader.spot_words``): the dearest case. When the real crops are there
(``--real``), a real hand is timed too: ten playing tiles and four flowers and
seasons of set J, so both stages run as they do on a photo.

``--model`` times another export (a float model left in the data folder by
training, say) beside the shipped one, in the same run.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from datasets.tile_dataset import BONUS_NAMES  # noqa: E402  (real-dev's names of bonus tiles)
from vision.classify import MODEL_FILES, TileClassifier, _model_dir  # noqa: E402
from vision.writing import NAME_WRITING, NUMBER_WRITING  # noqa: E402


def median_ms(read: Callable[[list[np.ndarray]], object], crops: list[np.ndarray],
              repeats: int) -> float:
    """Median wall time of ``read(crops)`` in milliseconds, after one warm-up call."""
    read(crops)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        read(crops)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def real_hand(crops_dir: Path, n_bonus: int = 4, n_tiles: int = 14) -> list[np.ndarray]:
    """A hand of set J's real crops with ``n_bonus`` flowers and seasons; [] without them."""
    labels = crops_dir / "labels.csv"
    if not labels.is_file():
        return []
    with open(labels, newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["set"] == "J"]
    bonus = [r for r in rows if r["tile"] in BONUS_NAMES][:n_bonus]
    playing = [r for r in rows if r["tile"] not in BONUS_NAMES][: n_tiles - len(bonus)]
    return [cv2.imread(str(crops_dir / r["file"])) for r in playing + bonus]


def bench(model: Path, repeats: int, hand: list[np.ndarray]) -> None:
    t0 = time.perf_counter()
    clf = TileClassifier(model)
    print(f"{model}\n  model load: {1000 * (time.perf_counter() - t0):.0f} ms")
    rng = np.random.default_rng(0)
    for n in (14, 100):
        crops = [rng.integers(0, 256, (320, 240, 3), dtype=np.uint8) for _ in range(n)]
        med = median_ms(clf.classify, crops, repeats)
        print(f"  batch {n:3d}: {med:6.2f} ms per batch, {med / n:5.3f} ms per crop "
              f"(median of {repeats})")
    reader = clf.bonus_reader
    if reader is None:
        print("  no bonus reader beside the model: one stage only")
        return
    for n in (1, 4, 8):
        crops = [rng.integers(0, 256, (128, 96, 3), dtype=np.uint8) for _ in range(n)]
        med = median_ms(reader.probabilities, crops, repeats)
        print(f"  second stage, {n} crops: {med:6.2f} ms (median of {repeats})")
    writing = clf.writing_reader
    if writing is not None:  # what is written, on crops still in doubt (vision/writing.py)
        for what, kind in (("names", NAME_WRITING), ("numbers", NUMBER_WRITING)):
            for n in (1, 4):
                crops = [rng.integers(0, 256, (128, 96, 3), dtype=np.uint8) for _ in range(n)]
                for up, way in ((0.0, "way up known"), (0.5, "both ways up")):
                    med = median_ms(lambda c, u=up, k=kind: writing.spot(c, [u] * len(c), k),
                                    crops, repeats)
                    print(f"  {what} read, {n} crops, {way}: {med:6.2f} ms "
                          f"(median of {repeats})")
    if hand:
        med = median_ms(clf.classify, hand, repeats)
        bonus = sum(g.code[-1] in "fg" for g in clf.classify(hand))
        print(f"  real hand of {len(hand)} crops, {bonus} read as flowers or seasons: "
              f"{med:6.2f} ms, both stages (median of {repeats})")


def main() -> int:
    p = argparse.ArgumentParser(description="benchmark the tile classifier")
    p.add_argument("--repeats", type=int, default=50)
    p.add_argument("--model", type=Path, action="append", default=[],
                   help="also time this tile model (its bonus reader beside it); repeatable")
    p.add_argument("--real", type=Path,
                   default=ROOT / ".." / "shared" / "datasets" / "real-dev" / "crops")
    a = p.parse_args()
    hand = real_hand(a.real)
    for model in [_model_dir() / MODEL_FILES.model, *a.model]:
        bench(model, a.repeats, hand)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
