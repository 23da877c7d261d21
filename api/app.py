"""The FastAPI application: the web page and the JSON API in one stateless service.

Stateless by design: nothing is kept between requests except the settings and
the per-process recognition gate, so any number of copies can run behind a load
balancer (``mjlens serve --workers N``, or several containers).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.staticfiles import StaticFiles

from api.body_limit import BodyLimitMiddleware
from api.errors import install_error_handlers
from api.recognition import Recognizer
from api.routes import router
from api.settings import Settings

STATIC_DIR = Path(__file__).resolve().parent / "static"

_DESCRIPTION = """\
Photograph a winning mahjong hand and get its score.

* `POST /api/v1/recognize`: a photo → the tiles, grouped, with outlines and confidences.
* `POST /api/v1/score`: a hand (as text, or a corrected recognition) → the score.
* `POST /api/v1/scan`: a photo and the game context → recognition and score at once.
* `GET /api/v1/rules`: the rule presets (Hong Kong lists A and B, HKOS, Italian).

Errors are always `{"error": {"code": "...", "message": "..."}}` with a stable `code`.
"""


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """At shutdown, the worker's shared load file goes (:mod:`api.workload`): uvicorn's
    worker processes end without running ``atexit``."""
    yield
    app.state.recognizer.close()


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build a fresh app; a factory so that tests and each worker get their own."""
    settings = settings or Settings()
    app = FastAPI(
        title="Mahjong Lens", version="0.1.0", description=_DESCRIPTION, lifespan=_lifespan,
        openapi_tags=[
            {"name": "photos", "description": "Recognise the tiles in a photo"},
            {"name": "scoring", "description": "Score a hand"},
            {"name": "rules", "description": "Rule presets"},
            {"name": "service", "description": "Health"},
        ],
    )
    app.state.settings = settings
    app.state.recognizer = Recognizer(settings)
    install_error_handlers(app)
    app.include_router(router)
    app.add_middleware(BodyLimitMiddleware, upload_limit=settings.max_body_bytes,
                       json_limit=settings.max_json_bytes)
    if settings.cors_origin_list:
        app.add_middleware(
            CORSMiddleware, allow_origins=settings.cors_origin_list,
            allow_methods=["GET", "POST", "OPTIONS"], allow_headers=["*"], max_age=600,
        )

    index = STATIC_DIR / "index.html"
    if STATIC_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False, response_model=None)
    async def page() -> FileResponse | HTMLResponse:
        if index.is_file():
            return FileResponse(index, media_type="text/html")
        return HTMLResponse("<!doctype html><title>Mahjong Lens</title><h1>Mahjong Lens</h1>"
                            '<p>The JSON API is documented at <a href="/docs">/docs</a>.</p>')

    return app
