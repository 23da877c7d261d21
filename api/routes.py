"""The JSON API (``/api/v1``) and the health check.

Routes stay thin: they validate the request's shape, hand photos to the
:class:`~api.recognition.Recognizer` (threads, bounded) and hands to
:func:`scoring.score.score_request` (in the thread pool, so a pathological hand
never blocks the event loop), and shape the answer. A hand that does not win is
an answer, not an error: ``"valid": false`` with the reason and, when one tile
short, the tiles it waits on.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Body, File, Form, Query, Request, UploadFile
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from api.errors import ApiError, from_scoring
from api.recognition import RecognizedPhoto, Recognizer
from api.recognized_hand import RecognitionError, hand_from_recognition
from api.schemas import (
    SCORE_EXAMPLES,
    ContextIn,
    ErrorResponse,
    Health,
    RecognitionResponse,
    RulesResponse,
    ScanRequest,
    ScanResponse,
    ScoreRequest,
    ScoreResponse,
)
from api.settings import Settings
from scoring.errors import ScoringError

router = APIRouter()

_ERRORS: dict[int | str, dict[str, Any]] = {
    422: {"model": ErrorResponse, "description": "Bad request: the message names the field"},
}
_PHOTO_ERRORS: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorResponse, "description": "image_too_large (bytes or pixels)"},
    415: {"model": ErrorResponse, "description": "not_an_image or unsupported_format"},
    422: {"model": ErrorResponse,
          "description": "truncated_image, no_tiles_found, too_many_tiles, bad_request"},
    503: {"model": ErrorResponse, "description": "busy: too many photos at once; see Retry-After"},
}

_PHOTO_DOC = "The photo (JPEG, PNG, WebP, HEIC, AVIF, ...), as multipart field `photo`."


def _recognizer(request: Request) -> Recognizer:
    recognizer: Recognizer = request.app.state.recognizer
    return recognizer


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


@router.get("/healthz", response_model=Health, tags=["service"],
            summary="Liveness: answers at once, even while photos are being processed")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/api/v1/rules", response_model=RulesResponse, tags=["rules"],
            summary="The rule presets and their tables, in English and Italian")
async def rules() -> dict[str, Any]:
    return {"presets": await run_in_threadpool(_all_presets)}


def _all_presets() -> list[dict[str, Any]]:
    from scoring.presets import list_presets, load_preset

    out = []
    for name in list_presets():
        try:
            preset = load_preset(name)
        except ScoringError as exc:  # a shipped preset that does not load is our bug
            raise RuntimeError(f"preset {name!r} does not load: {exc}") from exc
        data = _plain(preset)
        if not isinstance(data, dict):
            data = {"value": data}
        title = data.get("title") or data.get("name_en") or data.get("name")
        data.setdefault("title", title)
        data.setdefault("title_it", data.get("name_it") or title)
        data["name"] = name
        out.append(data)
    return out


def _plain(value: Any) -> Any:
    """Presets as JSON: dataclasses, mappings and tuples become objects and lists."""
    for method in ("to_dict", "to_json"):
        if callable(getattr(value, method, None)):
            return _plain(getattr(value, method)())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


@router.post(
    "/api/v1/score", response_model=ScoreResponse, response_model_exclude_unset=True,
    tags=["scoring"], responses=_ERRORS,
    summary="Score a hand (tiles as text, or a corrected recognition)",
)
async def score(
    body: Annotated[ScoreRequest, Body(openapi_examples=SCORE_EXAMPLES)],
) -> dict[str, Any]:
    if (body.hand is None) == (body.recognition is None):
        raise ApiError("bad_request", "Give exactly one of 'hand' (tiles as text) and "
                       "'recognition' (the tiles and groups of a photo).")
    extra = dict(body.model_extra or {})
    if body.recognition is not None:
        return await _score_recognition(
            body.recognition.model_dump(), rules=body.rules, options=body.options,
            context=body.context, winning_tile=body.winning_tile, extra=extra,
        )
    assert body.hand is not None
    hand = body.hand.model_dump(exclude_unset=True)
    if body.winning_tile and not hand.get("winning_tile"):
        hand["winning_tile"] = body.winning_tile
    return await _score({"rules": body.rules, "options": body.options, "hand": hand,
                         "context": body.context.model_dump(exclude_unset=True), **extra})


async def _score(request: dict[str, Any]) -> dict[str, Any]:
    from scoring.score import score_request

    result: dict[str, Any] = await run_in_threadpool(score_request, request)
    return {**result, "hand": request["hand"]}


async def _score_recognition(
    recognition: Mapping[str, Any], *, rules: str, options: Mapping[str, Any],
    context: ContextIn, winning_tile: str | None, extra: Mapping[str, Any],
) -> dict[str, Any]:
    try:
        hand = hand_from_recognition(recognition, winning_tile=winning_tile)
    except RecognitionError as exc:
        if exc.code != "illegal_hand":
            raise
        # The tiles are read but do not make sets: an answer for the player, not an error.
        return {"valid": False, "rules": rules, "code": exc.code, "reason": exc.message,
                **from_scoring(exc).extra, "hand": None}
    return await _score({"rules": rules, "options": dict(options), "hand": hand,
                         "context": context.model_dump(exclude_unset=True), **extra})


@router.post(
    "/api/v1/recognize", response_model=RecognitionResponse,
    response_model_exclude_unset=True, tags=["photos"], responses=_PHOTO_ERRORS,
    summary="Find and name the tiles in a photo",
    description="Returns the tiles left to right with outlines (in the photo's pixels), "
    "confidences and alternatives, their groups (concealed hand, melds, bonus tiles) and "
    "warnings. Send the result, corrected, to `/api/v1/score` as `recognition`.\n\n"
    "`curl -F photo=@hand.jpg http://127.0.0.1:8000/api/v1/recognize`",
)
async def recognize(
    request: Request,
    photo: Annotated[UploadFile, File(description=_PHOTO_DOC)],
    annotate: Annotated[bool, Query(description="Also return the annotated photo")] = False,
) -> dict[str, Any]:
    found = await _recognize(request, photo, annotate)
    out = dict(found.recognition)
    if found.annotated_image is not None:
        out["annotated_image"] = found.annotated_image
    return out


async def _recognize(request: Request, photo: UploadFile, annotate: bool) -> RecognizedPhoto:
    settings = _settings(request)
    if photo.size is not None and photo.size > settings.max_upload_bytes:
        raise ApiError("image_too_large",
                       f"The photo is {photo.size / 1e6:.1f} MB; the limit is "
                       f"{settings.max_upload_bytes / 1e6:.1f} MB.")
    found = await _recognizer(request).run(photo.file, annotate=annotate)
    warnings = found.recognition.get("warnings", [])
    if too_many := [w for w in warnings if w.get("code") == "too_many_faces"]:
        raise ApiError("too_many_tiles", too_many[0]["message"], extra={"warnings": warnings})
    if not found.recognition.get("tiles"):
        raise ApiError(
            "no_tiles_found",
            "No tiles were found in the photo. Photograph the hand from above in good light, "
            "tiles face up and filling most of the picture, on a plain table.",
            extra={"warnings": warnings},
        )
    return found


@router.post(
    "/api/v1/scan", response_model=ScanResponse, response_model_exclude_unset=True,
    tags=["photos"], responses=_PHOTO_ERRORS,
    summary="Recognise the tiles in a photo and score the hand, in one call",
    description="Multipart: `photo` and an optional `request` field holding JSON with "
    "`rules`, `options`, `winning_tile` and `context`. When the tiles do not form a winning "
    "hand, `score.valid` is false with the reason (and the tiles the hand waits on), and the "
    "recognition is returned all the same so that the player can correct it.\n\n"
    "`curl -F photo=@hand.jpg -F 'request={\"rules\": \"hk-a\", \"context\": "
    "{\"seat_wind\": \"south\", \"self_drawn\": true}}' http://127.0.0.1:8000/api/v1/scan`",
)
async def scan(
    request: Request,
    photo: Annotated[UploadFile, File(description=_PHOTO_DOC)],
    scan_request: Annotated[str | None, Form(
        alias="request", description="JSON: rules, options, winning_tile, context",
        examples=['{"rules": "hk-a", "context": {"seat_wind": "south", "self_drawn": true}}'],
    )] = None,
    annotate: Annotated[bool, Query(description="Also return the annotated photo")] = False,
) -> dict[str, Any]:
    what = _scan_request(scan_request)
    found = await _recognize(request, photo, annotate)
    recognition = dict(found.recognition)
    if found.annotated_image is not None:
        recognition["annotated_image"] = found.annotated_image
    result = await _score_recognition(
        found.recognition, rules=what.rules, options=what.options, context=what.context,
        winning_tile=what.winning_tile, extra=dict(what.model_extra or {}),
    )
    hand = result.pop("hand", None)
    return {"recognition": recognition, "hand": hand, "score": result}


def _scan_request(raw: str | None) -> ScanRequest:
    """Read the ``request`` form field before the photo is processed, to fail fast."""
    if raw is None or not raw.strip():
        return ScanRequest()
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ApiError("bad_request", f"The 'request' field is not valid JSON: {exc.msg} "
                       f"at character {exc.pos}.") from exc
    if not isinstance(data, dict):
        raise ApiError("bad_request", "The 'request' field must be a JSON object such as "
                       '{"rules": "hk-a", "context": {"seat_wind": "south"}}.')
    try:
        return ScanRequest.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "request"
        raise ApiError("bad_request", f"request.{where}: {first['msg']}") from exc
