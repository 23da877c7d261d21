"""Special hands ("grandi giochi"): the winner only, a fixed value paid as a limit.

Some of them are not four sets and a pair at all (the snake, thirteen
orphans, seven pairs), so they are recognised from the tile counts of the
whole hand; the others are standard readings with a shape (three dragon pungs,
four kongs), recognised from the readings the shared engine found. One small
pure function per hand; the keys are the names used in the preset file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scoring.italian.view import HandView

TERMINALS_AND_HONOURS: tuple[int, ...] = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
WINDS = range(27, 31)
DRAGONS = range(31, 34)
SUIT_BASES = (0, 9, 18)


@dataclass(frozen=True, slots=True)
class WholeHand:
    """The winner's hand for special-hand checks.

    ``counts``: copies of each of the 34 playing tiles, melds included.
    ``has_melds``: any declared set (a special hand of single tiles has none).
    ``claimed``: any set claimed from a discard before the winning tile.
    ``readings``: the standard readings (sets and a pair), as the scorer sees them.
    """

    counts: tuple[int, ...]
    has_melds: bool
    claimed: bool
    readings: tuple[HandView, ...]


def _seven_distinct_pairs(h: WholeHand) -> bool:
    return not h.has_melds and sum(1 for c in h.counts if c == 2) == 7 and sum(h.counts) == 14


def _present(h: WholeHand) -> list[int]:
    return [i for i, c in enumerate(h.counts) if c]


def seven_pairs_terminals_honours(h: WholeHand) -> bool:
    """Seven different pairs, all terminals and honours ("tutte coppie di testa")."""
    return _seven_distinct_pairs(h) and all(i in TERMINALS_AND_HONOURS for i in _present(h))


def seven_pairs_one_suit(h: WholeHand) -> bool:
    """Seven different pairs of one suit, no honours ("tutte coppie di colore")."""
    present = _present(h)
    return (_seven_distinct_pairs(h) and present[-1] < 27
            and present[0] // 9 == present[-1] // 9)


def little_snake(h: WholeHand) -> bool:
    """1-9 of one suit and one of each wind (13 tiles), plus a dragon or a second copy.

    The Florence club's manual makes the fourteenth tile a dragon; the issue's
    wording also lets it double one of the thirteen ("one doubled"): both count.
    """
    if h.has_melds or sum(h.counts) != 14:
        return False
    for base in SUIT_BASES:
        suit = h.counts[base:base + 9]
        winds = [h.counts[i] for i in WINDS]
        if min(suit) < 1 or min(winds) < 1:
            continue
        outside = sum(h.counts) - sum(suit) - sum(winds) - sum(h.counts[i] for i in DRAGONS)
        if outside == 0:  # 13 + 1: the fourteenth is a dragon or doubles a suit tile or wind
            return True
    return False


def dragons_gathering(h: WholeHand) -> bool:
    """Pungs (or kongs) of all three dragons plus two sets ("raduno dei dragoni").

    "Two sets" in the Florence manual is "two combinations of any kind", the
    pair being one: any standard reading with three dragon pungs.
    """
    return any(sum(1 for g in v.groups if g.is_pung and g.tile.is_dragon) == 3
               for v in h.readings)


def four_blessings(h: WholeHand) -> bool:
    """Four wind pungs and a pair, or three wind pungs, a pair of the fourth wind and a set."""
    for v in h.readings:
        winds = sum(1 for g in v.groups if g.is_pung and g.tile.is_wind)
        wind_pair = any(g.kind == "pair" and g.tile.is_wind for g in v.groups)
        if winds == 4 or (winds == 3 and wind_pair):
            return True
    return False


def thirteen_orphans(h: WholeHand) -> bool:
    """One of each terminal and honour, one of them doubled ("tredici lanterne meravigliose")."""
    return (not h.has_melds and sum(h.counts) == 14
            and all(h.counts[i] >= 1 for i in TERMINALS_AND_HONOURS)
            and sum(h.counts[i] for i in TERMINALS_AND_HONOURS) == 14)


def all_kongs(h: WholeHand) -> bool:
    """Four kongs and a pair ("tutto kong")."""
    return any(sum(1 for g in v.groups if g.kind == "kong") == 4 for v in h.readings)


def nine_gates(h: WholeHand) -> bool:
    """1112345678999 of one suit, concealed, plus any tile of that suit."""
    if h.has_melds or sum(h.counts) != 14:
        return False
    for base in SUIT_BASES:
        suit: Sequence[int] = h.counts[base:base + 9]
        if sum(suit) == 14 and suit[0] >= 3 and suit[8] >= 3 and min(suit[1:8]) >= 1:
            return True
    return False


SPECIAL: dict[str, Callable[[WholeHand], bool]] = {
    "seven_pairs_terminals_honours": seven_pairs_terminals_honours,
    "seven_pairs_one_suit": seven_pairs_one_suit,
    "little_snake": little_snake,
    "dragons_gathering": dragons_gathering,
    "four_blessings": four_blessings,
    "thirteen_orphans": thirteen_orphans,
    "all_kongs": all_kongs,
    "nine_gates": nine_gates,
}
