"""Cut each tile's face out of the photo as an upright-or-upside-down portrait crop.

Why a perspective warp rather than a bounding box: tiles photographed at an
angle are trapezoids, and their neighbours' faces would fill a box's corners.
The quad found on the small working copy is mapped onto the best-resolution
image we have, so the classifier sees the detail the segmentation threw away.
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_W, CROP_H = 96, 128
"""Crop size (portrait 3:4): the bonus reader's input (``vision.classify``), so that
a flower's corner writing keeps the pixels the photo had; the tile classifier
shrinks the crop to its own 80x60."""


def order_corners(quad: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The quad's corners as TL, TR, BR, BL for a reader whose "right" is ``right``.

    ``right`` is a unit vector in image pixels; "down" is ``right`` turned a
    quarter clockwise (the image's y axis points down).
    """
    down = np.array([-right[1], right[0]])
    u = quad @ right
    v = quad @ down
    tl, br = int(np.argmin(u + v)), int(np.argmax(u + v))
    tr, bl = int(np.argmax(u - v)), int(np.argmin(u - v))
    if len({tl, tr, br, bl}) < 4:  # a degenerate (45°) case: fall back to angles
        c = quad.mean(axis=0)
        ang = np.arctan2((quad - c) @ down, (quad - c) @ right)
        order = np.argsort(ang)  # -pi..pi: TL (-3pi/4), TR (-pi/4), BR, BL
        return np.asarray(quad[order], np.float64)
    return np.asarray(quad[[tl, tr, br, bl]], np.float64)


def side_lengths(corners: np.ndarray) -> tuple[float, float]:
    """A quad's width and height (TL, TR, BR, BL): the means of its opposite sides,
    so that a face seen at an angle measures as the face, not as its bounding box."""
    width, height = sides(corners)
    return float(width), float(height)


def sides(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`side_lengths` of many quads at once (corners (..., 4, 2)): a photo's
    faces measured as arrays, for the loops that compare every face with every other."""
    c = np.asarray(corners, np.float64)

    def side(a: int, b: int) -> np.ndarray:
        out: np.ndarray = np.linalg.norm(c[..., b, :] - c[..., a, :], axis=-1)
        return out

    return (side(0, 1) + side(3, 2)) / 2, (side(0, 3) + side(1, 2)) / 2


def crop_tile(image: np.ndarray, corners: np.ndarray, *, sideways: bool = False,
              size: tuple[int, int] = (CROP_W, CROP_H)) -> np.ndarray:
    """Warp the face with corners TL, TR, BR, BL (in ``image`` pixels) to a portrait crop.

    A sideways face (landscape) is turned a quarter so that the crop is
    portrait; which way does not matter, the classifier reads tiles upside down.
    """
    w, h = size
    src = np.asarray(corners, np.float32)
    if sideways:
        src = src[[1, 2, 3, 0]]  # TR becomes the crop's top-left: a quarter turn
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    out: np.ndarray = cv2.warpPerspective(image, m, (w, h), flags=cv2.INTER_AREA,
                                          borderMode=cv2.BORDER_REPLICATE)
    return out
