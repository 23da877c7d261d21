"""Invariants of the Italian model on generated tables (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_italian_support import PRESET

from scoring.italian import score_italian
from scoring.tiles import ALL_TILES, WINDS, format_tiles


def _code(tiles: list[int]) -> str:
    return format_tiles(ALL_TILES[t] for t in sorted(tiles))


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    """A winning hand of four sets and a pair plus three loser hands, dealt from one wall."""
    rng = draw(st.randoms(use_true_random=False))
    wall = [4] * 34
    concealed: list[int] = []
    melds: list[dict[str, Any]] = []

    def take(tiles: list[int]) -> bool:
        if any(wall[t] < tiles.count(t) for t in tiles):
            return False
        for t in tiles:
            wall[t] -= 1
        return True

    while len(concealed) + 3 * len(melds) < 12:
        if rng.random() < 0.5:
            start = rng.randrange(3) * 9 + rng.randrange(7)
            tiles, kind = [start, start + 1, start + 2], "chow"
        else:
            t = rng.randrange(34)
            tiles, kind = [t, t, t], "pung"
        if not take(tiles):
            continue
        if rng.random() < 0.25:
            melds.append({"kind": kind, "tiles": _code(tiles), "exposed": True})
        else:
            concealed += tiles
    pair = rng.choice([t for t in range(34) if wall[t] >= 2])
    take([pair, pair])
    concealed += [pair, pair]
    winner = rng.choice(WINDS)
    players: dict[str, Any] = {}
    for seat in WINDS:
        if seat == winner:
            continue
        if rng.random() < 0.2:
            players[seat] = rng.randrange(5000)
            continue
        pool = [t for t in range(34) for _ in range(wall[t])]
        hand = rng.sample(pool, rng.randrange(1, 14))
        take(hand)
        players[seat] = {"concealed": _code(hand)}
    self_drawn = rng.random() < 0.5
    return {
        "hand": {"concealed": _code(concealed), "melds": melds,
                 "winning_tile": ALL_TILES[rng.choice(concealed)].code},
        "context": {"seat_wind": winner, "round_wind": rng.choice(WINDS),
                    "self_drawn": self_drawn,
                    "discarder": None if self_drawn else rng.choice(
                        [w for w in WINDS if w != winner])},
        "players": players,
    }


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_scores_respect_the_sheet_and_the_settlement_sums_to_zero(table: dict[str, Any]) -> None:
    r = score_italian(table, PRESET)
    assert r["valid"], r["reason"]
    for p in r["players"].values():
        assert 0 <= p["score"] <= 368_640
        assert p["score"] % 10 == 0
        assert p["doubles"] <= 12
    assert sum(r["settlement"]["net"].values()) == 0
    winner = r["winner"]
    assert all(r["settlement"]["matrix"][winner][p] == 0 for p in WINDS)
    assert r["settlement"]["net"][winner] == sum(r["payments"].values())


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_self_drawn_never_scores_less_than_on_a_discard(table: dict[str, Any]) -> None:
    ctx = table["context"]
    other = next(w for w in WINDS if w != ctx["seat_wind"])
    base = {k: v for k, v in table.items() if k != "players"}
    discard = {**base, "context": {**ctx, "self_drawn": False, "discarder": other}}
    drawn = {**base, "context": {**ctx, "self_drawn": True, "discarder": None}}
    a = score_italian(discard, PRESET)
    b = score_italian(drawn, PRESET)
    assert b["players"][b["winner"]]["raw"] >= a["players"][a["winner"]]["raw"]
