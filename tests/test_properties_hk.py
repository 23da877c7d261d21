"""Invariants of the Hong Kong engine over generated winning hands (hypothesis).

Hands are built from sets (so they always win) with random melds, seats,
bonus tiles and win conditions, under every fan preset and payment table.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from scoring.decompose import decompose
from scoring.hand import Context, Hand, Meld
from scoring.hongkong import reading_scores
from scoring.payments import payment_table
from scoring.presets import load_preset
from scoring.score import score_parsed
from scoring.tiles import ALL_TILES, BONUS_TILES, WINDS
from scoring.waits import waits

PRESETS = ("hk-a", "hk-b", "hkos")


@st.composite
def sets(draw: st.DrawFn) -> tuple[str, int]:
    if draw(st.booleans()):
        suit = draw(st.sampled_from((0, 9, 18)))
        return "chow", suit + draw(st.integers(0, 6))
    return draw(st.sampled_from(("pung", "pung", "kong"))), draw(st.integers(0, 33))


def _tiles(kind: str, t: int) -> list[int]:
    if kind == "chow":
        return [t, t + 1, t + 2]
    return [t] * (4 if kind == "kong" else 3)


@st.composite
def winning_hands(draw: st.DrawFn) -> tuple[Hand, Context]:
    groups = draw(st.lists(sets(), min_size=4, max_size=4))
    pair = draw(st.integers(0, 33))
    counts = Counter(i for kind, t in groups for i in _tiles(kind, t))
    counts[pair] += 2
    assume(max(counts.values()) <= 4)
    concealed: list[int] = [pair, pair]
    melds: list[Meld] = []
    seat = draw(st.sampled_from(WINDS))
    others = [w for w in WINDS if w != seat]
    for kind, t in groups:
        tiles = _tiles(kind, t)
        if kind == "kong" or draw(st.integers(0, 3)) == 0:
            exposed = draw(st.booleans()) if kind == "kong" else True
            claimed = draw(st.sampled_from(others)) if exposed else None
            melds.append(Meld(kind, tuple(ALL_TILES[i] for i in tiles), exposed, claimed))
        else:
            concealed.extend(tiles)
    win = ALL_TILES[draw(st.sampled_from(concealed))]
    bonus = tuple(draw(st.lists(st.sampled_from(BONUS_TILES), max_size=4, unique=True)))
    self_drawn = draw(st.booleans())
    ctx = Context(seat_wind=seat, round_wind=draw(st.sampled_from(WINDS)), self_drawn=self_drawn,
                  discarder=None if self_drawn else draw(st.sampled_from(others)),
                  last_tile=draw(st.booleans()))
    hand = Hand(tuple(sorted(ALL_TILES[i] for i in concealed)), tuple(melds), bonus, win)
    return hand, ctx


def _score(hand: Hand, ctx: Context, rules: str, options: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    return score_parsed(hand, ctx, load_preset(rules, options))


common = settings(max_examples=150, deadline=None,
                  suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])


@common
@given(winning_hands(), st.sampled_from(PRESETS),
       st.sampled_from(("seed", "half-spicy", "spicy")), st.sampled_from((1, 2, 0.5)))
def test_payments_add_up_to_the_table(hand_ctx: tuple[Hand, Context], rules: str, table: str,
                                      stake: float) -> None:
    hand, ctx = hand_ctx
    resp = _score(hand, ctx, rules, {"payment_table": table, "base_stake": stake})
    assume(resp["valid"])
    preset = load_preset(rules)
    limit_fan = preset.options["limit_fan"]
    amounts = payment_table(table)
    row = limit_fan if resp["limit"] else resp["fan"]
    base = amounts[min(row, len(amounts) - 1)] * stake
    expected_total = 6 * base if resp["self_drawn"] else 4 * base
    assert abs(sum(resp["payments"].values()) - expected_total) < 1e-6
    assert abs(resp["total"] - expected_total) < 1e-6
    assert set(resp["payments"]) == set(WINDS) - {ctx.seat_wind}
    if resp["liable"] is None:
        for seat, amount in resp["payments"].items():
            double = resp["self_drawn"] or seat == ctx.discarder
            assert abs(amount - (2 * base if double else base)) < 1e-6
    else:
        assert abs(resp["payments"][resp["liable"]] - expected_total) < 1e-6


@common
@given(winning_hands(), st.sampled_from(PRESETS))
def test_self_drawn_never_scores_fewer_fan_than_on_a_discard(hand_ctx: tuple[Hand, Context],
                                                             rules: str) -> None:
    hand, ctx = hand_ctx
    discarder = next(w for w in WINDS if w != ctx.seat_wind)
    on_discard = _score(hand, Context(ctx.seat_wind, ctx.round_wind, False, discarder,
                                      ctx.last_tile), rules)
    drawn = _score(hand, Context(ctx.seat_wind, ctx.round_wind, True, None, ctx.last_tile), rules)
    if on_discard["valid"]:
        assert drawn["valid"]
        assert (drawn["limit"], drawn["fan"]) >= (on_discard["limit"], on_discard["fan"])


@common
@given(winning_hands(), st.sampled_from(PRESETS))
def test_the_chosen_reading_is_never_beaten(hand_ctx: tuple[Hand, Context], rules: str) -> None:
    hand, ctx = hand_ctx
    resp = _score(hand, ctx, rules)
    scores = reading_scores(hand, ctx, load_preset(rules))
    assert scores
    best = max((s.limit, s.fan) for s in scores)
    if resp["valid"]:
        assert (resp["limit"], resp["fan"]) == best
        chosen = sorted((g["kind"], g["tiles"]) for g in resp["decomposition"])
        assert chosen in [sorted((g["kind"], g["tiles"]) for g in s.reading.to_json())
                          for s in scores if (s.limit, s.fan) == best]


@common
@given(winning_hands())
def test_every_reading_uses_exactly_the_hand_tiles(hand_ctx: tuple[Hand, Context]) -> None:
    hand, _ = hand_ctx
    expected = Counter(t.code for t in hand.concealed)
    for m in hand.melds:
        expected.update(t.code for t in m.tiles)
    readings = decompose(hand)
    assert readings
    for reading in readings:
        if reading.form == "flowers":
            continue
        got = Counter(t.code for g in reading.groups for t in g.tiles)
        assert got == expected


@common
@given(winning_hands(), st.data())
def test_a_winning_hand_less_one_tile_waits_on_that_tile(hand_ctx: tuple[Hand, Context],
                                                         data: st.DataObject) -> None:
    hand, _ = hand_ctx
    removed = data.draw(st.sampled_from(hand.concealed))
    rest = list(hand.concealed)
    rest.remove(removed)
    short = Hand(tuple(rest), hand.melds, hand.bonus, None)
    assert removed in waits(short)
