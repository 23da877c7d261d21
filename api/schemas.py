"""Request and response models of the JSON API, with the examples shown at ``/docs``.

The models document and validate the *shape* of requests; what the values mean
(is ``"9z"`` a tile, is this a chow) is checked by the scoring library, which
gives the better messages, so models accept any extra fields the engine may
learn (``extra="allow"``) and pass them through untouched.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

TileList = str | list[str]

_OPEN = ConfigDict(extra="allow")


class MeldIn(BaseModel):
    model_config = _OPEN
    kind: Literal["chow", "pung", "kong"] | None = Field(
        default=None, description="chow, pung or kong; omitted: inferred from the tiles")
    tiles: TileList = Field(description="The meld's tiles: '555z', '5p 5p 5p' or ['5p', ...]")
    exposed: bool | None = Field(default=None, description="False for a concealed kong")
    claimed_from: str | None = Field(default=None, description="Seat whose discard completed it")


class HandIn(BaseModel):
    model_config = _OPEN
    concealed: TileList = Field(
        description="Concealed tiles, the winning tile included (e.g. '123m456m789p234s55p')")
    melds: list[MeldIn] = Field(default_factory=list, description="Declared sets")
    bonus: TileList = Field(default_factory=list, description="Flowers and seasons")
    winning_tile: str | None = Field(
        default=None, description="The winning tile; omitted: the best reading is chosen")


class ContextIn(BaseModel):
    model_config = _OPEN
    seat_wind: str = Field(default="east",
                           description="The winner's seat: east, south, west, north")
    round_wind: str = Field(default="east", description="The prevailing wind")
    self_drawn: bool = Field(default=False, description="Won on a tile drawn from the wall")
    discarder: str | None = Field(default=None, description="Seat that discarded the winning tile")
    last_tile: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    heavenly: bool = False
    earthly: bool = False


class RecognizedTileIn(BaseModel):
    model_config = _OPEN
    index: int = Field(ge=0, description="The tile's index in the recognition")
    code: str | None = Field(default=None,
                             description="Tile code ('5p', '7z', 'back'), as corrected")
    face_down: bool = False


class GroupIn(BaseModel):
    model_config = _OPEN
    id: int
    kind: Literal["concealed", "meld", "bonus"] = "concealed"
    tiles: list[int] = Field(description="Indices of the group's tiles, left to right")


class RecognitionIn(BaseModel):
    """A recognition as ``/api/v1/recognize`` returned it, possibly corrected by the player."""

    model_config = _OPEN
    tiles: list[RecognizedTileIn]
    groups: list[GroupIn] | None = None


_HAND_EXAMPLE: dict[str, Any] = {
    "rules": "hk-a",
    "hand": {
        "concealed": "123m456m789p234s55p",
        "melds": [],
        "bonus": ["plum"],
        "winning_tile": "4s",
    },
    "context": {"seat_wind": "south", "round_wind": "east", "self_drawn": False,
                "discarder": "east"},
}
_RECOGNITION_EXAMPLE: dict[str, Any] = {
    "rules": "hk-b",
    "recognition": {
        "tiles": [{"index": i, "code": c} for i, c in enumerate(
            ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z",
             "5z", "5z", "5z", "1f"])],
        "groups": [
            {"id": 0, "kind": "concealed", "tiles": list(range(11))},
            {"id": 1, "kind": "meld", "tiles": [11, 12, 13]},
            {"id": 2, "kind": "bonus", "tiles": [14]},
        ],
    },
    "winning_tile": "2z",
    "context": {"seat_wind": "south", "round_wind": "east", "self_drawn": True},
}
_ITALIAN_EXAMPLE: dict[str, Any] = {
    "rules": "italian",
    "hand": {"concealed": "111m234p567s99s", "melds": [{"kind": "pung", "tiles": "777z"}]},
    "context": {"seat_wind": "east", "round_wind": "east", "self_drawn": True},
}

SCORE_EXAMPLES: dict[str, Any] = {
    "hand": {"summary": "A hand in compact notation (Hong Kong, list A)",
             "value": _HAND_EXAMPLE},
    "recognition": {"summary": "A recognition sent back after the player corrected it",
                    "value": _RECOGNITION_EXAMPLE},
    "italian": {"summary": "Italian rules", "value": _ITALIAN_EXAMPLE},
}


class ScoreRequest(BaseModel):
    """Score a hand: give ``hand`` (tiles as text) or ``recognition`` (what the photo showed)."""

    model_config = ConfigDict(extra="allow",
                              json_schema_extra={"examples": [_HAND_EXAMPLE]})
    rules: str = Field(default="hk-a", description="Preset: hk-a, hk-b, hkos, italian")
    options: dict[str, Any] = Field(default_factory=dict,
                                    description="Rule option overrides (see /api/v1/rules)")
    hand: HandIn | None = Field(default=None, description="The hand; or give 'recognition'")
    recognition: RecognitionIn | None = Field(default=None,
                                              description="Tiles and groups from a photo")
    winning_tile: str | None = Field(default=None,
                                     description="The winning tile (with 'recognition')")
    context: ContextIn = Field(default_factory=lambda: ContextIn())


class ScanRequest(BaseModel):
    """The form field ``request`` of ``/api/v1/scan``: everything but the tiles."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [
        {"rules": "hk-a", "context": {"seat_wind": "south", "self_drawn": True}}]})
    rules: str = "hk-a"
    options: dict[str, Any] = Field(default_factory=dict)
    winning_tile: str | None = None
    context: ContextIn = Field(default_factory=lambda: ContextIn())


class ErrorDetail(BaseModel):
    model_config = _OPEN
    code: str = Field(description="Stable machine code, e.g. not_an_image, image_too_large")
    message: str = Field(description="What went wrong and what to do, for people")


class ErrorResponse(BaseModel):
    error: ErrorDetail


class Pattern(BaseModel):
    model_config = _OPEN
    name: str
    name_it: str | None = None
    fan: int | float | str | None = None


class ScoreResponse(BaseModel):
    """The scoring library's result, plus the ``hand`` that was scored."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{
        "valid": True, "rules": "hk-a", "fan": 3, "limit": False,
        "patterns": [{"name": "Self-drawn", "name_it": "Pescata", "fan": 1}],
        "payments": {"east": 16, "west": 8, "north": 8}, "winning_tile": "4s",
        "hand": {"concealed": "123m456m789p234s55p", "melds": [], "bonus": ["1f"],
                 "winning_tile": "4s"},
    }, {"valid": False, "reason": "13 tiles: one short of a hand", "waits": ["3p", "6p"]}]})
    valid: bool
    reason: str | None = None
    waits: list[str] | None = None
    patterns: list[Pattern] | None = None
    payments: dict[str, Any] | None = None
    hand: dict[str, Any] | None = None


class TileAlternative(BaseModel):
    model_config = _OPEN
    code: str
    confidence: float
    wins: bool = Field(
        default=False, description="This face, with up to two other unsure tiles read "
        "otherwise, would also make a winning hand: a likely correction. Such faces are "
        "listed after the classifier's next two, however far down it ranked them")


class RecognizedTile(BaseModel):
    model_config = _OPEN
    index: int
    code: str
    confidence: float
    alternatives: list[TileAlternative] = Field(default_factory=list)
    orientation: int = 0
    face_down: bool = False
    sideways: bool = False
    outline: list[list[float]] = Field(description="Four corners in the photo's pixels")
    row: int = 0
    group: int = 0
    low_confidence: bool = Field(
        default=False, description="Read below 0.75 and not settled by the winning hand, "
        "or too wide to be one tile: the player should check it")


class RecognitionResponse(BaseModel):
    """What the photo shows: tiles left to right, their groups, and warnings."""

    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{
        "image": {"width": 4032, "height": 3024},
        "tiles": [{"index": 0, "code": "5p", "confidence": 0.99,
                   "alternatives": [{"code": "6p", "confidence": 0.005, "wins": False}],
                   "orientation": 0,
                   "face_down": False, "sideways": False,
                   "outline": [[812, 1400], [990, 1400], [990, 1640], [812, 1640]],
                   "row": 0, "group": 0, "low_confidence": False}],
        "groups": [{"id": 0, "row": 0, "kind": "concealed", "tiles": [0]}],
        "warnings": [{"code": "low_confidence", "message": "Check tile 3", "tiles": [3]}],
    }]})
    image: dict[str, int]
    tiles: list[RecognizedTile]
    groups: list[dict[str, Any]]
    warnings: list[dict[str, Any]]
    annotated_image: str | None = Field(
        default=None, description="data:image/jpeg;base64 URL, when annotate=true")


class ScanResponse(BaseModel):
    """Recognition and score in one; ``score.valid`` is false (with reason) for illegal hands."""

    model_config = ConfigDict(extra="allow")
    recognition: RecognitionResponse
    hand: dict[str, Any] | None = None
    score: ScoreResponse


class RulesResponse(BaseModel):
    model_config = ConfigDict(extra="allow", json_schema_extra={"examples": [{"presets": [
        {"name": "hk-a", "title": "Hong Kong (list A)", "title_it": "Hong Kong (lista A)",
         "model": "hk", "options": {"min_fan": 3}}]}]})
    presets: list[dict[str, Any]]


class Health(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [{"status": "ok"}]})
    status: Literal["ok"]
