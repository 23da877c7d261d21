"""A tile's back is never the colour of its faces.

Why: a mahjong tile is two layers, the face's (white, ivory, yellowish) and the
back's (green, blue, orange, dark grey...), so a plain tile of the faces' own
colour is a blank face (the white dragon of a Japanese set), not a face-down
tile, however plain it is. Both the segmenter (a plain tile beside a run) and
the classifier (whose input is normalised for brightness, so a blank face and a
plain back look alike to it) are told so here, in Lab colours (OpenCV's 8-bit
scale: L, a, b in 0..255).
"""

from __future__ import annotations

import cv2
import numpy as np

BLANK_HUE = 12.0
"""A plain tile within this distance in hue (Lab a, b) of the faces is a blank face:
the generated scenes' backs are 38 or more away (their dark grey back 8, but a third
as light as the faces), a blank white dragon in shadow beside its run 2."""
BLANK_LIGHTNESS = 0.6
"""... when it is at least this share of the faces' lightness (Lab L): the shadowed
blank dragon had 0.8, the dark grey back 0.3."""


def has_faces_colour(colour: np.ndarray, faces: np.ndarray | None) -> bool:
    """Whether a plain tile's colour (Lab) is the faces' (Lab): their hue, and not much
    darker (in a shadow beside them). ``faces`` None (unknown): no."""
    if faces is None:
        return False
    return bool(of_faces_colour(np.asarray(colour)[None], faces)[0])


def of_faces_colour(pixels: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """:func:`has_faces_colour` for each of ``pixels`` (N, 3 Lab): the segmenter also
    looks for the tiles' pale layer, the faces' colour shaded, along a tile's side."""
    hue = np.hypot(pixels[:, 1] - faces[1], pixels[:, 2] - faces[2])
    out: np.ndarray = (hue < BLANK_HUE) & (pixels[:, 0] >= BLANK_LIGHTNESS * faces[0])
    return out


def crop_colour(crop: np.ndarray) -> np.ndarray:
    """The colour (Lab) of a rectified face's ground: the median of the lighter half of
    its middle, so that ink, and the rim at the crop's edges, do not count."""
    h, w = crop.shape[:2]
    middle = np.ascontiguousarray(crop[h // 5: h - h // 5, w // 5: w - w // 5])
    lab = cv2.cvtColor(middle, cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
    light = lab[lab[:, 0] >= np.median(lab[:, 0])]
    out: np.ndarray = np.median(light, axis=0)
    return out
