"""A tile's back is never the colour of its faces (vision/backs.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.backs import crop_colour, has_faces_colour, of_faces_colour
from vision.recognize import _no_backs_of_faces_colour


def _lab(rgb: tuple[int, int, int]) -> np.ndarray:
    px = np.array([[rgb]], np.uint8)
    return cv2.cvtColor(px, cv2.COLOR_RGB2LAB).reshape(3).astype(np.float32)


def _face(rgb: tuple[int, int, int], ink: bool = True) -> np.ndarray:
    crop = np.full((128, 96, 3), rgb, np.uint8)
    if ink:
        cv2.circle(crop, (48, 64), 22, (20, 90, 40), -1)
    return crop


IVORY = (240, 232, 210)


def test_a_blank_face_in_shadow_has_the_faces_colour_and_backs_do_not() -> None:
    faces = _lab(IVORY)
    assert has_faces_colour(_lab((190, 184, 166)), faces)  # the same ivory, in shadow
    for back in ((34, 120, 60), (40, 90, 170), (230, 190, 40), (200, 40, 40), (60, 60, 60)):
        assert not has_faces_colour(_lab(back), faces), back
    assert not has_faces_colour(_lab(IVORY), None)  # the faces' colour unknown


def test_a_faces_ground_colour_leaves_its_ink_out() -> None:
    assert np.abs(crop_colour(_face(IVORY)) - _lab(IVORY)).max() <= 1


def test_back_is_no_reading_of_a_plain_tile_of_the_faces_colour() -> None:
    crops = [_face(IVORY), _face(IVORY), _face(IVORY), _face(IVORY, ink=False),
             _face((40, 90, 170), ink=False)]
    ranking = {0: [("1p", 0.9)], 1: [("2p", 0.9)], 2: [("3p", 0.9)],
               3: [("back", 0.8), ("5z", 0.15), ("8p", 0.05)],
               4: [("back", 0.8), ("5z", 0.2)]}
    _no_backs_of_faces_colour(ranking, crops, blank=set())
    assert ranking[3] == [("5z", pytest.approx(0.75)), ("8p", pytest.approx(0.25))]
    # (the classifier's readings, given that it is not a back)
    assert ranking[4] == [("back", 0.8), ("5z", 0.2)]  # a blue plain tile stays a back


def test_a_blank_face_found_by_the_segmenter_is_no_back_whatever_its_crop() -> None:
    crops = [_face(IVORY), _face(IVORY), _face((120, 110, 100), ink=False)]
    ranking = {0: [("1p", 0.9)], 1: [("2p", 0.9)], 2: [("1p", 0.4), ("back", 0.2), ("5z", 0.2)]}
    _no_backs_of_faces_colour(ranking, crops, blank={2})
    assert ranking[2] == [("1p", pytest.approx(2 / 3)), ("5z", pytest.approx(1 / 3))]


def test_pixels_of_the_faces_colour_are_told_one_by_one_as_a_plain_colour_is() -> None:
    """The segmenter looks for the tiles' pale side pixel by pixel: the same rule."""
    faces = _lab(IVORY)
    colours = [(190, 184, 166), (40, 90, 170), (30, 110, 60), (245, 243, 235), (60, 60, 60)]
    pixels = np.array([_lab(c) for c in colours])
    assert of_faces_colour(pixels, faces).tolist() == [has_faces_colour(p, faces) for p in pixels]
    assert of_faces_colour(pixels, faces).tolist() == [True, False, False, True, False]
