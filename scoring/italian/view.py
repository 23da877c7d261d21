"""What the Italian scorer looks at: one player's hand read as groups of tiles.

The shared engine (:mod:`scoring.decompose`) finds the readings of a winning
hand; a loser's hand is read by :mod:`scoring.italian.loser`. Either way the
result is a :class:`HandView`, and every base point, double and special hand
is a small pure function of it, so each rule can be tested on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from scoring.tiles import ALL_TILES, Suit, Tile

GroupKind = Literal["chow", "pung", "kong", "pair"]


@dataclass(frozen=True, slots=True)
class Group:
    """A set or a pair.

    ``concealed``: formed from tiles drawn from the wall (in hand, or a declared
    concealed kong). ``tile`` is the lowest tile of a chow.
    """

    kind: GroupKind
    tile: Tile
    concealed: bool

    @property
    def is_pung(self) -> bool:
        """Pung or kong: a kong counts as a pung for every double."""
        return self.kind in ("pung", "kong")

    @property
    def size(self) -> int:
        return {"chow": 3, "pung": 3, "kong": 4, "pair": 2}[self.kind]

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind == "chow":
            return tuple(ALL_TILES[self.tile.index + i] for i in range(3))
        return (self.tile,) * self.size

    def describe(self) -> str:
        state = "concealed" if self.concealed else "exposed"
        return f"{state} {self.kind} {''.join(t.code for t in self.tiles)}"


@dataclass(frozen=True, slots=True)
class HandView:
    """One player's hand as the Italian scorer sees it.

    ``seat`` and ``round_wind`` are wind tiles (1z-4z). The flags after
    ``winner`` only matter for the winner; ``claimed`` says whether any set
    was claimed from a discard before the winning tile (the winning tile
    itself does not count), and ``winning_group`` is the index of the group
    the winning tile completed (``None`` for losers).
    """

    groups: tuple[Group, ...]
    bonus: tuple[Tile, ...]
    seat: Tile
    round_wind: Tile
    winner: bool = False
    self_drawn: bool = False
    claimed: bool = False
    winning_group: int | None = None
    single_wait: bool = False
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every playing tile, kongs counted four times."""
        return tuple(t for g in self.groups for t in g.tiles)

    @property
    def suits(self) -> frozenset[Suit]:
        return frozenset(t.suit for t in self.tiles if t.is_suited)

    @property
    def has_honours(self) -> bool:
        return any(t.is_honour for t in self.tiles)
