"""The one tile vocabulary of Mahjong Lens.

Every layer (classifier labels, scoring, API, web page) names tiles with the
same short codes, so that a tile read from a photo can be scored and shown
without translation tables scattered around the code base.

Codes
-----
* ``1m``-``9m`` characters (wan), ``1p``-``9p`` dots (circles), ``1s``-``9s``
  bamboo. ``0m``/``0p``/``0s`` (a red five in Japanese notation) is read as a five.
* ``1z``-``7z`` honours: East, South, West, North, White, Green, Red dragon.
* ``1f``-``4f`` flowers: plum, orchid, chrysanthemum, bamboo.
* ``1g``-``4g`` seasons: spring, summer, autumn, winter.
  (``g`` is simply the letter after ``f``; the number is the seat that owns the
  bonus tile: 1 East, 2 South, 3 West, 4 North.)
* ``back`` a face-down tile (the two hidden tiles of a declared concealed kong).

Tiles are interned: there is exactly one :class:`Tile` object per code, and
``Tile.index`` is a small integer (0-33 playing tiles, 34-41 bonus, 42 back)
that the scoring engine uses for fast counting.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache


class Suit(StrEnum):
    """The kind of a tile; the value is the code's suffix letter."""

    CHARACTERS = "m"
    DOTS = "p"
    BAMBOO = "s"
    HONOURS = "z"
    FLOWERS = "f"
    SEASONS = "g"
    BACK = "x"


class TileParseError(ValueError):
    """Raised for text that is not a tile; the message names the bad token."""

    def __init__(self, token: str, reason: str) -> None:
        self.token = token
        self.reason = reason
        super().__init__(f"unknown tile {token!r}: {reason}")


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile face. Compare and hash by code; order by ``index``."""

    index: int
    code: str
    suit: Suit
    rank: int  # 1-9 for suits, 1-7 for honours, 1-4 for bonus tiles, 0 for back
    name: str
    name_it: str
    glyph: str

    @property
    def is_suited(self) -> bool:
        return self.suit in (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO)

    @property
    def is_honour(self) -> bool:
        return self.suit is Suit.HONOURS

    @property
    def is_wind(self) -> bool:
        return self.suit is Suit.HONOURS and self.rank <= 4

    @property
    def is_dragon(self) -> bool:
        return self.suit is Suit.HONOURS and self.rank >= 5

    @property
    def is_terminal(self) -> bool:
        """A 1 or 9 of a suit (honours are not terminals)."""
        return self.is_suited and self.rank in (1, 9)

    @property
    def is_terminal_or_honour(self) -> bool:
        return self.is_terminal or self.is_honour

    @property
    def is_bonus(self) -> bool:
        return self.suit in (Suit.FLOWERS, Suit.SEASONS)

    @property
    def is_playing(self) -> bool:
        """One of the 34 tiles that form sets (not bonus, not face down)."""
        return self.index < 34

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile({self.code!r})"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index


_SUIT_NAMES = {
    Suit.CHARACTERS: ("characters", "caratteri", 0x1F007),
    Suit.BAMBOO: ("bamboo", "bambù", 0x1F010),
    Suit.DOTS: ("dots", "cerchi", 0x1F019),
}
_HONOURS = (
    ("East wind", "Vento Est", 0x1F000),
    ("South wind", "Vento Sud", 0x1F001),
    ("West wind", "Vento Ovest", 0x1F002),
    ("North wind", "Vento Nord", 0x1F003),
    ("White dragon", "Drago bianco", 0x1F006),
    ("Green dragon", "Drago verde", 0x1F005),
    ("Red dragon", "Drago rosso", 0x1F004),
)
# Unicode orders the flowers plum, orchid, bamboo, chrysanthemum; we number them
# by the seat that owns them (plum 1, orchid 2, chrysanthemum 3, bamboo 4).
_FLOWERS = (
    ("plum", "pruno", 0x1F022),
    ("orchid", "orchidea", 0x1F023),
    ("chrysanthemum", "crisantemo", 0x1F025),
    ("bamboo", "bambù", 0x1F024),
)
_SEASONS = (
    ("spring", "primavera", 0x1F026),
    ("summer", "estate", 0x1F027),
    ("autumn", "autunno", 0x1F028),
    ("winter", "inverno", 0x1F029),
)


def _build() -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for suit in (Suit.CHARACTERS, Suit.DOTS, Suit.BAMBOO):
        en, it, base = _SUIT_NAMES[suit]
        for rank in range(1, 10):
            tiles.append(
                Tile(len(tiles), f"{rank}{suit.value}", suit, rank,
                     f"{rank} {en}", f"{rank} di {it}", chr(base + rank - 1))
            )
    for rank, (en, it, cp) in enumerate(_HONOURS, start=1):
        tiles.append(Tile(len(tiles), f"{rank}z", Suit.HONOURS, rank, en, it, chr(cp)))
    for rank, (en, it, cp) in enumerate(_FLOWERS, start=1):
        tiles.append(Tile(len(tiles), f"{rank}f", Suit.FLOWERS, rank,
                          f"{en} (flower {rank})", f"{it} (fiore {rank})", chr(cp)))
    for rank, (en, it, cp) in enumerate(_SEASONS, start=1):
        tiles.append(Tile(len(tiles), f"{rank}g", Suit.SEASONS, rank,
                          f"{en} (season {rank})", f"{it} (stagione {rank})", chr(cp)))
    tiles.append(Tile(len(tiles), "back", Suit.BACK, 0, "face-down tile",
                      "tegola coperta", chr(0x1F02B)))
    return tuple(tiles)


ALL_TILES: tuple[Tile, ...] = _build()
"""All 43 tiles, indexed by ``Tile.index``."""

PLAYING_TILES: tuple[Tile, ...] = ALL_TILES[:34]
BONUS_TILES: tuple[Tile, ...] = ALL_TILES[34:42]
BACK: Tile = ALL_TILES[42]

BY_CODE: dict[str, Tile] = {t.code: t for t in ALL_TILES}

ALIASES: dict[str, str] = {
    # winds and dragons
    "east": "1z", "south": "2z", "west": "3z", "north": "4z",
    "white": "5z", "green": "6z", "red": "7z",
    "haku": "5z", "hatsu": "6z", "chun": "7z",
    "ton": "1z", "nan": "2z", "shaa": "3z", "pei": "4z",
    # flowers and seasons
    "plum": "1f", "orchid": "2f", "chrysanthemum": "3f", "bamboo": "4f",
    "spring": "1g", "summer": "2g", "autumn": "3g", "fall": "3g", "winter": "4g",
    # face down
    "back": "back", "facedown": "back",
}
ALIASES.update({t.name.lower().replace(" ", "_"): t.code for t in ALL_TILES[27:34]})
"""Also ``east_wind`` ... ``red_dragon``: the honours' full English names."""

_GROUP = re.compile(r"([0-9]+)([mpszfg])")
_SUIT_LIMIT = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 4, "g": 4}


def tile(code: str) -> Tile:
    """Look up one tile by code or English alias (case-insensitive)."""
    key = code.strip().lower().replace("-", "_").replace(" ", "_")
    if key in BY_CODE:
        return BY_CODE[key]
    if key in ALIASES:
        return BY_CODE[ALIASES[key]]
    if len(key) == 2 and key[0] == "0" and key[1] in "mps":
        return BY_CODE["5" + key[1]]  # red five
    parsed = _parse_compact(key)
    if len(parsed) == 1:
        return parsed[0]
    raise TileParseError(code, "expected one tile code such as '5p', '7z', 'east' or 'plum'")


def _parse_compact(token: str) -> list[Tile]:
    """Parse one compact group run such as ``123m456p11z``."""
    out: list[Tile] = []
    pos = 0
    for match in _GROUP.finditer(token):
        if match.start() != pos:
            break
        digits, suit = match.groups()
        for d in digits:
            rank = int(d)
            if rank == 0 and suit in "mps":
                rank = 5
            if not 1 <= rank <= _SUIT_LIMIT[suit]:
                raise TileParseError(
                    f"{d}{suit}", f"rank {d} does not exist for suit '{suit}' "
                    f"(1-{_SUIT_LIMIT[suit]})"
                )
            out.append(BY_CODE[f"{rank}{suit}"])
        pos = match.end()
    if pos != len(token) or not out:
        bad = token[pos:] or token
        raise TileParseError(
            bad, "expected compact notation (digits then m/p/s/z/f/g, e.g. '123m55z'), "
            "a tile code or an English name"
        )
    return out


TileInput = str | Tile | Iterable["str | Tile"]


def parse_tiles(tiles: TileInput) -> tuple[Tile, ...]:
    """Read tiles written any way users write them.

    Accepts a compact string (``"123m456p789s11z"``), words separated by spaces
    or commas (``"123m east east"``), a list of codes or names, or Tile objects.
    """
    if isinstance(tiles, Tile):
        return (tiles,)
    if isinstance(tiles, str):
        return _parse_text(tiles)
    out: list[Tile] = []
    for tok in tiles:
        if isinstance(tok, Tile):
            out.append(tok)
        elif isinstance(tok, str):
            out.extend(_parse_text(tok))
        else:
            raise TileParseError(repr(tok), "a tile must be given as text")
    return tuple(out)


@lru_cache(maxsize=4096)
def _parse_text(text: str) -> tuple[Tile, ...]:
    """Parse one string; cached because requests repeat the same short strings
    and parsing dominated the cost of a whole scoring request."""
    whole = re.sub(r"[\s-]+", "_", text.strip().lower())
    if whole in ALIASES:  # a multi-word name such as "red dragon"
        return (BY_CODE[ALIASES[whole]],)
    out: list[Tile] = []
    for tok in re.split(r"[\s,;]+", text):
        key = tok.strip().lower().replace("-", "_")
        if key in BY_CODE or key in ALIASES:
            out.append(tile(key))
        elif key:
            out.extend(_parse_compact(key))
    return tuple(out)


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compact notation, grouping consecutive tiles of one suit (``123m55z``).

    Face-down tiles are written as the word ``back`` between spaces.
    """
    parts: list[str] = []
    run = ""
    run_suit = ""
    for t in tiles:
        if t.suit is Suit.BACK:
            if run:
                parts.append(run + run_suit)
                run = ""
            parts.append("back")
            continue
        if run and t.suit.value != run_suit:
            parts.append(run + run_suit)
            run = ""
        run += str(t.rank)
        run_suit = t.suit.value
    if run:
        parts.append(run + run_suit)
    text = ""
    for part in parts:
        if text and (part == "back" or text.endswith("back")):
            text += " "
        text += part
    return text


def glyphs(tiles: Iterable[Tile]) -> str:
    """The tiles as Unicode mahjong glyphs, for terminals and plain-text output."""
    return "".join(t.glyph for t in tiles)


WINDS: tuple[str, ...] = ("east", "south", "west", "north")
"""Seat and round winds, in playing order; a wind's position + 1 is its rank."""


def wind_tile(wind: str) -> Tile:
    """The honour tile of a seat or round wind given by name (``"south"`` -> 2z)."""
    key = wind.strip().lower()
    if key not in WINDS:
        raise ValueError(f"unknown wind {wind!r}: expected one of {', '.join(WINDS)}")
    return ALL_TILES[27 + WINDS.index(key)]
