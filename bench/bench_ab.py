"""Two versions of the photo pipeline timed photo by photo, in turn: which is faster.

Why: this machine's speed drifts by 15 % or more within minutes (its CPUs are
shared), so two versions timed one after the other by ``bench_pipeline.py``
can only be told apart by large differences (the thirty-second session: the
same code's 12-megapixel median was 232 ms in one run and 284 ms in another).
Here each version runs warm in its own process, from its own checkout, and
each photo is read by one and then the other (the order turned every photo),
so that the drift falls on both alike.

Prints each version's median decode -> result time (and its mean and 90th
percentile, where a second reading of some photos shows), the median of the
per-photo ratios (this checkout / the other), and how many photos the two read
differently (other tiles or names; the same names with an outline moved by
over a pixel), which says whether a change meant to be only faster is.

Run (from the repository root)::

    git worktree add /tmp/base HEAD~3          # the version to compare with
    python3 bench/bench_ab.py --base /tmp/base --twelve-mp
    python3 bench/bench_ab.py --base /tmp/base --scenes build/scenes-fresh25 --limit 50
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_pipeline import DECODE_SIDE, _is_12mp  # noqa: E402

READER = r"""
import inspect, json, sys, time
sys.path.insert(0, sys.argv[1])
import vision
assert vision.__file__.startswith(sys.argv[1]), vision.__file__
from scoring.likely_hand import most_likely
try:  # the fiftieth session's settling, which also offers the winning faces
    from scoring.likely_hand import other_winning_faces
    settling = {"hand_alternatives": other_winning_faces}
except ImportError:
    try:  # the forty-ninth session's; a base from before it has no settling
        from scoring.likely_hand import settled
        settling = {"hand_settles": settled}
    except ImportError:
        settling = {}
from vision.classify import TileClassifier
from vision.photo import load_photo
from vision.recognize import recognize
# the fifty-first session's: a photo that does not count right is read again from its
# full size
closer = "full_size" in inspect.signature(recognize).parameters
classifier = TileClassifier()
side = int(sys.argv[2])
def read(path):
    t0 = time.perf_counter()
    photo = load_photo(path, max_side=side)
    t1 = time.perf_counter()
    full = {"full_size": lambda: load_photo(path)} if closer else {}
    rec = recognize(photo.image, scale=photo.scale, classifier=classifier,
                    hand_reader=most_likely, **settling, **full)
    t2 = time.perf_counter()
    tiles = [[t.code, [[round(v, 1) for v in p] for p in t.outline]] for t in rec.tiles]
    return {"seconds": t2 - t0, "decode": t1 - t0, "tiles": tiles}
for line in sys.stdin:
    print(json.dumps(read(json.loads(line))), flush=True)
"""


class Reader:
    """One version of the pipeline in its own warm process."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.proc = subprocess.Popen(
            [sys.executable, "-c", READER, str(root), str(DECODE_SIDE)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root)

    def read(self, path: Path) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(str(path)) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the reader of {self.root} stopped (see its error above)")
        out: dict[str, Any] = json.loads(line)
        return out

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True,
                        help="the other version's checkout (a git worktree)")
    parser.add_argument("--scenes", type=Path, default=ROOT / "build" / "scenes")
    parser.add_argument("--twelve-mp", action="store_true", help="only the 12-MP JPEGs")
    parser.add_argument("--limit", type=int, default=0, help="the first N photos only")
    args = parser.parse_args()
    # absolute: each version's reader runs in its own checkout's folder
    photos = sorted(p.resolve() for p in args.scenes.iterdir()
                    if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if args.twelve_mp:
        photos = [p for p in photos if p.suffix.lower() in (".jpg", ".jpeg") and _is_12mp(p)]
    if args.limit:
        photos = photos[:args.limit]
    if not photos:
        sys.exit(f"no photos in {args.scenes}")
    ours, base = Reader(ROOT), Reader(args.base.resolve())
    try:
        ours.read(photos[0]), base.read(photos[0])  # warm-up: sessions start, caches fill
        mine: list[dict[str, Any]] = []
        theirs: list[dict[str, Any]] = []
        for i, path in enumerate(photos):
            pair = [(ours, mine), (base, theirs)]
            for reader, out in (pair if i % 2 == 0 else pair[::-1]):
                out.append(reader.read(path))
    finally:
        ours.close()
        base.close()

    def median_ms(runs: list[dict[str, Any]], key: str) -> float:
        return 1000 * float(statistics.median(r[key] for r in runs))

    ratio = statistics.median(a["seconds"] / b["seconds"] for a, b in zip(mine, theirs,
                                                                         strict=True))
    named = [p.stem for p, a, b in zip(photos, mine, theirs, strict=True)
             if [t[0] for t in a["tiles"]] != [t[0] for t in b["tiles"]]]
    moved = [p.stem for p, a, b in zip(photos, mine, theirs, strict=True)
             if p.stem not in named and _moved(a["tiles"], b["tiles"])]
    print(f"command: python bench/bench_ab.py --base {args.base} --scenes {args.scenes}"
          + (" --twelve-mp" if args.twelve_mp else "")
          + (f" --limit {args.limit}" if args.limit else ""))
    print(f"{len(photos)} photos, each read by both versions in turn (warm processes)")
    for name, runs in (("this checkout", mine), (f"base {args.base}", theirs)):
        seconds = [r["seconds"] for r in runs]
        print(f"  {name}: decode->result median {median_ms(runs, 'seconds'):.0f} ms "
              f"(decode {median_ms(runs, 'decode'):.0f} ms), mean "
              f"{1000 * statistics.fmean(seconds):.0f} ms, 90th percentile "
              f"{1000 * float(np.percentile(seconds, 90)):.0f} ms")
    print(f"  per-photo time, this checkout / base: median {ratio:.3f}")
    slower = [(a, b) for a, b in zip(mine, theirs, strict=True)
              if a["seconds"] >= SLOWER * b["seconds"]]
    if slower:
        print(f"  photos at least {SLOWER}x slower here: {len(slower)}, median "
              f"{median_ms([a for a, _ in slower], 'seconds'):.0f} against "
              f"{median_ms([b for _, b in slower], 'seconds'):.0f} ms")
    print(f"  photos with other tiles or names: {_listed(named)}")
    print(f"  photos with the same names, an outline moved by over {MOVED_PX} px: "
          f"{_listed(moved)}")


SLOWER = 1.5
"""A photo read this many times slower by this checkout is counted apart: a change
that costs only some photos more (a second reading) hides in the medians."""
MOVED_PX = 1.0
"""Outlines nearer than this (original photo pixels) are the same: a photo decoded
at another size (``vision.photo.DRAFT_SLACK``) maps them back through another
scale, and they move by a fraction of a pixel."""


def _moved(a: list[Any], b: list[Any]) -> bool:
    """Whether any corner of the two readings' outlines (same names) is MOVED_PX apart."""
    return any(abs(u - v) > MOVED_PX for (_, pa), (_, pb) in zip(a, b, strict=True)
               for ca, cb in zip(pa, pb, strict=True) for u, v in zip(ca, cb, strict=True))


def _listed(names: list[str]) -> str:
    """How many, and the first ten."""
    more = " ..." if len(names) > 10 else ""
    return f"{len(names)}" + (f" ({', '.join(names[:10])}{more})" if names else "")


if __name__ == "__main__":
    main()
