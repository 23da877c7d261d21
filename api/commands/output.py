"""Shared output conventions of the sub-commands: text for people, ``--json`` for programs."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--json", action="store_true", help="print machine-readable JSON instead of text"
    )


def print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def fail(message: str, *, as_json: bool, code: str = "error", status: int = 2) -> int:
    """Report a user error (bad input, not a crash) and return the exit status."""
    if as_json:
        print_json({"error": {"code": code, "message": message}})
    else:
        print(f"mjlens: error: {message}", file=sys.stderr)
    return status
