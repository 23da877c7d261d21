"""``mjlens recognize``: find and name the tiles in a photo.

Not built yet: the sub-command is registered so that ``--help`` works, and
it says so plainly when run.
"""

from __future__ import annotations

import argparse
from typing import Any

from api.commands.output import add_json_flag, fail


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "recognize",
        help="find and name the tiles in a photo",
        description="Find and name the tiles in a photo.",
    )
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return fail(
        "'mjlens recognize' is not available yet", as_json=args.json, code="not_implemented"
    )
