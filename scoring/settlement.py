"""Settlement at the table under Italian (classical Chinese) rules: everybody pays everybody.

In the Italian game every player scores the hand in front of him, so the money
does not only flow to the winner: the winner collects his score from each of
the three others, and each pair of losers settles the difference between their
two scores. East pays and receives double in every one of these exchanges, and
the winner pays no one, whatever the others scored.

Players are numbered 0-3 here (any fixed order; :mod:`scoring.game` uses the
order players sat down in, a hand request uses seat order East, South, West,
North), so that the same arithmetic serves a single hand and a whole game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

PLAYERS = 4


class SettlementError(ValueError):
    """Settlement inputs that cannot describe a hand at a four-player table."""


def round_down(value: int, unit: int) -> int:
    """Round a score down to the smallest unit in play (the seed: 10 points).

    ``unit = 1`` switches rounding off. Scores are never negative.
    """
    if unit < 1:
        raise SettlementError(f"rounding unit must be a positive integer, got {unit}")
    return value - value % unit


@dataclass(frozen=True, slots=True)
class Settlement:
    """Who pays whom after one hand.

    ``matrix[payer][payee]`` is what ``payer`` hands to ``payee`` (zero on the
    diagonal and in the direction money does not flow); ``net[p]`` is what
    player ``p`` gains (negative: loses); the nets always sum to zero.
    """

    scores: tuple[int, ...]
    winner: int | None
    east: int
    matrix: tuple[tuple[int, ...], ...]
    net: tuple[int, ...]

    def paid_to(self, payee: int) -> int:
        """Everything ``payee`` collects (before what he pays out)."""
        return sum(row[payee] for row in self.matrix)

    def paid_by(self, payer: int) -> int:
        """Everything ``payer`` hands over (before what he collects)."""
        return sum(self.matrix[payer])


def _check_player(value: int | None, what: str, *, optional: bool) -> None:
    if value is None and optional:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < PLAYERS:
        raise SettlementError(f"{what} must be a player number 0-3, got {value!r}")


def settle(
    scores: Sequence[int],
    *,
    winner: int | None,
    east: int,
    east_multiplier: int = 2,
    losers_settle: bool = True,
) -> Settlement:
    """The payment matrix of one hand.

    ``scores`` are the four players' final (already limited and rounded)
    scores. ``winner`` is ``None`` for a drawn hand, in which the classical
    game settles nothing. ``losers_settle = False`` leaves only the winner's
    collection (used when the losers' hands are unknown).
    """
    if len(scores) != PLAYERS:
        raise SettlementError(f"a settlement needs the scores of 4 players, got {len(scores)}")
    for score in scores:
        if not isinstance(score, int) or isinstance(score, bool) or score < 0:
            raise SettlementError(f"scores must be non-negative integers, got {score!r}")
    _check_player(winner, "winner", optional=True)
    _check_player(east, "east", optional=False)
    if east_multiplier < 1:
        raise SettlementError(f"east_multiplier must be at least 1, got {east_multiplier}")

    matrix = [[0] * PLAYERS for _ in range(PLAYERS)]
    net = [0] * PLAYERS

    def pay(payer: int, payee: int, amount: int) -> None:
        if east in (payer, payee):
            amount *= east_multiplier
        matrix[payer][payee] += amount
        net[payer] -= amount
        net[payee] += amount

    if winner is not None:
        losers = [p for p in range(PLAYERS) if p != winner]
        for loser in losers:
            pay(loser, winner, scores[winner])
        if losers_settle:
            for i, a in enumerate(losers):
                for b in losers[i + 1:]:
                    diff = scores[a] - scores[b]
                    if diff > 0:
                        pay(b, a, diff)
                    elif diff < 0:
                        pay(a, b, -diff)
    return Settlement(
        scores=tuple(scores),
        winner=winner,
        east=east,
        matrix=tuple(tuple(row) for row in matrix),
        net=tuple(net),
    )


def running_totals(
    settlements: Sequence[Settlement], *, start: int = 2000
) -> tuple[tuple[int, ...], ...]:
    """Each player's stake after each hand, starting from ``start`` (the seed: 2,000).

    The first row is the starting position, so a game of n hands gives n + 1 rows.
    """
    totals = [start] * PLAYERS
    rows = [tuple(totals)]
    for settlement in settlements:
        totals = [t + n for t, n in zip(totals, settlement.net, strict=True)]
        rows.append(tuple(totals))
    return tuple(rows)
