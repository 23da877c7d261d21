"""Scoring found tiles against ground truth: outline overlap and one-to-one matching.

Why here: tests and the benchmark must count a tile as found by the same rule
(the issue's: outline IoU >= 0.5, each true tile matched at most once).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

IOU_THRESHOLD = 0.5


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quadrilaterals (Nx2 points)."""
    pa = cv2.convexHull(np.asarray(a, np.float32))
    pb = cv2.convexHull(np.asarray(b, np.float32))
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - inter
    return float(inter / union) if union > 0 else 0.0


def box_polygon(box: Sequence[float]) -> np.ndarray:
    """An ``[x, y, w, h]`` box as a quadrilateral."""
    x, y, w, h = box
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)


@dataclass(frozen=True)
class Matching:
    """Which found outline matches which true one."""

    pairs: tuple[tuple[int, int], ...]  # (found index, truth index)
    n_found: int
    n_truth: int

    @property
    def recall(self) -> float:
        return len(self.pairs) / self.n_truth if self.n_truth else 1.0

    @property
    def precision(self) -> float:
        return len(self.pairs) / self.n_found if self.n_found else 1.0

    @property
    def missed(self) -> int:
        """True outlines that nothing found matches."""
        return self.n_truth - len(self.pairs)

    @property
    def extra(self) -> int:
        """Found outlines that match no true one."""
        return self.n_found - len(self.pairs)


def match_outlines(found: Sequence[np.ndarray], truth: Sequence[np.ndarray],
                   threshold: float = IOU_THRESHOLD) -> Matching:
    """Greedy one-to-one matching by decreasing IoU, keeping pairs at or above ``threshold``."""
    cand: list[tuple[float, int, int]] = []
    tc = [np.asarray(t, np.float64).mean(0) for t in truth]
    tr = [np.ptp(np.asarray(t, np.float64), 0).max() for t in truth]
    for i, f in enumerate(found):
        fc = np.asarray(f, np.float64).mean(0)
        for j, t in enumerate(truth):
            if np.linalg.norm(fc - tc[j]) > tr[j]:
                continue
            iou = polygon_iou(f, t)
            if iou >= threshold:
                cand.append((iou, i, j))
    used_f: set[int] = set()
    used_t: set[int] = set()
    pairs = []
    for _, i, j in sorted(cand, reverse=True):
        if i not in used_f and j not in used_t:
            used_f.add(i)
            used_t.add(j)
            pairs.append((i, j))
    return Matching(tuple(sorted(pairs)), len(found), len(truth))
