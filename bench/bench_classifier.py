"""Latency of the tile classifier: per-crop time for batches of 14 and 100 crops.

Why: a hand is 14-18 tiles; the whole photo-to-score round trip must feel
instant, so classifying a hand should take well under 15 ms on a laptop CPU.

Reproduce (from the repository root)::

    python3 bench/bench_classifier.py            # --repeats 50

Times ``TileClassifier.classify`` end to end (resize + onnxruntime over both
views of each crop, see ``TileClassifier.probabilities`` + softmax) on random
240x320 BGR crops and prints the median over the repeats, per batch and per
crop. Random crops seldom look like flowers, so the second stage (the bonus
reader, which reads again only the crops that may be flowers or seasons) is
timed on its own for 1, 4 and 8 crops: a hand's time is the first line plus
the line for its number of bonus-looking tiles.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.classify import TileClassifier


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


def main() -> int:
    p = argparse.ArgumentParser(description="benchmark the tile classifier")
    p.add_argument("--repeats", type=int, default=50)
    a = p.parse_args()
    t0 = time.perf_counter()
    clf = TileClassifier()
    print(f"model load: {1000 * (time.perf_counter() - t0):.0f} ms")
    rng = np.random.default_rng(0)
    for n in (14, 100):
        crops = [rng.integers(0, 256, (320, 240, 3), dtype=np.uint8) for _ in range(n)]
        med = median_ms(clf.classify, crops, a.repeats)
        print(f"batch {n:3d}: {med:6.2f} ms per batch, {med / n:5.3f} ms per crop "
              f"(median of {a.repeats})")
    reader = clf.bonus_reader
    if reader is None:
        print("no bonus reader beside the model: one stage only")
        return 0
    for n in (1, 4, 8):
        crops = [rng.integers(0, 256, (128, 96, 3), dtype=np.uint8) for _ in range(n)]
        med = median_ms(reader.probabilities, crops, a.repeats)
        print(f"second stage, {n} crops: {med:6.2f} ms (median of {a.repeats})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
