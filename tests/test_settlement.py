"""Settlement among four players: the issue's worked case, East doubling, zero sums."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.settlement import SettlementError, round_down, running_totals, settle

EAST, WINNER, BIG, SMALL = 0, 1, 2, 3


def test_worked_case_from_the_issue_rounding_off() -> None:
    # Losers: East 20, one with 256, one with 4; a non-East winner with 48.
    s = settle([20, 48, 256, 4], winner=WINNER, east=EAST)
    # East pays the winner 96 (double), the others 48 each: 192 in all.
    assert s.matrix[EAST][WINNER] == 96
    assert s.matrix[BIG][WINNER] == 48
    assert s.matrix[SMALL][WINNER] == 48
    assert s.paid_to(WINNER) == 192
    # East pays the 256-player (256 - 20) * 2 = 472 ...
    assert s.matrix[EAST][BIG] == 472
    # ... and receives (20 - 4) * 2 = 32 from the 4-player.
    assert s.matrix[SMALL][EAST] == 32
    # The two non-East losers settle their difference once: 256 - 4.
    assert s.matrix[SMALL][BIG] == 252
    # The winner pays no one, even though the 256-player scored more.
    assert s.paid_by(WINNER) == 0
    assert s.net == (-96 - 472 + 32, 192, 472 + 252 - 48, -32 - 48 - 252)
    assert sum(s.net) == 0


def test_east_winner_collects_double_from_everybody() -> None:
    s = settle([100, 10, 20, 30], winner=EAST, east=EAST)
    assert [s.matrix[p][EAST] for p in (1, 2, 3)] == [200, 200, 200]
    # Losers among themselves: no East involved, single differences.
    assert s.matrix[1][2] == 10
    assert s.matrix[1][3] == 20
    assert s.matrix[2][3] == 10
    assert s.net[EAST] == 600
    assert sum(s.net) == 0


def test_east_loser_pays_and_receives_double() -> None:
    s = settle([50, 100, 30, 80], winner=1, east=0)
    assert s.matrix[0][1] == 200  # East pays the winner double
    assert s.matrix[2][0] == 40  # East receives double from a lower loser
    assert s.matrix[0][3] == 60  # East pays double to a higher loser
    assert s.matrix[2][3] == 50  # no East: single


def test_equal_losers_exchange_nothing() -> None:
    s = settle([40, 40, 40, 40], winner=3, east=0)
    assert s.matrix[0][1] == s.matrix[1][0] == 0
    assert s.matrix[0][3] == 80


def test_drawn_hand_settles_nothing() -> None:
    s = settle([40, 10, 20, 30], winner=None, east=2)
    assert all(v == 0 for row in s.matrix for v in row)
    assert s.net == (0, 0, 0, 0)


def test_losers_settle_switch_leaves_only_the_winners_collection() -> None:
    s = settle([20, 48, 256, 4], winner=1, east=0, losers_settle=False)
    assert s.net == (-96, 192, -48, -48)


def test_east_multiplier_is_a_setting() -> None:
    s = settle([0, 48, 0, 0], winner=1, east=0, east_multiplier=1)
    assert s.matrix[0][1] == 48


def test_round_down_to_the_unit() -> None:
    assert round_down(256, 10) == 250
    assert round_down(259, 10) == 250
    assert round_down(260, 10) == 260
    assert round_down(9, 10) == 0
    assert round_down(257, 1) == 257
    with pytest.raises(SettlementError, match="rounding unit"):
        round_down(10, 0)


def test_running_totals_start_from_2000() -> None:
    first = settle([20, 48, 256, 4], winner=1, east=0)
    second = settle([100, 10, 20, 30], winner=0, east=0)
    rows = running_totals([first, second])
    assert rows[0] == (2000, 2000, 2000, 2000)
    assert rows[1] == tuple(2000 + n for n in first.net)
    assert rows[2] == tuple(a + n for a, n in zip(rows[1], second.net, strict=True))
    assert all(sum(row) == 8000 for row in rows)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"scores": [1, 2, 3], "winner": 0, "east": 0}, "4 players"),
        ({"scores": [1, 2, 3, -4], "winner": 0, "east": 0}, "non-negative"),
        ({"scores": [1, 2, 3, 4], "winner": 4, "east": 0}, "winner"),
        ({"scores": [1, 2, 3, 4], "winner": 0, "east": None}, "east"),
        ({"scores": [1, 2, 3, "4"], "winner": 0, "east": 0}, "non-negative integers"),
    ],
)
def test_bad_inputs_are_named(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SettlementError, match=message):
        settle(**kwargs)  # type: ignore[arg-type]


@given(
    scores=st.lists(st.integers(0, 10**6), min_size=4, max_size=4),
    winner=st.one_of(st.none(), st.integers(0, 3)),
    east=st.integers(0, 3),
)
def test_nets_sum_to_zero_and_winner_never_pays(
    scores: list[int], winner: int | None, east: int
) -> None:
    s = settle(scores, winner=winner, east=east)
    assert sum(s.net) == 0
    if winner is not None:
        assert s.paid_by(winner) == 0
        assert s.net[winner] == sum(
            scores[winner] * (2 if east in (p, winner) else 1) for p in range(4) if p != winner
        )
