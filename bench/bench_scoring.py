"""Benchmark: microseconds to score one hand under the Hong Kong presets, in one process.

A fixed, seeded set of winning hands (at least 1,000; about half ambiguous:
runs like 111222333, 112233, 2223334 that read several ways) is scored
repeatedly; the median over the repeats is printed per hand. Two figures:

* ``engine``: :func:`scoring.hongkong.score_hk` on parsed hands (what the API
  pays per photo after parsing), and
* ``request``: :func:`scoring.score.score_request` on the JSON dicts (parsing,
  validation, scoring and the JSON response).

No whole-hand result is cached between repeats. The per-suit split tables are
kept (that is the technique), and so are the pattern results per reading shape
and per hand-level key (a few hundred of each, shared by many hands); the
figure with those emptied before each repeat and the first, cold pass (all
tables empty) are printed too.

Run: ``python3 bench/bench_scoring.py [--hands 2000] [--repeats 7] [--rules hk-a]``
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import timeit
from typing import Any

from scoring import decompose as decompose_module
from scoring import hongkong
from scoring.errors import IllegalHand
from scoring.hand import Context, Hand, context_from_json, hand_from_json
from scoring.hongkong import score_hk
from scoring.presets import Preset, load_preset
from scoring.score import score_request
from scoring.tiles import PLAYING_TILES, WINDS, format_tiles

AMBIGUOUS_RUNS: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 1, 1, 1, 2, 2, 2),              # 111222333: three pungs or three chows
    (1, 1, 1, 2, 2, 2, 3, 3, 3),              # 222333444
    (0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3),        # 11122233344: three readings
    (1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4),        # 22233344455: three readings
    (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5),     # 112233445566: chows or seven pairs
)


def _random_hand(rng: random.Random) -> dict[str, Any]:
    """One winning hand as a JSON request, built from sets so that it always wins."""
    while True:
        counts = [0] * 34
        groups: list[tuple[str, int]] = []
        if rng.random() < 0.6:
            base = rng.choice((0, 9, 18))
            start = rng.randrange(0, 3)
            run = rng.choice(AMBIGUOUS_RUNS)
            for r in run:
                counts[base + start + r] += 1
            sets_needed = 4 - len(run) // 3
            pair_needed = len(run) % 3 != 2
            groups.append(("run", -1))
        else:
            sets_needed, pair_needed = 4, True
        ok = True
        for _ in range(sets_needed):
            if rng.random() < 0.55:
                suit = rng.choice((0, 9, 18))
                t = suit + rng.randrange(7)
                kind = "chow"
                need = (t, t + 1, t + 2)
            else:
                t = rng.randrange(34)
                kind = "pung"
                need = (t, t, t)
            for i in need:
                counts[i] += 1
            groups.append((kind, t))
        if pair_needed:
            p = rng.randrange(34)
            counts[p] += 2
        if any(c > 4 for c in counts) or not ok:
            continue
        tiles = [PLAYING_TILES[i] for i, c in enumerate(counts) for _ in range(c)]
        melds: list[dict[str, Any]] = []
        # Declare up to two of the plain sets as exposed melds.
        for kind, t in groups[-2:]:
            if kind in ("chow", "pung") and rng.random() < 0.3:
                meld_tiles = [PLAYING_TILES[i] for i in ((t, t + 1, t + 2) if kind == "chow"
                                                          else (t, t, t))]
                for mt in meld_tiles:
                    tiles.remove(mt)
                melds.append({"kind": kind, "tiles": format_tiles(meld_tiles), "exposed": True})
        seat = rng.choice(WINDS)
        self_drawn = rng.random() < 0.4
        context: dict[str, Any] = {"seat_wind": seat, "round_wind": rng.choice(WINDS),
                                   "self_drawn": self_drawn}
        if not self_drawn:
            context["discarder"] = rng.choice([w for w in WINDS if w != seat])
        bonus = rng.sample(["1f", "2f", "3f", "4f", "1g", "2g", "3g", "4g"], rng.randrange(3))
        return {"hand": {"concealed": format_tiles(sorted(tiles)), "melds": melds,
                         "bonus": bonus, "winning_tile": rng.choice(tiles).code},
                "context": context}


def _engine(hand: Hand, ctx: Context, preset: Preset) -> bool:
    """Score one hand; a hand below the preset's minimum fan is an answer too."""
    try:
        score_hk(hand, ctx, preset)
    except IllegalHand:
        return False
    return True


def fixed_hands(n: int, seed: int = 20261130) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [_random_hand(rng) for _ in range(n)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--rules", default="hk-a")
    args = parser.parse_args(argv)
    requests = fixed_hands(args.hands)
    for r in requests:
        r["rules"] = args.rules
    preset = load_preset(args.rules)
    parsed = [(hand_from_json(r["hand"]), context_from_json(r["context"])) for r in requests]
    ambiguous = sum(1 for h, _ in parsed if len(decompose_module.decompose(h)) > 1)
    for table in decompose_module._TABLES:
        table.clear()  # the cold pass starts from empty suit tables

    t0 = time.process_time()
    winning = sum(_engine(hand, ctx, preset) for hand, ctx in parsed)
    cold = (time.process_time() - t0) / len(parsed) * 1e6

    engine: list[float] = []
    cleared: list[float] = []
    full: list[float] = []
    scorer = hongkong._scorer(preset)
    for _ in range(args.repeats):
        t0 = time.process_time()
        for hand, ctx in parsed:
            _engine(hand, ctx, preset)
        engine.append((time.process_time() - t0) / len(parsed) * 1e6)
        scorer.shapes.clear()  # the pattern results kept per reading shape / hand key
        scorer.hands.clear()
        t0 = time.process_time()
        for hand, ctx in parsed:
            _engine(hand, ctx, preset)
        cleared.append((time.process_time() - t0) / len(parsed) * 1e6)
        t0 = time.process_time()
        for r in requests:
            score_request(r)
        full.append((time.process_time() - t0) / len(requests) * 1e6)
    print(f"{len(parsed)} hands ({ambiguous} with more than one reading, {winning} reach the "
          f"minimum fan), rules {args.rules}, "
          f"median of {args.repeats} repeats, Python {sys.version.split()[0]}")
    print(f"engine  (score_hk on parsed hands):   {statistics.median(engine):7.1f} us/hand "
          f"(first cold pass {cold:.1f})")
    print(f"engine, pattern caches emptied before the repeat: {statistics.median(cleared):7.1f}"
          f" us/hand ({len(scorer.shapes)} reading shapes, {len(scorer.hands)} hand keys)")
    print(f"request (score_request on JSON dicts): {statistics.median(full):7.1f} us/hand")
    calib = min(timeit.repeat("sum(range(1000))", number=2000, repeat=5)) / 2000 * 1e6
    print(f"machine load check: sum(range(1000)) takes {calib:.1f} us here "
          "(about 8-10 us on an idle modern core)")
    print(f"reproduce: python3 bench/bench_scoring.py --hands {args.hands} "
          f"--repeats {args.repeats} --rules {args.rules}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
