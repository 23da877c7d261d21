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


def _pungs(view: HandView) -> list[int]:
    """Tile indices of the pungs and kongs."""
    return [g.tile.index for g in view.groups if g.is_pung]


def dragon_pung(view: HandView) -> int:
    return sum(1 for g in view.groups if g.is_pung and g.tile.is_dragon)


def seat_wind_pung(view: HandView) -> int:
    return int(view.seat.index in _pungs(view))


def round_wind_pung(view: HandView) -> int:
    return int(view.round_wind.index in _pungs(view))


def _seat_number(view: HandView) -> int:
    """East owns bonus tile 1, South 2, West 3, North 4: the wind's rank."""
    return view.seat.rank


def own_flower(view: HandView) -> int:
    return int(any(t.suit is Suit.FLOWERS and t.rank == _seat_number(view) for t in view.bonus))


def own_season(view: HandView) -> int:
    return int(any(t.suit is Suit.SEASONS and t.rank == _seat_number(view) for t in view.bonus))


def all_flowers(view: HandView) -> int:
    return int(len({t for t in view.bonus if t.suit is Suit.FLOWERS}) == 4)


def all_seasons(view: HandView) -> int:
    return int(len({t for t in view.bonus if t.suit is Suit.SEASONS}) == 4)


def small_three_dragons(view: HandView) -> int:
    pair_of_dragons = any(g.kind == "pair" and g.tile.is_dragon for g in view.groups)
    return int(dragon_pung(view) == 2 and pair_of_dragons)


def big_three_dragons(view: HandView) -> int:
    return int(dragon_pung(view) == 3)


def three_concealed_pungs(view: HandView) -> int:
    return int(sum(1 for g in view.groups if g.is_pung and g.concealed) >= 3)


def no_chows(view: HandView) -> int:
    return int(not any(g.kind == "chow" for g in view.groups))


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
    return int(all(t.is_terminal_or_honour for t in view.tiles))


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
