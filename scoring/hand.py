"""What a player shows at the end of a hand, and the circumstances of the win.

These types are shared by every scoring model (Hong Kong fan and Italian
points), so they carry facts only, never rule choices: which tiles are
concealed, which sets were declared and from whose discard, which bonus tiles
were set aside, and how the winning tile arrived.

Reading a JSON request into them (:func:`hand_from_json`, :func:`context_from_json`)
raises :class:`~scoring.errors.RequestError` for malformed input; checking that
the tiles can exist on a table (:func:`check_tiles`, :func:`check_winning_hand`,
:func:`check_context`) raises :class:`~scoring.errors.IllegalHand`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring.errors import IllegalHand, RequestError
from scoring.tiles import (
    ALL_TILES,
    BACK,
    WINDS,
    Tile,
    TileInput,
    TileParseError,
    format_tiles,
    parse_tiles,
)

MELD_KINDS: tuple[str, ...] = ("chow", "pung", "kong")
"""The three kinds of declared set; a kong counts as a pung for every pattern."""

_KIND_ALIASES: dict[str, str] = {
    "chow": "chow", "chi": "chow", "sequence": "chow", "scala": "chow",
    "pung": "pung", "pong": "pung", "triplet": "pung", "tris": "pung",
    "kong": "kong", "kang": "kong", "kan": "kong", "quad": "kong", "poker": "kong",
}


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set, as laid on the table.

    ``tiles`` are the faces (a concealed kong shown with two face-down tiles is
    stored as four copies of its face). ``claimed_from`` is the seat whose
    discard completed an exposed set; liability rules need it.
    """

    kind: str
    tiles: tuple[Tile, ...]
    exposed: bool = True
    claimed_from: str | None = None

    @property
    def first(self) -> Tile:
        """The lowest tile: it names the set (``5z`` for a pung of White)."""
        return self.tiles[0]

    @property
    def is_pung_or_kong(self) -> bool:
        return self.kind != "chow"

    def __str__(self) -> str:
        state = "exposed" if self.exposed else "concealed"
        return f"{state} {self.kind} {format_tiles(self.tiles)}"


@dataclass(frozen=True, slots=True)
class Hand:
    """A player's tiles: ``concealed`` includes the winning tile.

    ``winning_tile`` may be ``None`` when the player did not say which tile
    won; the engine then tries each candidate and keeps the best reading. In a
    seven-bonus-tile win the winning tile is the eighth bonus tile, drawn by
    another player, and is not among the concealed tiles.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    bonus: tuple[Tile, ...] = ()
    winning_tile: Tile | None = None

    @classmethod
    def of(
        cls,
        concealed: TileInput,
        melds: tuple[Meld, ...] | list[Meld] = (),
        bonus: TileInput = (),
        winning_tile: str | Tile | None = None,
    ) -> Hand:
        """Build a hand from text, for code and tests: ``Hand.of("123m...", winning_tile="4s")``."""
        win: Tile | None = None
        if winning_tile is not None:
            parsed = parse_tiles(winning_tile)
            if len(parsed) != 1:
                raise RequestError(f"winning_tile must be one tile, got {winning_tile!r}")
            win = parsed[0]
        return cls(parse_tiles(concealed), tuple(melds), parse_tiles(bonus), win)

    @property
    def tiles_expected(self) -> int:
        """Concealed tiles of a complete hand: 14 less three per declared set."""
        return 14 - 3 * len(self.melds)


def meld(kind: str, tiles: TileInput, *, exposed: bool = True,
         claimed_from: str | None = None) -> Meld:
    """Build a meld from text and check it is a real set (``meld("pung", "555z")``)."""
    return _make_meld(kind, parse_tiles(tiles), exposed, claimed_from, "meld")


@dataclass(frozen=True, slots=True)
class Context:
    """How the hand was won, and what the liability rules need to know.

    Seats and winds are named ``east`` ... ``north``. The winner sits at
    ``seat_wind``; ``discarder`` is the seat that discarded the winning tile (or
    whose kong was robbed, or who drew the eighth bonus tile) and is ``None`` on
    a self-drawn win.
    """

    seat_wind: str = "east"
    round_wind: str = "east"
    self_drawn: bool = False
    discarder: str | None = None
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    heavenly: bool = False
    earthly: bool = False
    winning_tile_unseen: bool = False
    """The winning discard was a tile never seen before on the table."""
    wall_tiles_left: int | None = None
    """Tiles left in the wall when the hand was won, if known."""

    @property
    def others(self) -> tuple[str, ...]:
        """The three seats that pay the winner, in playing order."""
        return tuple(w for w in WINDS if w != self.seat_wind)


CONTEXT_FLAGS: tuple[str, ...] = (
    "self_drawn", "last_tile", "kong_replacement", "robbing_kong", "heavenly", "earthly",
    "winning_tile_unseen",
)


# --------------------------------------------------------------------------- JSON


def _tiles(value: Any, where: str) -> tuple[Tile, ...]:
    if not value and value is not False and value != 0:
        return ()  # None, "" or []
    if not isinstance(value, (str, list, tuple)):
        raise RequestError(f"{where} must be tile text or a list of tiles, "
                           f"got {type(value).__name__}")
    try:
        return parse_tiles(value)
    except TileParseError as exc:
        raise RequestError(f"{where}: {exc}") from exc


def seat(value: Any, where: str) -> str:
    """A seat or wind name; accepts ``east``, ``E``, ``1z`` and the wind tiles' names."""
    if not isinstance(value, str):
        raise RequestError(f"{where} must be one of {', '.join(WINDS)}, got {value!r}")
    key = value.strip().lower()
    short = {"e": "east", "s": "south", "w": "west", "n": "north",
             "1z": "east", "2z": "south", "3z": "west", "4z": "north",
             "east_wind": "east", "south_wind": "south", "west_wind": "west",
             "north_wind": "north", "est": "east", "sud": "south", "ovest": "west",
             "nord": "north"}
    key = short.get(key, key)
    if key not in WINDS:
        raise RequestError(f"{where} must be one of {', '.join(WINDS)}, got {value!r}")
    return key


def _bool(obj: Mapping[str, Any], key: str, where: str, default: bool = False) -> bool:
    value = obj.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise RequestError(f"{where}.{key} must be true or false, got {value!r}")
    return value


def _make_meld(kind: str, tiles: tuple[Tile, ...], exposed: bool,
               claimed_from: str | None, where: str) -> Meld:
    """Normalise face-down tiles and check that the tiles really form the set."""
    faces = tuple(t for t in tiles if t is not BACK)
    backs = len(tiles) - len(faces)
    shown = format_tiles(tiles) or "no tiles"
    if any(t.is_bonus for t in faces):
        raise IllegalHand(f"{where}: bonus tiles ({format_tiles(t for t in faces if t.is_bonus)})"
                          " are set aside, never part of a set")
    if backs:
        if kind != "kong" or len(tiles) != 4:
            raise IllegalHand(f"{where}: face-down tiles only appear in a concealed kong "
                              f"(four tiles), got {kind} {shown}")
        if not faces:
            raise IllegalHand(f"{where}: a concealed kong must show at least one face, "
                              "so we know which tile it is")
        if exposed:
            raise IllegalHand(f"{where}: a kong shown with face-down tiles is concealed; "
                              "set \"exposed\": false")
        faces = (faces[0],) * 4 if len(set(faces)) == 1 else faces
    tiles = tuple(sorted(faces))
    if kind == "chow":
        ok = (len(tiles) == 3 and tiles[0].is_suited
              and tiles[1].index == tiles[0].index + 1 and tiles[2].index == tiles[0].index + 2
              and tiles[0].suit is tiles[2].suit)
        need = "three consecutive tiles of one suit"
    elif kind == "pung":
        ok = len(tiles) == 3 and tiles[0] is tiles[2]
        need = "three identical tiles"
    else:
        ok = len(tiles) == 4 and tiles[0] is tiles[3]
        need = "four identical tiles"
    if not ok:
        raise IllegalHand(f"{where}: {shown} is not a {kind} (a {kind} is {need})")
    if claimed_from is not None and not exposed:
        raise IllegalHand(f"{where}: a concealed set cannot be claimed from a discard "
                          f"(claimed_from {claimed_from!r})")
    return Meld(kind, tiles, exposed, claimed_from)


def _infer_kind(tiles: tuple[Tile, ...]) -> str:
    faces = [t for t in tiles if t is not BACK]
    if len(tiles) == 4:
        return "kong"
    if len(faces) == 3 and len(set(faces)) == 3:
        return "chow"
    return "pung"


def meld_from_json(obj: Any, where: str = "meld") -> Meld:
    """Read ``{"kind": "pung", "tiles": "555z", "exposed": true, "claimed_from": "north"}``.

    ``kind`` may be omitted (three identical tiles are a pung, four a kong,
    three in a row a chow); ``exposed`` defaults to true unless face-down tiles
    show a concealed kong.
    """
    if not isinstance(obj, Mapping):
        raise RequestError(f"{where} must be an object with \"kind\" and \"tiles\", got {obj!r}")
    unknown = set(obj) - {"kind", "tiles", "exposed", "claimed_from"}
    if unknown:
        raise RequestError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}; "
                           "allowed: kind, tiles, exposed, claimed_from")
    tiles = _tiles(obj.get("tiles"), f"{where}.tiles")
    if not tiles:
        raise RequestError(f"{where}.tiles is required")
    raw_kind = obj.get("kind")
    if raw_kind is None:
        kind = _infer_kind(tiles)
    elif not isinstance(raw_kind, str) or raw_kind.strip().lower() not in _KIND_ALIASES:
        raise RequestError(f"{where}.kind must be one of {', '.join(MELD_KINDS)}, got {raw_kind!r}")
    else:
        kind = _KIND_ALIASES[raw_kind.strip().lower()]
    has_backs = BACK in tiles
    exposed = _bool(obj, "exposed", where, default=not has_backs)
    claimed = obj.get("claimed_from")
    claimed_from = None if claimed is None else seat(claimed, f"{where}.claimed_from")
    return _make_meld(kind, tiles, exposed, claimed_from, where)


REQUEST_FIELDS: tuple[str, ...] = ("rules", "options", "hand", "context", "players", "totals")
"""Top-level request fields; ``players`` and ``totals`` are read by the Italian model only."""


def check_request_fields(request: Any) -> None:
    """Refuse a request that is not an object or has a field no model reads (a typo
    such as ``"contex"`` would otherwise be silently ignored)."""
    if not isinstance(request, Mapping):
        raise RequestError("the request must be a JSON object with \"hand\" and \"context\"")
    unknown = set(request) - set(REQUEST_FIELDS)
    if unknown:
        raise RequestError(f"unknown request field(s) {', '.join(sorted(map(str, unknown)))}; "
                           f"allowed: {', '.join(REQUEST_FIELDS)}")


def hand_from_json(obj: Any) -> Hand:
    """Read the request's ``hand`` object (tile lists as compact text or lists)."""
    if not isinstance(obj, Mapping):
        raise RequestError("\"hand\" must be an object with at least \"concealed\"")
    unknown = set(obj) - {"concealed", "melds", "bonus", "winning_tile"}
    if unknown:
        raise RequestError(f"hand: unknown field(s) {', '.join(sorted(unknown))}; "
                           "allowed: concealed, melds, bonus, winning_tile")
    if obj.get("concealed") in (None, "", []):
        raise RequestError("hand.concealed is required "
                           "(the concealed tiles, winning tile included)")
    concealed = _tiles(obj.get("concealed"), "hand.concealed")
    raw_melds = obj.get("melds") or []
    if not isinstance(raw_melds, list):
        raise RequestError("hand.melds must be a list of melds")
    melds = tuple(meld_from_json(m, f"hand.melds[{i}]") for i, m in enumerate(raw_melds))
    bonus = _tiles(obj.get("bonus"), "hand.bonus")
    win_raw = obj.get("winning_tile")
    winning: Tile | None = None
    if win_raw not in (None, ""):
        parsed = _tiles(win_raw, "hand.winning_tile")
        if len(parsed) != 1:
            raise RequestError(f"hand.winning_tile must be exactly one tile, got {win_raw!r}")
        winning = parsed[0]
    return Hand(concealed, melds, bonus, winning)


def context_from_json(obj: Any) -> Context:
    """Read the request's ``context`` object; every field is optional."""
    if obj is None:
        obj = {}
    if not isinstance(obj, Mapping):
        raise RequestError("\"context\" must be an object")
    allowed = {"seat_wind", "round_wind", "discarder", "wall_tiles_left", *CONTEXT_FLAGS}
    unknown = set(obj) - allowed
    if unknown:
        raise RequestError(f"context: unknown field(s) {', '.join(sorted(unknown))}; "
                           f"allowed: {', '.join(sorted(allowed))}")
    flags = {k: _bool(obj, k, "context") for k in CONTEXT_FLAGS}
    discarder = obj.get("discarder")
    wall = obj.get("wall_tiles_left")
    if wall is not None and (isinstance(wall, bool) or not isinstance(wall, int) or wall < 0):
        raise RequestError(f"context.wall_tiles_left must be a whole number >= 0, got {wall!r}")
    return Context(
        seat_wind=seat(obj.get("seat_wind", "east"), "context.seat_wind"),
        round_wind=seat(obj.get("round_wind", "east"), "context.round_wind"),
        discarder=None if discarder is None else seat(discarder, "context.discarder"),
        wall_tiles_left=wall,
        **flags,
    )


def hand_to_json(hand: Hand) -> dict[str, Any]:
    """The inverse of :func:`hand_from_json`, in compact notation."""
    return {
        "concealed": format_tiles(hand.concealed),
        "melds": [
            {"kind": m.kind, "tiles": format_tiles(m.tiles), "exposed": m.exposed,
             **({"claimed_from": m.claimed_from} if m.claimed_from else {})}
            for m in hand.melds
        ],
        "bonus": [t.code for t in hand.bonus],
        "winning_tile": hand.winning_tile.code if hand.winning_tile else None,
    }


# --------------------------------------------------------------------------- checks


def tile_counts(hand: Hand) -> list[int]:
    """Copies of each of the 34 playing tiles in the whole hand (melds included)."""
    counts = [0] * 34
    for t in hand.concealed:
        if t.index < 34:
            counts[t.index] += 1
    for m in hand.melds:
        for t in m.tiles:
            counts[t.index] += 1
    return counts


def check_tiles(hand: Hand) -> None:
    """Tiles that cannot exist on a table: fifth copies, misplaced bonus or face-down tiles.

    Structural only (any number of tiles), so it also suits a loser's hand.
    """
    tile_census(hand)


def tile_census(hand: Hand) -> tuple[list[int], list[int]]:
    """:func:`check_tiles`, returning the concealed and the whole-hand counts of the 34 tiles.

    One pass over the tiles on the happy path: the API checks every photo, and
    the engine reuses the counts instead of counting again.
    """
    concealed = [0] * 34
    for t in hand.concealed:
        i = t.index
        if i >= 34:
            _misplaced(hand)
        concealed[i] += 1
    counts = concealed
    if hand.melds:
        counts = list(concealed)
        for m in hand.melds:
            for t in m.tiles:
                counts[t.index] += 1
    bonus = hand.bonus
    if bonus:
        not_bonus = [t for t in bonus if not t.is_bonus]
        if not_bonus:
            raise IllegalHand("\"bonus\" holds only flowers and seasons, "
                              f"got {format_tiles(not_bonus)}")
        if len({t.index for t in bonus}) != len(bonus):  # indices: hashing a Tile is slow
            dup = sorted({t for t in bonus if bonus.count(t) > 1})
            raise IllegalHand(f"each flower and season exists once, got {format_tiles(dup)} twice")
    if max(counts) > 4:
        over = [ALL_TILES[i] for i, c in enumerate(counts) if c > 4]
        raise IllegalHand("there are only four of each tile, this hand has "
                          + ", ".join(f"{counts[t.index]} of {t.code}" for t in over))
    if len(hand.melds) > 4:
        raise IllegalHand(f"a hand has at most four sets, got {len(hand.melds)} declared melds")
    return concealed, counts


def _misplaced(hand: Hand) -> None:
    bonus = [t for t in hand.concealed if t.is_bonus]
    if bonus:
        raise IllegalHand(f"bonus tiles ({format_tiles(bonus)}) belong in \"bonus\", "
                          "not among the concealed tiles")
    raise IllegalHand("face-down tiles belong only in a concealed kong, "
                      "not among the concealed tiles")


def flower_win_possible(hand: Hand) -> bool:
    """Seven bonus tiles plus the eighth as winning tile, or all eight bonus tiles."""
    if len(hand.bonus) == 8:
        return True
    win = hand.winning_tile
    return (len(hand.bonus) == 7 and win is not None and win.is_bonus
            and all(t is not win for t in hand.bonus))


def check_winning_hand(hand: Hand) -> tuple[list[int], list[int]]:
    """Everything that makes a claimed win impossible before looking for sets.

    A hand one tile short is reported by the caller with its waits; here it
    only passes the count check so that the caller can compute them. Returns
    the concealed and whole-hand tile counts (see :func:`tile_census`).
    """
    concealed, counts = tile_census(hand)
    expected = 14 - 3 * len(hand.melds)
    got = len(hand.concealed)
    if got != expected and got != expected - 1:
        melds = len(hand.melds)
        raise IllegalHand(
            f"wrong number of tiles: with {melds} declared set{'s' if melds != 1 else ''} "
            f"the concealed tiles (winning tile included) must be {expected}, got {got}")
    win = hand.winning_tile
    if win is None:
        return concealed, counts
    if win.index >= 34:
        if win is BACK:
            raise IllegalHand("the winning tile cannot be a face-down tile")
        if not flower_win_possible(hand):
            raise IllegalHand(f"the winning tile {win.code} is a bonus tile: that only wins "
                              "with seven bonus tiles set aside (the eighth wins)")
        return concealed, counts
    if got == expected and not concealed[win.index]:
        raise IllegalHand(f"the winning tile {win.code} is not among the concealed tiles "
                          "(the concealed tiles must include it)")
    return concealed, counts


def check_context(hand: Hand, ctx: Context) -> None:
    """Circumstances that contradict each other or the tiles (e.g. a kong draw with no kong)."""
    if ctx.self_drawn and ctx.discarder is not None:
        raise IllegalHand(f"a self-drawn win has no discarder (got discarder {ctx.discarder})")
    if not ctx.self_drawn and ctx.discarder is None:
        raise IllegalHand("a win on a discard needs \"discarder\" (the seat that discarded "
                          "the winning tile, or whose kong was robbed): it decides who pays")
    if ctx.discarder is not None and ctx.discarder == ctx.seat_wind:
        raise IllegalHand(f"the winner ({ctx.seat_wind}) cannot win on their own discard")
    if ctx.kong_replacement:
        if not ctx.self_drawn:
            raise IllegalHand("a win on a kong replacement tile is self-drawn: "
                              "set self_drawn to true")
        if not any(m.kind == "kong" for m in hand.melds):
            raise IllegalHand("a win on a kong replacement tile needs a declared kong")
    if ctx.robbing_kong:
        if ctx.self_drawn:
            raise IllegalHand("robbing a kong is a win on another player's tile, not self-drawn")
        win = hand.winning_tile
        if win is not None and win.is_playing and tile_counts(hand)[win.index] != 1:
            raise IllegalHand(f"cannot rob a kong of {win.code}: the other three copies are in "
                              "the robbed pung, so the winner can hold only the robbed tile")
    if ctx.heavenly and (ctx.seat_wind != "east" or not ctx.self_drawn or hand.melds):
        raise IllegalHand("a heavenly hand is the dealer (East) winning on the dealt tiles: "
                          "seat east, self-drawn, no declared sets")
    if ctx.earthly and (ctx.seat_wind == "east" or ctx.self_drawn or ctx.discarder != "east"
                        or hand.melds):
        raise IllegalHand("an earthly hand is a non-dealer winning on the dealer's first "
                          "discard: discarder east, not self-drawn, no declared sets")
    for i, m in enumerate(hand.melds):
        if m.claimed_from is not None and m.claimed_from == ctx.seat_wind:
            raise IllegalHand(f"hand.melds[{i}] cannot be claimed from the winner's own seat")


__all__ = [
    "CONTEXT_FLAGS",
    "MELD_KINDS",
    "Context",
    "Hand",
    "Meld",
    "check_context",
    "check_tiles",
    "check_winning_hand",
    "context_from_json",
    "flower_win_possible",
    "hand_from_json",
    "hand_to_json",
    "meld",
    "meld_from_json",
    "seat",
    "tile_census",
    "tile_counts",
]
