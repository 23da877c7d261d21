"""Time the hand's search for other winning readings, on readings recorded from photos.

Why: the search that settles unsure tiles and finds the faces that would also
make a winning hand (``scoring.likely_hand.other_winning_faces``) runs once per
photo, and its cost grows with the unsure tiles and their alternatives; a
photo's own latency is too noisy (15 % and more, ``bench_ab.py``) to show a
few milliseconds. So this records the readings that the pipeline hands the
search, once per photo set (``build/hand-readings/<set>.json``, read again on
later runs; ``--record`` records them again, after a change to the pipeline),
and times the search alone on them: per hand, the median of
``--rounds`` calls. ``--base OTHER_CHECKOUT`` times that checkout's
``scoring/likely_hand.py`` (its ``settled``, which every version since the
forty-ninth session has) on the same readings in the same run, call by call
in turn.

    python3 bench/bench_hand_search.py --scenes build/scenes-real59 --base /tmp/base
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_pipeline import DECODE_SIDE  # noqa: E402

Blocks = list[list[list[tuple[str, float]]]]


def record(scenes: Path, out: Path) -> list[Blocks]:
    """The readings the pipeline hands the search, photo by photo (hands whose
    first readings make no winning hand included: the search returns at once)."""
    from tqdm import tqdm

    from scoring.likely_hand import most_likely, other_winning_faces
    from vision.classify import TileClassifier
    from vision.photo import load_photo
    from vision.recognize import recognize

    classifier = TileClassifier()
    hands: list[Blocks] = []

    def keep(blocks: Sequence[Sequence[Sequence[tuple[str, float]]]],
             unsure: float) -> list[list[tuple[str, ...]]] | None:
        hands.append([[[(c, float(p)) for c, p in options] for options in block]
                      for block in blocks])
        return other_winning_faces(blocks, unsure)

    for path in tqdm(sorted(scenes.glob("*.jpg")), desc=f"reading {scenes.name}"):
        photo = load_photo(path, max_side=DECODE_SIDE)
        recognize(photo.image, scale=photo.scale, classifier=classifier,
                  hand_reader=most_likely, hand_alternatives=keep)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(hands))
    return hands


def load_module(checkout: Path) -> ModuleType:
    """``checkout``'s ``scoring/likely_hand.py``, with this checkout's other modules."""
    spec = importlib.util.spec_from_file_location(
        f"likely_hand_{abs(hash(checkout))}", checkout / "scoring" / "likely_hand.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(settle: Callable[[Blocks, float], list[list[bool]]], hand: Blocks,
          unsure: float) -> float:
    t0 = time.perf_counter()
    settle(hand, unsure)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=Path, default=ROOT / "build" / "scenes")
    parser.add_argument("--base", type=Path, help="another checkout to time in turn")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--record", action="store_true",
                        help="record the readings again (the pipeline changed)")
    parser.add_argument("--cache", type=Path, default=ROOT / "build" / "hand-readings",
                        help="where the recorded readings are kept")
    args = parser.parse_args(argv)

    from scoring.likely_hand import is_winning
    from vision.recognize import LOW_CONFIDENCE

    cache = args.cache / f"{args.scenes.resolve().name}.json"
    hands: list[Blocks] = ([[[[tuple(o) for o in options] for options in block]
                             for block in hand] for hand in json.loads(cache.read_text())]
                           if cache.is_file() and not args.record
                           else record(args.scenes, cache))
    winning = [h for h in hands if is_winning([[o[0][0] for o in block] for block in h])]
    versions: dict[str, Any] = {"this checkout": load_module(ROOT)}
    if args.base is not None:
        versions["base"] = load_module(args.base.resolve())
    seconds: dict[str, list[float]] = {name: [] for name in versions}
    settled_tiles = dict.fromkeys(versions, 0)
    gave_up = dict.fromkeys(versions, 0)
    unsure = sum(1 for h in winning for block in h for o in block if o[0][1] < LOW_CONFIDENCE)
    for hand in winning:
        per: dict[str, list[float]] = {name: [] for name in versions}
        for _ in range(args.rounds):
            for name, module in versions.items():  # in turn: the machine drifts
                per[name].append(timed(module.settled, hand, LOW_CONFIDENCE))
        for name, module in versions.items():
            seconds[name].append(statistics.median(per[name]))
            flags = module.settled(hand, LOW_CONFIDENCE)
            settled_tiles[name] += sum(f for block, fl in zip(hand, flags, strict=True)
                                       for o, f in zip(block, fl, strict=True)
                                       if o[0][1] < LOW_CONFIDENCE)
            gave_up[name] += not any(f for fl in flags for f in fl)

    print(f"{args.scenes}: {len(hands)} hands read (a photo read again counts again), "
          f"{len(winning)} whose first readings win, {unsure} tiles on them read below "
          f"{LOW_CONFIDENCE}")
    for name in versions:
        ms = sorted(1000 * s for s in seconds[name])
        p90 = ms[max(0, math.ceil(0.9 * len(ms)) - 1)] if ms else float("nan")  # nearest rank
        print(f"  {name:<14} median {statistics.median(ms):.3f} ms, 90th percentile "
              f"{p90:.2f} ms, worst {ms[-1]:.1f} ms; unsure tiles settled "
              f"{settled_tiles[name]}; hands it gave up on (nothing settled) {gave_up[name]}")
    print("command: python3 bench/bench_hand_search.py " + " ".join(sys.argv[1:]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
