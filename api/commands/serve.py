"""``mjlens serve``: start the web page and JSON API (the product's main command)."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="start the web page and JSON API",
        description="Start the Mahjong Lens web page and JSON API (bundled model, no network).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--workers", type=int, default=1, help="worker processes")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    print(f"Mahjong Lens on http://{args.host}:{args.port}/  (Ctrl+C to stop)")
    uvicorn.run(
        "api.app:create_app", factory=True, host=args.host, port=args.port,
        workers=args.workers, log_level="info",
    )
    return 0
