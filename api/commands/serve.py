"""``mjlens serve``: start the web page and JSON API (the product's main command).

Settings come from ``MJLENS_*`` environment variables (see :mod:`api.settings`);
the flags here set the same variables, so every worker process started by
uvicorn reads the same values. The settings are checked before anything
starts, so a typo in a limit stops the command with a message, not a worker
crash loop.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from api.commands.output import fail

_FLAG_TO_ENV = {
    "max_upload_bytes": "MJLENS_MAX_UPLOAD_BYTES",
    "max_pixels": "MJLENS_MAX_PIXELS",
    "max_concurrent_recognitions": "MJLENS_MAX_CONCURRENT_RECOGNITIONS",
    "cors_origins": "MJLENS_CORS_ORIGINS",
    "workers": "MJLENS_WORKERS",
}


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "serve", help="start the web page and JSON API",
        description="Start the Mahjong Lens web page and JSON API (bundled model, no network). "
        "Limits and CORS are read from MJLENS_* environment variables; the flags override them.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (0.0.0.0 for all interfaces)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--workers", type=int, default=None,
                        help="worker processes (default: MJLENS_WORKERS or 1); each one "
                        "recognises up to --max-concurrent-recognitions photos at once")
    parser.add_argument("--max-upload-bytes", type=int, default=None,
                        help="largest photo upload in bytes (default 20 MiB)")
    parser.add_argument("--max-pixels", type=int, default=None,
                        help="most pixels in a photo (default 50 megapixels)")
    parser.add_argument("--max-concurrent-recognitions", type=int, default=None,
                        help="recognitions at once per worker (default: number of CPUs)")
    parser.add_argument("--cors-origins", default=None,
                        help="comma-separated origins allowed to call the API from a browser")
    parser.add_argument("--proxy-headers", action="store_true",
                        help="trust X-Forwarded-* headers (behind a load balancer)")
    parser.add_argument("--log-level", default="info",
                        choices=["critical", "error", "warning", "info", "debug"])
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pydantic import ValidationError

    from api.settings import Settings

    for flag, env in _FLAG_TO_ENV.items():
        value = getattr(args, flag)
        if value is not None:
            os.environ[env] = str(value)
    try:
        settings = Settings()
    except ValidationError as exc:
        problems = "; ".join(
            f"MJLENS_{'_'.join(str(p) for p in e['loc']).upper()}: {e['msg']}"
            for e in exc.errors()
        )
        return fail(f"bad setting: {problems}", as_json=False, code="bad_setting")
    if not 1 <= args.port <= 65535:
        return fail(f"--port must be between 1 and 65535, got {args.port}", as_json=False)

    import uvicorn

    print(f"Mahjong Lens on http://{args.host}:{args.port}/  ({settings.workers} worker"
          f"{'s' if settings.workers > 1 else ''}; Ctrl+C to stop)")
    uvicorn.run(
        "api.app:create_app", factory=True, host=args.host, port=args.port,
        workers=settings.workers, log_level=args.log_level,
        proxy_headers=args.proxy_headers, forwarded_allow_ips="*" if args.proxy_headers else None,
        timeout_graceful_shutdown=30,
    )
    return 0
