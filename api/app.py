"""The FastAPI application: the web page and the JSON API in one stateless service."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse


def create_app() -> FastAPI:
    """Build a fresh app; a factory so that tests and each worker get their own."""
    app = FastAPI(title="Mahjong Lens", version="0.1.0")

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/", response_class=HTMLResponse)
    def index() -> str:
        return "<!doctype html><title>Mahjong Lens</title><h1>Mahjong Lens</h1>"

    return app
