"""The A/B timing benchmark: two versions read the same photos in turn.

Its last line ("photos read differently") is how a change meant only to be
faster is checked to read every photo as before, so it is tested on real
generated photos and the real model: a checkout compared with itself reads
them all alike."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from datasets.scenes import generate_scene, save_scene

ROOT = Path(__file__).resolve().parents[1]


def test_a_checkout_compared_with_itself_reads_every_photo_alike(tmp_path: Path) -> None:
    for seed, turn in ((31, 0), (32, 90)):  # (one stored turned, as phones do)
        save_scene(generate_scene(seed, size=(1000, 750)), tmp_path, f"scene_{seed}",
                   exif_turn=turn)
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_ab.py"), "--base",
                          str(ROOT), "--scenes", str(tmp_path)],
                         capture_output=True, text=True, timeout=300, check=True)
    lines = run.stdout.splitlines()
    assert lines[0].startswith("command: python bench/bench_ab.py --base")
    assert "2 photos, each read by both versions in turn" in lines[1]
    assert any("per-photo time, this checkout / base: median" in ln for ln in lines)
    assert sum(" ms, 90th percentile " in ln for ln in lines) == 2  # one per version
    assert lines[-2].strip() == "photos with other tiles or names: 0"
    assert lines[-1].strip().endswith("an outline moved by over 1.0 px: 0")
