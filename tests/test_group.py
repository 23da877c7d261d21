"""Reading order: rows, blocks at gaps, and photos taken from across the table."""

from __future__ import annotations

import numpy as np

from datasets.scenes import generate_scene
from vision.group import is_flipped, lay_out, reading_direction
from vision.rectify import order_corners


def _row_frame_quads(outlines: list[np.ndarray], right: np.ndarray) -> list[np.ndarray]:
    """Quads as the segmenter gives them: TL, TR, BR, BL along the row, in the image."""
    return [order_corners(o, right) for o in outlines]


def test_generated_hands_are_read_in_the_players_order() -> None:
    for seed, flipped in ((21, False), (22, True), (23, False), (24, True)):
        scene = generate_scene(seed, size=(800, 600), flipped=flipped)
        outlines = [np.array(t.outline) for t in scene.tiles]
        shuffled = np.random.default_rng(seed).permutation(len(outlines))
        quads = _row_frame_quads([outlines[i] for i in shuffled], np.array([1.0, 0.0]))
        layout = lay_out(quads, flipped=flipped)
        order = [int(shuffled[p.tile]) for p in layout.order]
        assert order == list(range(len(outlines))), f"seed {seed}"
        # blocks follow the truth's groups one to one
        truth_groups = [scene.tiles[i].group for i in order]
        blocks = [p.block for p in layout.order]
        assert len(set(blocks)) == len(set(truth_groups))
        pairs = set(zip(blocks, truth_groups, strict=True))
        assert len(pairs) == len(set(blocks))


def test_a_second_row_is_read_after_the_first() -> None:
    w, h = 30.0, 40.0
    row0 = [np.array([[x, 0], [x + w, 0], [x + w, h], [x, h]]) for x in np.arange(0, 150, w)]
    row1 = [np.array([[x, 80], [x + w, 80], [x + w, 80 + h], [x, 80 + h]])
            for x in (0.0, 30.0, 60.0, 120.0, 150.0)]
    layout = lay_out(row1 + row0, flipped=False)
    rows = [p.row for p in layout.order]
    assert rows == [0] * 5 + [1] * 5
    assert [p.tile for p in layout.order][:5] == [5, 6, 7, 8, 9]
    blocks_row1 = [p.block for p in layout.order if p.row == 1]
    assert blocks_row1 == [1, 1, 1, 2, 2]  # the gap after the third tile


def test_direction_and_flip_votes() -> None:
    quads = [np.array([[10, 0], [0, 0], [0, 10], [10, 10]], float)]  # listed right to left
    assert np.allclose(reading_direction(quads), [1, 0])
    assert is_flipped([180, 180, 0], [0.9, 0.8, 0.95])
    assert not is_flipped([180, 0, 0], [0.9, 0.8, 0.95])
    assert lay_out([], flipped=False).order == ()


def test_lone_square_faces_do_not_outvote_a_run() -> None:
    """A checked cloth's squares, each cut as a face alone and listed down the photo,
    outnumber a hand's row (real-69 69080); being square they say nothing of the
    rows' direction, so the row's faces decide. Alone, a tile's face still votes."""
    row = [np.array([[x, 100], [x + 30, 100], [x + 30, 140], [x, 140]], float)
           for x in range(0, 150, 30)]
    squares = [np.array([[x + 20, y], [x + 20, y + 20], [x, y + 20], [x, y]], float)
               for x in range(0, 400, 40) for y in (200, 240)]  # TL->TR points down
    quads = row + squares
    runs = [0] * len(row) + list(range(1, len(squares) + 1))
    assert abs(reading_direction(quads)[1]) > 0.9  # (outvoted without the runs)
    assert np.allclose(reading_direction(quads, runs), [1, 0])
    lone_tile = [np.array([[0, 0], [0, 30], [-40, 30], [-40, 0]], float)]  # a face, its row down
    assert np.allclose(reading_direction(lone_tile, [0]), [0, 1])


def test_separate_runs_are_separate_blocks_even_when_close() -> None:
    w, h = 30.0, 40.0
    quads = [np.array([[x, 0], [x + w, 0], [x + w, h], [x, h]])
             for x in (0.0, 30.0, 60.0, 92.0, 122.0, 152.0)]  # a 2-pixel gap only
    assert len({p.block for p in lay_out(quads, flipped=False).order}) == 1
    layout = lay_out(quads, flipped=False, runs=[0, 0, 0, 1, 1, 1])
    assert [p.block for p in layout.order] == [0, 0, 0, 1, 1, 1]
