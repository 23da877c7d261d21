"""Doubles ("raddoppi"): one small pure function per double.

Each function says how many times its double applies to a hand (0 when it
does not); the sheet (:mod:`scoring.italian.rules`) says how many doubles one
occurrence is worth. ``FUNDAMENTAL`` doubles count for every player,
``CLOSING`` ones for the winner only (the seed's "raddoppi fondamentali" and
"raddoppi di chiusura"). The keys are the names used in the preset file.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.italian.view import HandView
from scoring.tiles import Suit

Rule = Callable[[HandView], int]


def dragon_pung(view: HandView) -> int:
    return view.dragon_pungs


def seat_wind_pung(view: HandView) -> int:
    return int(any(t is view.seat for t in view.pungs))


def round_wind_pung(view: HandView) -> int:
    return int(any(t is view.round_wind for t in view.pungs))


def own_flower(view: HandView) -> int:
    """East owns bonus tile 1, South 2, West 3, North 4: the seat wind's rank."""
    return int(bool(view.bonus) and any(
        t.suit is Suit.FLOWERS and t.rank == view.seat.rank for t in view.bonus))


def own_season(view: HandView) -> int:
    return int(bool(view.bonus) and any(
        t.suit is Suit.SEASONS and t.rank == view.seat.rank for t in view.bonus))


def all_flowers(view: HandView) -> int:
    return int(len(view.bonus) >= 4 and len({t for t in view.bonus if t.suit is Suit.FLOWERS}) == 4)


def all_seasons(view: HandView) -> int:
    return int(len(view.bonus) >= 4 and len({t for t in view.bonus if t.suit is Suit.SEASONS}) == 4)


def small_three_dragons(view: HandView) -> int:
    """Two dragon pungs and a pair of the third dragon."""
    return int(view.dragon_pungs == 2 and view.pair is not None and view.pair.index >= 31)


def big_three_dragons(view: HandView) -> int:
    return int(view.dragon_pungs == 3)


def three_concealed_pungs(view: HandView) -> int:
    return int(view.concealed_pungs >= 3)


def no_chows(view: HandView) -> int:
    return int(not view.has_chow)


def concealed(view: HandView) -> int:
    """Nothing claimed from a discard, except perhaps the winning tile."""
    return int(not view.claimed)


def one_suit_with_honours(view: HandView) -> int:
    """"Mano pura": one suit and honours (with at least one honour; else it is one suit only)."""
    return int(len(view.suits) == 1 and view.has_honours)


def one_suit(view: HandView) -> int:
    """"Mano purissima": every tile of one suit."""
    return int(len(view.suits) == 1 and not view.has_honours)


def terminals_and_honours(view: HandView) -> int:
    return int(view.all_terminals_or_honours)


def last_tile(view: HandView) -> int:
    return int(view.last_tile)


def kong_replacement(view: HandView) -> int:
    return int(view.kong_replacement)


def robbing_kong(view: HandView) -> int:
    return int(view.robbing_kong)


def all_drawn(view: HandView) -> int:
    """"Tutto pescato": nothing claimed and the winning tile drawn too."""
    return int(not view.claimed and view.self_drawn)


FUNDAMENTAL: dict[str, Rule] = {
    "dragon_pung": dragon_pung,
    "seat_wind_pung": seat_wind_pung,
    "round_wind_pung": round_wind_pung,
    "own_flower": own_flower,
    "own_season": own_season,
    "all_flowers": all_flowers,
    "all_seasons": all_seasons,
    "small_three_dragons": small_three_dragons,
    "big_three_dragons": big_three_dragons,
    "three_concealed_pungs": three_concealed_pungs,
}

CLOSING: dict[str, Rule] = {
    "no_chows": no_chows,
    "concealed": concealed,
    "one_suit_with_honours": one_suit_with_honours,
    "one_suit": one_suit,
    "terminals_and_honours": terminals_and_honours,
    "last_tile": last_tile,
    "kong_replacement": kong_replacement,
    "robbing_kong": robbing_kong,
    "all_drawn": all_drawn,
}
