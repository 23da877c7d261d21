"""What the Italian scorer looks at: one player's hand read as groups of tiles.

The shared engine (:mod:`scoring.decompose`) finds the readings of a winning
hand; a loser's hand is read by :mod:`scoring.italian.loser`. Either way the
result is a :class:`HandView`, and every base point, double and special hand
is a small pure function of it, so each rule can be tested on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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

    @property
    def code(self) -> str:
        """Compact notation (``555z``, ``123m``), cheaper than formatting the tiles."""
        t = self.tile
        if self.kind == "chow":
            return f"{t.rank}{t.rank + 1}{t.rank + 2}{t.suit.value}"
        return f"{str(t.rank) * self.size}{t.suit.value}"

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
    # Facts every double asks about, worked out once per view (views are scored by the dozen).
    pungs: tuple[Tile, ...] = field(init=False)
    """The tiles of the pungs and kongs (a kong counts as a pung for every double)."""
    dragon_pungs: int = field(init=False)
    concealed_pungs: int = field(init=False)
    has_chow: bool = field(init=False)
    pair: Tile | None = field(init=False)
    suits: frozenset[Suit] = field(init=False)
    has_honours: bool = field(init=False)
    all_terminals_or_honours: bool = field(init=False)

    def __post_init__(self) -> None:
        pungs: list[Tile] = []
        concealed = 0
        chow = False
        pair: Tile | None = None
        suits: set[Suit] = set()
        honours = False
        heads = True
        for g in self.groups:
            t = g.tile
            kind = g.kind
            i = t.index
            if kind == "chow":
                chow = True
                heads = False
            else:
                if kind == "pair":
                    pair = t
                else:
                    pungs.append(t)
                    concealed += g.concealed
                if i < 27 and t.rank not in (1, 9):
                    heads = False
            if i >= 27:
                honours = True
            else:
                suits.add(t.suit)
        set_ = object.__setattr__
        set_(self, "pungs", tuple(pungs))
        set_(self, "dragon_pungs", sum(1 for t in pungs if t.index >= 31))
        set_(self, "concealed_pungs", concealed)
        set_(self, "has_chow", chow)
        set_(self, "pair", pair)
        set_(self, "suits", frozenset(suits))
        set_(self, "has_honours", honours)
        set_(self, "all_terminals_or_honours", heads)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every playing tile, kongs counted four times."""
        return tuple(t for g in self.groups for t in g.tiles)
