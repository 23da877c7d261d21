"""Read found tiles the way the player laid them: rows, blocks, left to right.

Why geometry alone is enough: a hand is laid along one direction (the rows),
blocks within a row are set apart by gaps wider than the seams between
touching tiles, and a photo taken from across the table is the same layout
turned 180°, which the classifier sees as tiles upside down.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.face_mask import FACE_ASPECT

GAP_FACTOR = 0.22
"""A gap wider than this share of a tile's width separates two blocks."""
ROW_FACTOR = 0.6
"""Tiles whose centres differ by more than this share of a tile's height across the
rows' direction are in different rows."""


@dataclass(frozen=True)
class Placed:
    """Where one tile sits in the player's reading of the hand."""

    tile: int  # index into the input list
    row: int
    block: int  # numbered across the whole hand, in reading order


@dataclass(frozen=True)
class Layout:
    """The reading order and grouping of all tiles."""

    order: tuple[Placed, ...]  # tiles in reading order
    right: np.ndarray  # the player's "right" in image pixels (unit vector)
    flipped: bool  # the photo was taken from across the table


def reading_direction(quads: Sequence[np.ndarray], runs: Sequence[int] | None = None
                      ) -> np.ndarray:
    """The rows' direction in the image, pointing right (or down for vertical rows).

    Each quad is TL, TR, BR, BL in its row's frame, so TL->TR runs along the row.
    Directions are averaged as doubled angles, since a row can be listed either way.

    ``runs`` (the run of touching faces each quad was cut from) weighs the votes: a
    run of two faces or more was cut along its length, but a face alone has only its
    own outline to say which way its row runs, and a square one says nothing. A face
    alone votes by how far from square it is, fully from a tile's upright face
    (:data:`vision.face_mask.FACE_ASPECT`) on: a checked cloth's squares, cut as a
    hundred lone faces either way round, outvoted a hand's row of thirteen, and
    every tile was read turned a quarter (real-69 69080: character tiles read as
    flowers).
    """
    if not quads:
        return np.array([1.0, 0.0])
    along = np.array([q[1] - q[0] + q[2] - q[3] for q in quads], np.float64)
    length = np.linalg.norm(along, axis=1)
    weight = np.ones(len(quads))
    if runs is not None:
        size = Counter(runs)
        across = np.array([np.linalg.norm(q[3] - q[0] + q[2] - q[1]) for q in quads])
        unsquare = np.abs(np.log(np.maximum(length, 1e-9) / np.maximum(across, 1e-9)))
        weight = np.where([size[r] >= 2 for r in runs], 1.0,
                          np.minimum(unsquare / abs(np.log(FACE_ASPECT)), 1.0))
    use = length >= 1e-9
    if not use.any():
        return np.array([1.0, 0.0])
    if not (weight[use] > 0).any():
        weight = np.ones(len(quads))
    ang = np.arctan2(along[use, 1], along[use, 0])
    w = weight[use]
    mean2 = np.arctan2((w * np.sin(2 * ang)).sum(), (w * np.cos(2 * ang)).sum()) / 2
    d = np.array([np.cos(mean2), np.sin(mean2)])
    if d[0] < -1e-6 or (abs(d[0]) <= 1e-6 and d[1] < 0):
        d = -d
    return d


def is_flipped(orientations: Sequence[int], weights: Sequence[float]) -> bool:
    """Most (confidence-weighted) tiles read upside down: the photo is turned 180°."""
    up = sum(w for o, w in zip(orientations, weights, strict=True) if o == 0)
    down = sum(w for o, w in zip(orientations, weights, strict=True) if o == 180)
    return down > up


def lay_out(quads: Sequence[np.ndarray], *, flipped: bool,
            right: np.ndarray | None = None, runs: Sequence[int] | None = None) -> Layout:
    """Rows (top to bottom for the player), then tiles left to right, blocks at gaps.

    ``runs`` (optional) numbers the run of touching faces each tile was found in
    (:attr:`vision.segment.TileQuad.blob`): a new run always starts a new block,
    however narrow the gap looked."""
    if not quads:
        return Layout((), np.array([1.0, 0.0]), flipped)
    d = reading_direction(quads) if right is None else right
    if flipped:
        d = -d
    down = np.array([-d[1], d[0]])
    centres = np.array([q.mean(axis=0) for q in quads])
    u = centres @ d
    v = centres @ down
    sizes_u = np.array([np.ptp(q @ d) for q in quads])
    sizes_v = np.array([np.ptp(q @ down) for q in quads])
    tile_h = float(np.median(np.maximum(sizes_u, sizes_v)))
    tile_w = float(np.median(np.minimum(sizes_u, sizes_v)))
    by_v = np.argsort(v)
    rows: list[list[int]] = [[int(by_v[0])]]
    for i in by_v[1:]:
        prev_v = float(np.mean([v[j] for j in rows[-1]]))
        if v[i] - prev_v > ROW_FACTOR * tile_h:
            rows.append([int(i)])
        else:
            rows[-1].append(int(i))
    order: list[Placed] = []
    block = -1
    for r, members in enumerate(rows):
        members.sort(key=lambda j: u[j])
        prev_end: float | None = None
        prev_run: int | None = None
        for j in members:
            start, end = u[j] - sizes_u[j] / 2, u[j] + sizes_u[j] / 2
            run = None if runs is None else runs[j]
            if prev_end is None or start - prev_end > GAP_FACTOR * tile_w or run != prev_run:
                block += 1
            order.append(Placed(j, r, block))
            prev_end, prev_run = end, run
    return Layout(tuple(order), d, flipped)
