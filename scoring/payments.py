"""Who pays the winner how much, under fan rules.

The seed's model: only the winner collects; each loser pays the base amount for
the winner's fan, the discarder pays double, and on a self-drawn win everyone
pays double. A liable player (the discard that let a dangerous hand win) pays
the whole total alone. Payment tables are named so that presets and requests
can pick them: ``seed`` (the seed document's table), ``half-spicy`` and
``spicy`` (the two common Hong Kong tables), or an explicit list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from scoring.errors import RuleError

PAYMENT_TABLES: Mapping[str, tuple[int, ...]] = {
    # fan:   0  1  2  3   4   5   6   7   8   9  10+
    "seed": (1, 2, 4, 8, 12, 16, 20, 24, 28, 32, 64),
    # Hong Kong "half-spicy" (半辣): doubles to 4 fan, then alternates x1.5 and x1.33.
    "half-spicy": (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384),
    # Hong Kong "spicy" (全銃): 2 to the power of the fan.
    "spicy": tuple(2 ** f for f in range(14)),
}
"""Base amount by fan; the last entry applies to every fan beyond it."""

HK_OPTIONS: Mapping[str, str] = {
    "min_fan": "minimum fan to win (whole number >= 0)",
    "limit_fan": "fan that makes a hand a limit hand; limit patterns count as this (>= 1)",
    "payment_table": f"one of {', '.join(PAYMENT_TABLES)}, or a list of amounts by fan",
    "base_stake": "a number > 0 that multiplies every payment",
    "liability": "true to apply the seed's liability penalties",
    "bonus_counts_for_minimum": "whether fan from flowers and seasons count toward min_fan",
}
"""The options of fan presets, with what each accepts."""


def check_payment_option(key: str, value: Any) -> Any:
    """Validate one fan-preset option; returns the value or raises :class:`RuleError`."""
    if key not in HK_OPTIONS:
        raise RuleError(f"unknown option {key!r}; allowed: {', '.join(HK_OPTIONS)}, fan.<pattern>")
    ok: bool
    if key in ("min_fan", "limit_fan"):
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= (
            0 if key == "min_fan" else 1)
    elif key == "payment_table":
        ok = (isinstance(value, str) and value in PAYMENT_TABLES) or (
            isinstance(value, list) and len(value) > 0 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0
                for v in value))
    elif key == "base_stake":
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
    else:
        ok = isinstance(value, bool)
    if not ok:
        raise RuleError(f"option {key!r}: {HK_OPTIONS[key]}; got {value!r}")
    return value


def payment_table(value: str | Sequence[float]) -> tuple[float, ...]:
    """The amounts of a named table or of an explicit list."""
    if isinstance(value, str):
        return PAYMENT_TABLES[value]
    return tuple(value)


def base_amount(fan: int, limit: bool, limit_fan: int, table: Sequence[float],
                stake: float = 1) -> float:
    """What one loser pays for ``fan`` before doubling: the table row, times the stake."""
    row = limit_fan if limit else min(fan, limit_fan)
    return table[min(row, len(table) - 1)] * stake


class Payments(NamedTuple):
    """Amounts paid to the winner by each other seat, and who (if anyone) was liable."""

    by_seat: Mapping[str, float]
    liable: str | None = None
    liability_reason: str | None = None

    @property
    def total(self) -> float:
        return sum(self.by_seat.values())


def settle(base: float, winner: str, self_drawn: bool, discarder: str | None,
           seats: Sequence[str], liable: str | None = None,
           reason: str | None = None) -> Payments:
    """Apply the doubling rules, then shift everything to the liable player if any."""
    amounts = {s: (2 * base if self_drawn or s == discarder else base)
               for s in seats if s != winner}
    if liable is not None and liable in amounts:
        total = sum(amounts.values())
        amounts = {s: (total if s == liable else 0) for s in amounts}
        return Payments(amounts, liable, reason)
    return Payments(amounts)


def plain(amount: float) -> int | float:
    """Whole amounts as ints in JSON (stakes may make them fractional)."""
    return int(amount) if float(amount).is_integer() else round(amount, 4)
