"""Every failure of the API as ``{"error": {"code", "message"}}`` with the right status.

Apps branch on ``code`` (stable, snake_case), people read ``message``. The web
page and the apps must never see a stack trace or an HTML error page, whatever
they send: request validation, photo decoding, scoring and routing errors all
come through here, and anything unexpected becomes a bare ``internal_error``
(logged with its traceback on the server only).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from scoring.errors import ScoringError
from vision.photo import PhotoError

log = logging.getLogger("mjlens.api")

STATUS_BY_CODE: Mapping[str, int] = {
    "not_an_image": 415,
    "unsupported_format": 415,
    "image_too_large": 413,
    "request_too_large": 413,
    "truncated_image": 422,
    "no_tiles_found": 422,
    "too_many_tiles": 422,
    "illegal_hand": 422,
    "bad_request": 422,
    "bad_rule_option": 422,
    "unknown_rules": 422,
    "busy": 503,
    "not_found": 404,
    "method_not_allowed": 405,
    "internal_error": 500,
}
"""The status of each stable error code; anything a client did wrong is a 4xx."""

_HTTP_CODES: Mapping[int, tuple[str, str]] = {
    404: ("not_found", "There is nothing at this address; the API lives under /api/v1/."),
    405: ("method_not_allowed", "This address does not accept this HTTP method."),
    413: ("request_too_large", "The request body is too large."),
}


class ApiError(Exception):
    """An error raised by the routes; ``extra`` adds fields (e.g. the tiles concerned)."""

    def __init__(self, code: str, message: str, *, extra: Mapping[str, Any] | None = None,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = dict(extra or {})
        self.headers = dict(headers or {})

    @property
    def status(self) -> int:
        return STATUS_BY_CODE.get(self.code, 400)


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, **extra}}


def error_response(error: ApiError) -> JSONResponse:
    return JSONResponse(error_body(error.code, error.message, **error.extra),
                        status_code=error.status, headers=error.headers or None)


def from_scoring(exc: ScoringError) -> ApiError:
    extra: dict[str, Any] = {}
    for name in ("tiles", "group", "waits"):
        value = getattr(exc, name, None)
        if value not in (None, (), []):
            extra[name] = list(value) if isinstance(value, tuple) else value
    code = exc.code if exc.code in STATUS_BY_CODE else "bad_request"
    return ApiError(code, exc.message, extra=extra)


def from_photo(exc: PhotoError) -> ApiError:
    return ApiError(exc.code if exc.code in STATUS_BY_CODE else "not_an_image", exc.message)


def _validation_message(errors: Sequence[Any]) -> str:
    """Name each bad field the way a person would find it in the request."""
    by_field: dict[str, str] = {}
    for err in errors:
        # Drop the request part and pydantic's union-branch tags ("str", "list[str]").
        loc = [str(p) for p in err.get("loc", ())
               if p not in ("body", "query", "path", "form") and not _is_type_tag(p)]
        where = ".".join(loc) or "request"
        msg = str(err.get("msg", "invalid value"))
        if err.get("type") == "json_invalid":
            where, msg = "body", "is not valid JSON"
        elif "Expected UploadFile" in msg:
            msg = "must be a file upload (multipart/form-data), not text"
        if where in by_field:  # several union branches failed: one line per field
            if msg not in by_field[where]:
                by_field[where] += f", or {msg[0].lower()}{msg[1:]}"
        else:
            by_field[where] = msg
    parts = [f"{where}: {msg}" for where, msg in list(by_field.items())[:5]]
    more = len(by_field) - 5
    return "; ".join(parts) + (f" (and {more} more)" if more > 0 else "")


def _is_type_tag(part: object) -> bool:
    return isinstance(part, str) and (
        "[" in part or part in {"str", "int", "float", "bool", "list", "dict", "none"}
        or part.startswith(("function-", "literal"))
    )


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn every failure into the JSON error shape."""

    @app.exception_handler(ApiError)
    async def _api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc)

    @app.exception_handler(PhotoError)
    async def _photo_error(_: Request, exc: PhotoError) -> JSONResponse:
        return error_response(from_photo(exc))

    @app.exception_handler(ScoringError)
    async def _scoring_error(_: Request, exc: ScoringError) -> JSONResponse:
        return error_response(from_scoring(exc))

    @app.exception_handler(RequestValidationError)
    async def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(ApiError("bad_request", _validation_message(exc.errors())))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if isinstance(exc.__cause__, ApiError):  # FastAPI wraps errors raised while parsing
            return error_response(exc.__cause__)
        code, message = _HTTP_CODES.get(exc.status_code, ("bad_request", str(exc.detail)))
        status = exc.status_code if exc.status_code < 500 else 500
        headers = dict(exc.headers or {})
        return JSONResponse(error_body(code, message), status_code=status,
                            headers=headers or None)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path,
                      exc_info=exc)
        return JSONResponse(
            error_body("internal_error", "Something went wrong on our side; the error has been "
                       "logged. Try again, or send a different photo."),
            status_code=500,
        )
