"""The hand-search benchmark records a set's readings once and times both versions on them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_hand_search as bench

from datasets.scenes import generate_scene, save_scene
from vision.classify import MODEL_FILES, _model_dir

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(not (_model_dir() / MODEL_FILES.model).is_file(),
                    reason="the tile classifier model is not in this checkout")
def test_readings_are_recorded_once_and_both_versions_timed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenes = tmp_path / "two"
    for seed in (13, 34):  # each has a tile that another winning reading changes
        save_scene(generate_scene(seed, size=(1200, 900)), scenes, f"scene_{seed}")
    cache = tmp_path / "cache"
    argv = ["--scenes", str(scenes), "--cache", str(cache), "--rounds", "1", "--base", str(ROOT)]
    assert bench.main(argv) == 0
    first = capsys.readouterr().out
    recorded = json.loads((cache / "two.json").read_text())
    assert len(recorded) >= 2  # a hand per photo read, each a list of blocks of options
    assert all(isinstance(options[0][0], str) for hand in recorded for block in hand
               for options in block)
    assert "this checkout  median" in first and "base           median" in first
    # the same settling from both (the base is this checkout) and, read again, from the cache
    lines = [line.split("unsure tiles settled")[1] for line in first.splitlines()
             if "unsure tiles settled" in line]
    assert len(lines) == 2 and lines[0] == lines[1]
    assert int(lines[0].split(";")[0]) > 0  # scene 34's 8 characters at 0.55 is settled
    (scenes / "scene_13.jpg").unlink()  # recorded: the photos are not read again
    assert bench.main(argv) == 0
    assert "unsure tiles settled" + lines[0] in capsys.readouterr().out
