"""The scene generator: reproducible photos of legal-looking hands with exact ground truth."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from datasets.artwork import HELD_OUT_STYLES
from datasets.scene_eval import box_polygon, match_outlines, polygon_iou
from datasets.scenes import DEFAULT_STYLE, generate_scene, save_scene
from scoring.tiles import parse_tiles


def test_default_style_is_held_out_from_training() -> None:
    assert DEFAULT_STYLE in HELD_OUT_STYLES


def test_same_seed_same_scene_and_different_seeds_differ() -> None:
    a = generate_scene(11, size=(480, 360))
    b = generate_scene(11, size=(480, 360))
    c = generate_scene(12, size=(480, 360))
    assert np.array_equal(a.image, b.image)
    assert a.truth() == b.truth()
    assert a.codes != c.codes or not np.array_equal(a.image, c.image)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_ground_truth_describes_a_hand_inside_the_photo(seed: int) -> None:
    scene = generate_scene(seed, size=(640, 480))
    h, w = scene.image.shape[:2]
    assert (w, h) == (640, 480) and scene.image.dtype == np.uint8
    playing = [t for t in scene.tiles if t.kind != "bonus"]
    kongs = {t.group for t in playing if sum(u.group == t.group for u in playing) == 4}
    assert len(playing) == 14 + len(kongs)
    for t in scene.tiles:
        pts = np.array(t.outline)
        assert pts.shape == (4, 2)
        assert (pts >= 0).all() and (pts[:, 0] < w).all() and (pts[:, 1] < h).all()
        if t.face_down:
            assert t.code == "back"
        else:
            parse_tiles(t.code)  # a real tile code
    kinds = [t.kind for t in scene.tiles]
    assert kinds[0] == "concealed"
    # tiles are listed in reading order: groups never go back
    groups = [t.group for t in scene.tiles]
    assert groups == sorted(groups)


def test_touching_tiles_share_an_edge_and_do_not_overlap() -> None:
    scene = generate_scene(5, size=(800, 600), tilt=0.0)
    first = [t for t in scene.tiles if t.group == 0]
    for a, b in itertools.pairwise(first):
        iou = polygon_iou(np.array(a.outline), np.array(b.outline))
        assert iou < 0.05
        gap = np.linalg.norm(np.array(a.outline[1]) - np.array(b.outline[0]))
        width = np.linalg.norm(np.array(a.outline[1]) - np.array(a.outline[0]))
        assert gap < 0.2 * width


def test_flipped_scene_lists_corners_as_the_player_sees_them() -> None:
    scene = generate_scene(6, size=(640, 480), flipped=True, tilt=10.0)
    assert scene.flipped
    t = scene.tiles[0]
    tl, _, br, _ = (np.array(p) for p in t.outline)
    # upside down in the image: the player's top-left is at the image's bottom-right
    assert tl[1] > br[1] and tl[0] > br[0]


def test_saved_scene_round_trips_with_exif_orientation(tmp_path: Path) -> None:
    from vision.photo import load_photo

    scene = generate_scene(7, size=(400, 300))
    path = save_scene(scene, tmp_path, "s7", exif_turn=90)
    truth = json.loads(path.with_suffix(".json").read_text())
    assert truth["exif_orientation"] == 6
    assert truth["image"] == {"width": 400, "height": 300}
    photo = load_photo(path)
    assert photo.image.shape == (300, 400, 3)  # upright again
    diff = np.abs(photo.image.astype(int) - scene.image.astype(int)).mean()
    assert diff < 8  # the same picture, up to JPEG loss


def test_matching_counts_each_true_tile_once() -> None:
    truth = [box_polygon([0, 0, 30, 40]), box_polygon([30, 0, 30, 40])]
    found = [box_polygon([1, 1, 30, 40]), box_polygon([2, 0, 30, 40]),
             box_polygon([31, 0, 29, 40]), box_polygon([200, 0, 30, 40])]
    m = match_outlines(found, truth)
    assert len(m.pairs) == 2 and m.recall == 1.0 and m.precision == 0.5
    assert polygon_iou(truth[0], truth[0]) == pytest.approx(1.0)
    assert polygon_iou(truth[0], truth[1]) == pytest.approx(0.0)
