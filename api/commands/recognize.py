"""``mjlens recognize``: find and name the tiles in a photo.

Prints the tiles group by group (the concealed hand, each meld, the bonus
tiles) in the player's left-to-right order, with the tiles to check, or the
whole recognition as JSON (the API's shape) with ``--json``. ``--annotate``
writes the photo with every tile outlined and labelled.

Exit status: 0 tiles found, 1 no tiles found, 2 bad input (not a photo, ...).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from api.commands.output import add_json_flag, fail, print_json

DECODE_SIDE = 2000
"""Photos are decoded to at most this many pixels on their longest side. JPEG draft
mode decodes a 12-megapixel (4000 x 3000) photo straight at half size, several times
faster; a larger bound would make it decode at full size and shrink afterwards."""


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "recognize",
        help="find and name the tiles in a photo",
        description="Find and name the tiles in a photo of a mahjong hand.",
        epilog="example:\n  mjlens recognize hand.jpg --annotate hand-tiles.jpg",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_photo_arguments(parser)
    add_json_flag(parser)
    parser.set_defaults(func=run)


def add_photo_arguments(parser: argparse.ArgumentParser) -> None:
    """The photo and ``--annotate``, shared with ``mjlens scan``."""
    parser.add_argument("photo", type=Path, help="the photo (JPEG, PNG, WebP, HEIC, ...)")
    parser.add_argument("--annotate", type=Path, metavar="OUT",
                        help="also write the photo with the tiles outlined and labelled "
                             "(format from the extension: .jpg, .png, .webp)")


def recognize_photo(args: argparse.Namespace) -> Any:
    """Decode ``args.photo``, recognise it and write ``--annotate``; raises PhotoError,
    FileNotFoundError (no model) or OSError (cannot write)."""
    from api.recognition import read_tiles
    from vision.photo import load_photo

    photo = load_photo(args.photo, max_side=DECODE_SIDE)
    recognition = read_tiles(photo, full_size=lambda: load_photo(args.photo))
    if args.annotate is not None:
        from PIL import Image

        from vision.annotate import annotate

        Image.fromarray(annotate(photo.image, recognition)).save(args.annotate)
    return recognition


def run_recognition(args: argparse.Namespace) -> tuple[Any, int | None]:
    """The recognition, or the exit status of a reported failure."""
    from vision.photo import PhotoError

    if not args.photo.is_file():
        return None, fail(f"no such photo: {args.photo}", as_json=args.json,
                          code="not_found")
    try:
        return recognize_photo(args), None
    except PhotoError as exc:
        return None, fail(f"{args.photo}: {exc.message}", as_json=args.json, code=exc.code)
    except FileNotFoundError as exc:
        return None, fail(str(exc), as_json=args.json, code="no_model", status=3)
    except (OSError, ValueError) as exc:
        return None, fail(f"cannot write {args.annotate}: {exc}", as_json=args.json,
                          code="bad_output")


def format_tile(tile: Any) -> str:
    """``9m``, ``9m?`` to check, ``9m?(6m/3m)`` when 6m or 3m would also make a winning hand."""
    wins = "/".join(a.code for a in tile.alternatives if a.wins)
    return f"{tile.code}{'?' if tile.low_confidence else ''}{f'({wins})' if wins else ''}"


def format_recognition(recognition: Any) -> str:
    """Tiles per group, the player's left to right, ``?`` after tiles to check and
    in brackets the faces that would also make a winning hand."""
    lines = []
    for g in recognition.groups:
        tiles = [recognition.tiles[i] for i in g.tiles]
        text = " ".join(format_tile(t) for t in tiles)
        lines.append(f"row {g.row} {g.kind:<9} {text}")
    for w in recognition.warnings:
        where = f" (tiles {', '.join(str(i) for i in w.tiles)})" if w.tiles else ""
        lines.append(f"warning: {w.message}{where}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    recognition, status = run_recognition(args)
    if status is not None:
        return status
    if args.json:
        print_json(recognition.to_dict())
    else:
        print(format_recognition(recognition))
    return 0 if recognition.tiles else 1
