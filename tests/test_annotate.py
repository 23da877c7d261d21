"""The annotated photo: outlines, labels, tiles to check in red."""

from __future__ import annotations

import numpy as np

from vision.annotate import CHECK_COLOUR, GROUP_COLOURS, annotate
from vision.recognize import Group, Recognition, RecognizedTile


def _tile(index: int, x: float, *, low: bool = False, down: bool = False) -> RecognizedTile:
    outline = ((x, 100.0), (x + 60, 100.0), (x + 60, 180.0), (x, 180.0))
    return RecognizedTile(index, "back" if down else "5p", 0.4 if low else 0.99, (), 0, down,
                          False, outline, 0, 0, low)


def _recognition() -> Recognition:
    tiles = (_tile(0, 100), _tile(1, 160, low=True), _tile(2, 220, down=True))
    return Recognition(800, 400, tiles, (Group(0, 0, "meld", (0, 1, 2)),), ())


def test_outlines_are_drawn_in_group_colour_and_checks_in_red() -> None:
    photo = np.full((400, 800, 3), 90, np.uint8)
    out = annotate(photo, _recognition())
    assert out.shape == photo.shape and out.dtype == np.uint8
    assert np.array_equal(photo, np.full((400, 800, 3), 90, np.uint8))  # input untouched
    # left edge of tile 0 (group colour) and bottom edge of tile 1 (to check: red)
    assert tuple(out[140, 100]) == GROUP_COLOURS[0]
    assert tuple(out[180, 190]) == CHECK_COLOUR
    # the face-down tile is hatched: some of its inside is drawn over
    inside = out[110:170, 230:270]
    assert (inside != 90).any()


def test_large_photos_are_shrunk_and_outlines_scaled() -> None:
    photo = np.full((1600, 3200, 3), 90, np.uint8)
    rec = _recognition()
    big = Recognition(3200, 1600, rec.tiles, rec.groups, ())
    out = annotate(photo, big, max_side=800)
    assert out.shape == (400, 800, 3)
    assert tuple(out[35, 25]) == GROUP_COLOURS[0]  # (100, 140) / 4
