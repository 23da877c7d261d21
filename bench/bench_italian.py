"""Speed of the Italian model: scoring and settling the four hands of one table.

Why: the issue's target is at most 200 µs to score four hands (the winner's
and three losers') and settle them, on this machine, in one process.

Reproduce (from the repository root)::

    python3 bench/bench_italian.py              # --tables 1000 --repeats 7 --seed 7

Deals ``--tables`` fixed seeded tables from one shuffled wall each (so the four
hands never hold a fifth copy): a winning hand of four sets and a pair (some
sets declared, exposed or concealed; many readings ambiguous) plus three
loser hands of 13 tiles (with declared pungs when the wall allows). Each
table is one JSON request with ``players``. Two figures, CPU time per table,
median of the repeats: the engine (four parsed hands scored, every reading of
the winner and the losers' readings, limits, settlement) and the whole
:func:`scoring.score.score_request` call (JSON parsing and validation of the
four hands and the answer too). No result is cached across tables.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.hand import context_from_json, hand_from_json
from scoring.italian.request import load_rules
from scoring.italian.scorer import score_loser, score_winner
from scoring.presets import read_preset_data
from scoring.score import score_request
from scoring.settlement import settle
from scoring.tiles import ALL_TILES, WINDS, format_tiles


def _take(wall: list[int], tiles: list[int]) -> bool:
    if all(wall.count(t) >= tiles.count(t) for t in set(tiles)):
        for t in tiles:
            wall.remove(t)
        return True
    return False


def _set(rng: random.Random, wall: list[int]) -> tuple[str, list[int]] | None:
    for _ in range(50):
        if rng.random() < 0.45:
            suit = rng.randrange(3)
            start = suit * 9 + rng.randrange(7)
            tiles = [start, start + 1, start + 2]
            kind = "chow"
        else:
            t = rng.randrange(34)
            tiles = [t, t, t]
            kind = "pung"
        if _take(wall, tiles):
            return kind, tiles
    return None


def _code(tiles: list[int]) -> str:
    """Compact notation, as clients send hands (``123m55z``)."""
    return format_tiles(ALL_TILES[t] for t in sorted(tiles))


def table(rng: random.Random) -> dict[str, Any] | None:
    """One table's request, or None when the deal failed (then the caller deals again)."""
    wall = [t for t in range(34) for _ in range(4)]
    concealed: list[int] = []
    melds: list[dict[str, Any]] = []
    for _ in range(4):
        got = _set(rng, wall)
        if got is None:
            return None
        kind, tiles = got
        if rng.random() < 0.3:
            melds.append({"kind": kind, "tiles": _code(tiles), "exposed": True})
        else:
            concealed += tiles
    pair = next((t for t in rng.sample(range(34), 34) if wall.count(t) >= 2), None)
    if pair is None or not _take(wall, [pair, pair]):
        return None
    concealed += [pair, pair]
    winning = rng.choice(concealed)
    seats = list(WINDS)
    winner = rng.choice(seats)
    players: dict[str, Any] = {}
    rng.shuffle(wall)
    for seat in seats:
        if seat == winner:
            continue
        loser_melds: list[dict[str, Any]] = []
        if rng.random() < 0.5:
            got = _set(rng, wall)
            if got is not None:
                loser_melds.append({"kind": got[0], "tiles": _code(got[1])})
        need = 13 - 3 * len(loser_melds)
        hand = [wall.pop() for _ in range(need)]
        players[seat] = {"concealed": _code(hand), "melds": loser_melds,
                         "bonus": [f"{seats.index(seat) + 1}f"] if rng.random() < 0.3 else []}
    self_drawn = rng.random() < 0.3
    discarder = None if self_drawn else rng.choice([s for s in seats if s != winner])
    return {
        "rules": "italian",
        "hand": {"concealed": _code(concealed), "melds": melds, "winning_tile":
                 ALL_TILES[winning].code},
        "context": {"seat_wind": winner, "round_wind": rng.choice(seats),
                    "self_drawn": self_drawn, "discarder": discarder},
        "players": players,
    }


def tables(n: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        request = table(rng)
        if request is not None:
            out.append(request)
    return out


def _median_us(run: Any, n: int, repeats: int) -> tuple[float, float]:
    """Median and min CPU time per table (process time: the machine is shared, so waits
    for a core are not counted against the code)."""
    times = []
    for _ in range(repeats):
        t = time.process_time()
        run()
        times.append((time.process_time() - t) / n * 1e6)
    return statistics.median(times), min(times)


def main() -> int:
    p = argparse.ArgumentParser(description="benchmark Italian scoring + settlement")
    p.add_argument("--tables", type=int, default=1000)
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--seed", type=int, default=7)
    a = p.parse_args()
    requests = tables(a.tables, a.seed)
    answers = [score_request(r) for r in requests]  # warm-up (and the readings' suit tables)
    valid = sum(1 for r in answers if r["valid"])
    assert all(sum(r["settlement"]["net"].values()) == 0 for r in answers if r["valid"])

    rules = load_rules(read_preset_data("italian"), None)
    parsed = [(hand_from_json(r["hand"]), context_from_json(r["context"]),
               [(seat, hand_from_json(h)) for seat, h in r["players"].items()])
              for r in requests]

    def engine() -> None:
        for hand, ctx, others in parsed:
            winner, _, _ = score_winner(hand, ctx, rules)
            scores = {ctx.seat_wind: winner.score}
            for seat, other in others:
                scores[seat] = score_loser(other, seat, ctx.round_wind, rules).score
            settle([scores[w] for w in WINDS], winner=WINDS.index(ctx.seat_wind), east=0,
                   east_multiplier=rules.east_multiplier)

    def whole() -> None:
        for request in requests:
            score_request(request)

    n = len(requests)
    core, core_min = _median_us(engine, n, a.repeats)
    full, full_min = _median_us(whole, n, a.repeats)
    print(f"{n} tables ({valid} valid wins), 4 hands each, seed {a.seed}; "
          f"CPU time per table, median of {a.repeats} repeats (min)")
    print(f"score four parsed hands + settle:        {core:7.1f} µs ({core_min:.1f})"
          "   target <= 200 µs")
    print(f"whole JSON request (parse, score, answer): {full:7.1f} µs ({full_min:.1f})")
    print(f"reproduce: python3 bench/bench_italian.py --tables {a.tables} "
          f"--repeats {a.repeats} --seed {a.seed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
