"""Refuse oversized request bodies while they stream in, not after they are stored.

Starlette would happily spool a 10 GB upload to disk before a route could look
at it. This ASGI middleware answers 413 at once when ``Content-Length`` is too
big, and counts the bytes of bodies sent without one (chunked uploads), cutting
them off as soon as they pass the limit.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.errors import ApiError, error_response


def _too_large(limit: int, content_type: str) -> ApiError:
    if content_type.startswith("multipart/"):
        return ApiError(
            "image_too_large",
            f"The upload is larger than {limit / 1e6:.1f} MB. Send a smaller photo "
            "(phones can share a reduced-size copy).",
        )
    return ApiError("request_too_large",
                    f"The request body is larger than {limit / 1e6:.1f} MB.")


class BodyLimitMiddleware:
    """Cap multipart bodies (photos) at ``upload_limit`` bytes and all others at ``json_limit``."""

    def __init__(self, app: ASGIApp, *, upload_limit: int, json_limit: int) -> None:
        self.app = app
        self.upload_limit = upload_limit
        self.json_limit = json_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        length = headers.get("content-length")
        content_type = headers.get("content-type", "").lower()
        limit = self.upload_limit if content_type.startswith("multipart/") else self.json_limit
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                declared = -1
            if declared < 0:
                response = error_response(ApiError("bad_request", "Invalid Content-Length."))
                await response(scope, receive, send)
                return
            if declared > limit:
                await error_response(_too_large(limit, content_type))(scope, receive, send)
                return

        received = 0

        async def counting_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _too_large(limit, content_type)
            return message

        await self.app(scope, counting_receive, send)
