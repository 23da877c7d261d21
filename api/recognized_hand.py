"""Read a (possibly user-corrected) recognition as the ``hand`` of a scoring request.

The photo pipeline reports what it *sees*: tiles left to right and blocks of
tiles separated by gaps (the concealed hand, each exposed meld, the bonus
tiles). Scoring needs what those blocks *mean*: which meld is a chow, a pung, a
kong, whether a kong is concealed (two face-down tiles at its ends). The web page
and the apps send the recognition back after the player corrected tiles or
regrouped them, so this module trusts nothing: every index, code and group is
checked, and a problem is reported with the group and tiles concerned so the
page can point at them.

Friendly rules: a flower or season found in any block is a bonus tile (bonus
tiles are often laid next to a meld without a gap); when the recognition has no
``groups``, each tile's ``group`` field is used, and with neither all tiles are
concealed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import ScoringError
from scoring.tiles import BACK, Tile, TileParseError, format_tiles, tile

GROUP_KINDS: tuple[str, ...] = ("concealed", "meld", "bonus")


class RecognitionError(ScoringError):
    """The recognition cannot be read as a hand.

    ``code`` is ``bad_request`` for malformed JSON (missing fields, indices that
    point nowhere) and ``illegal_hand`` for tiles grouped into something that
    is not a set. ``tiles`` are the tile indices concerned, ``group`` the group id.
    """

    code = "illegal_hand"

    def __init__(
        self, message: str, *, code: str | None = None,
        tiles: Iterable[int] = (), group: int | None = None,
    ) -> None:
        super().__init__(message, code=code)
        self.tiles: tuple[int, ...] = tuple(tiles)
        self.group = group


@dataclass(frozen=True)
class _Seen:
    """One recognised tile: its index in the recognition and the face read (or corrected)."""

    index: int
    face: Tile


@dataclass(frozen=True)
class _Block:
    id: int
    kind: str
    tiles: tuple[_Seen, ...]


def hand_from_recognition(
    recognition: Mapping[str, Any], *, winning_tile: str | None = None
) -> dict[str, Any]:
    """The ``hand`` part of a scoring request (A's contract) read from a recognition dict.

    Concealed tiles are written in compact notation in index order, melds as
    ``{"kind", "tiles", "exposed", "claimed_from"}``, bonus tiles as codes.
    """
    if not isinstance(recognition, Mapping):
        raise RecognitionError("'recognition' must be an object with 'tiles' and 'groups'.",
                               code="bad_request")
    seen = _read_tiles(recognition.get("tiles"))
    blocks = _read_blocks(recognition.get("groups"), seen)
    concealed: list[_Seen] = []
    bonus: list[_Seen] = []
    melds: list[dict[str, Any]] = []
    for block in blocks:
        faces = [t for t in block.tiles if not t.face.is_bonus]
        bonus.extend(t for t in block.tiles if t.face.is_bonus)
        if block.kind == "bonus":
            if faces:
                verb = "is not a flower or season" if len(faces) == 1 else (
                    "are not flowers or seasons")
                raise RecognitionError(
                    f"Group {block.id} holds the bonus tiles, but "
                    f"{', '.join(t.face.code for t in faces)} {verb}: "
                    "correct the tile or move it to the hand.",
                    tiles=[t.index for t in faces], group=block.id,
                )
        elif block.kind == "concealed":
            backs = [t.index for t in faces if t.face is BACK]
            if backs:
                raise RecognitionError(
                    f"Group {block.id} (the concealed hand) has a face-down tile: pick its face, "
                    "or group it with three more tiles as a concealed kong.",
                    tiles=backs, group=block.id,
                )
            concealed.extend(faces)
        elif faces:
            melds.append(_meld(block.id, faces))
    if not concealed and not melds:
        raise RecognitionError(
            "No playing tiles to score: the hand needs 14 tiles (more with kongs).",
            tiles=[t.index for t in bonus],
        )
    hand: dict[str, Any] = {
        "concealed": format_tiles(sorted(t.face for t in concealed)),
        "melds": melds,
        "bonus": [t.face.code for t in sorted(bonus, key=lambda t: t.face)],
        "winning_tile": _winning_tile(winning_tile),
    }
    return hand


def request_from_recognition(
    recognition: Mapping[str, Any],
    *,
    rules: str = "hk-a",
    options: Mapping[str, Any] | None = None,
    context: Mapping[str, Any] | None = None,
    winning_tile: str | None = None,
) -> dict[str, Any]:
    """A complete ``score_request`` request for a recognised hand."""
    request: dict[str, Any] = {
        "rules": rules,
        "hand": hand_from_recognition(recognition, winning_tile=winning_tile),
        "context": dict(context or {}),
    }
    if options:
        request["options"] = dict(options)
    return request


def _winning_tile(code: str | None) -> str | None:
    if code is None or code == "":
        return None
    if not isinstance(code, str):
        raise RecognitionError("'winning_tile' must be a tile code such as '5p'.",
                               code="bad_request")
    try:
        face = tile(code)
    except TileParseError as exc:
        raise RecognitionError(f"Winning tile: {exc}", code="bad_request") from exc
    if not face.is_playing:
        raise RecognitionError(
            f"The winning tile must be a playing tile, not {face.code} ({face.name}).",
            code="bad_request",
        )
    return face.code


def _read_tiles(raw: Any) -> dict[int, tuple[_Seen, Any]]:
    """Index -> (tile, its group field); indices must be unique non-negative integers."""
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise RecognitionError("'recognition.tiles' must be a list of tiles.", code="bad_request")
    out: dict[int, tuple[_Seen, Any]] = {}
    for position, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise RecognitionError(f"Tile #{position} must be an object with 'index' and 'code'.",
                                   code="bad_request")
        index = item.get("index", position)
        if not isinstance(index, int) or isinstance(index, bool) or index < 0:
            raise RecognitionError(f"Tile #{position}: 'index' must be a non-negative integer.",
                                   code="bad_request")
        if index in out:
            raise RecognitionError(f"Two tiles have index {index}.", code="bad_request",
                                   tiles=[index])
        out[index] = (_Seen(index, _face(index, item)), item.get("group"))
    return out


def _face(index: int, item: Mapping[str, Any]) -> Tile:
    code = item.get("code")
    if item.get("face_down") is True and code in (None, "", "none", "back"):
        return BACK
    if code in (None, "", "none"):
        raise RecognitionError(
            f"Tile {index} was not recognised as a tile: pick its face or remove it.",
            tiles=[index],
        )
    if not isinstance(code, str):
        raise RecognitionError(f"Tile {index}: 'code' must be text such as '5p'.",
                               code="bad_request", tiles=[index])
    try:
        return tile(code)
    except TileParseError as exc:
        raise RecognitionError(f"Tile {index}: {exc}", code="bad_request",
                               tiles=[index]) from exc


def _read_blocks(raw: Any, seen: dict[int, tuple[_Seen, Any]]) -> list[_Block]:
    if raw is None:
        return _blocks_from_tile_fields(seen)
    if not isinstance(raw, Sequence) or isinstance(raw, str | bytes):
        raise RecognitionError("'recognition.groups' must be a list of groups.",
                               code="bad_request")
    blocks: list[_Block] = []
    placed: dict[int, int] = {}
    for position, group in enumerate(raw):
        if not isinstance(group, Mapping):
            raise RecognitionError(f"Group #{position} must be an object with 'kind' and 'tiles'.",
                                   code="bad_request")
        gid = group.get("id", position)
        if not isinstance(gid, int) or isinstance(gid, bool):
            raise RecognitionError(f"Group #{position}: 'id' must be an integer.",
                                   code="bad_request")
        kind = group.get("kind", "concealed")
        if kind not in GROUP_KINDS:
            raise RecognitionError(
                f"Group {gid}: unknown kind {kind!r}; expected one of {', '.join(GROUP_KINDS)}.",
                code="bad_request", group=gid,
            )
        members = group.get("tiles")
        if not isinstance(members, Sequence) or isinstance(members, str | bytes):
            raise RecognitionError(f"Group {gid}: 'tiles' must be a list of tile indices.",
                                   code="bad_request", group=gid)
        tiles: list[_Seen] = []
        for index in members:
            if not isinstance(index, int) or isinstance(index, bool) or index not in seen:
                raise RecognitionError(f"Group {gid} refers to tile {index!r}, which is not in "
                                       "'tiles'.", code="bad_request", group=gid)
            if index in placed:
                raise RecognitionError(
                    f"Tile {index} is in both group {placed[index]} and group {gid}.",
                    code="bad_request", tiles=[index], group=gid,
                )
            placed[index] = gid
            tiles.append(seen[index][0])
        blocks.append(_Block(gid, kind, tuple(tiles)))
    loose = sorted(set(seen) - set(placed))
    if loose:
        blocks.append(_Block(-1, "concealed", tuple(seen[i][0] for i in loose)))
    return blocks


def _blocks_from_tile_fields(seen: dict[int, tuple[_Seen, Any]]) -> list[_Block]:
    """Without ``groups``: group 0 is the concealed hand, other numbers are melds."""
    by_group: dict[int, list[_Seen]] = {}
    for index in sorted(seen):
        face, gid = seen[index]
        key = gid if isinstance(gid, int) and not isinstance(gid, bool) else 0
        by_group.setdefault(key, []).append(face)
    return [_Block(gid, "concealed" if gid == 0 else "meld", tuple(tiles))
            for gid, tiles in sorted(by_group.items())]


def _meld(gid: int, tiles: Sequence[_Seen]) -> dict[str, Any]:
    faces = [t.face for t in tiles]
    indices = [t.index for t in tiles]
    shown = [f for f in faces if f is not BACK]
    backs = len(faces) - len(shown)
    if len(faces) == 4 and backs:
        if not shown or backs == 4:
            raise RecognitionError(
                f"Group {gid} is four face-down tiles: a concealed kong shows its face on "
                "two tiles; pick the face of one of them.", tiles=indices, group=gid,
            )
        if len(set(shown)) != 1:
            raise RecognitionError(
                f"Group {gid} looks like a concealed kong but its faces differ "
                f"({format_tiles(shown)}).", tiles=indices, group=gid,
            )
        return _meld_dict("kong", [shown[0]] * 4, exposed=False)
    if backs:
        raise RecognitionError(
            f"Group {gid} has a face-down tile but {len(faces)} tiles; only a concealed kong "
            "(four tiles) shows tiles face down.", tiles=indices, group=gid,
        )
    if len(faces) == 4:
        if len(set(faces)) == 1:
            return _meld_dict("kong", faces, exposed=True)
        raise RecognitionError(f"Group {gid} ({format_tiles(faces)}) is not a kong: a kong is "
                               "four identical tiles.", tiles=indices, group=gid)
    if len(faces) != 3:
        raise RecognitionError(
            f"Group {gid} has {len(faces)} tile{'s' if len(faces) != 1 else ''}; "
            "a meld is three tiles (chow or pung) or four (kong). "
            "Regroup it or move its tiles to the hand.", tiles=indices, group=gid,
        )
    if len(set(faces)) == 1:
        return _meld_dict("pung", faces, exposed=True)
    ordered = sorted(faces)
    if (all(f.is_suited for f in ordered) and len({f.suit for f in ordered}) == 1
            and [f.rank for f in ordered] == list(range(ordered[0].rank, ordered[0].rank + 3))):
        return _meld_dict("chow", ordered, exposed=True)
    raise RecognitionError(
        f"Group {gid} ({format_tiles(faces)}) is neither a chow (three in a row of one suit) "
        "nor a pung (three identical tiles).", tiles=indices, group=gid,
    )


def _meld_dict(kind: str, faces: Sequence[Tile], *, exposed: bool) -> dict[str, Any]:
    return {"kind": kind, "tiles": format_tiles(faces), "exposed": exposed, "claimed_from": None}
