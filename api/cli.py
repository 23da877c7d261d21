"""``mjlens``: the command line of Mahjong Lens.

The parser is assembled from :mod:`api.commands`, one module per sub-command,
so that each feature owns its own arguments. Heavy imports (OpenCV,
onnxruntime, FastAPI) happen inside the commands that need them, which keeps
``mjlens score`` fast and usable with the scoring library alone.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

COMMANDS: tuple[str, ...] = ("score", "recognize", "scan", "classify", "serve")
"""Sub-command modules under :mod:`api.commands`, in the order ``--help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mjlens",
        description="Mahjong Lens: recognise the tiles of a mahjong hand in a photo and score it.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f"api.commands.{name}")
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``mjlens`` console script; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.func(args)
        sys.stdout.flush()  # (a reader gone away shows here, not at the exit's flush)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader of the output went away (``mjlens recognize hand.jpg | head``): stop
        # quietly, as Unix tools do, instead of a traceback and another at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, the status of a Unix tool in the same place
    return status


if __name__ == "__main__":
    sys.exit(main())
