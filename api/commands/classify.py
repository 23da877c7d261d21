"""``mjlens classify CROP...``: name the tile shown in each crop image.

Why a sub-command: to check the classifier on one's own crops (a new tile set,
a misread tile) without the web app or the segmenter in the way.
"""

from __future__ import annotations

import argparse
from typing import Any

from api.commands.output import add_json_flag, fail, print_json


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "classify",
        help="name the tile shown in each crop image",
        description=(
            "Name the tile shown in each crop image (one tile face, upright or upside "
            "down, any size). Prints the tile code, confidence, top-3 and orientation."
        ),
    )
    parser.add_argument("crops", nargs="+", metavar="CROP", help="image file of one tile face")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import cv2  # heavy imports only for this command

    from vision.classify import classify

    images = []
    for path in args.crops:
        img = cv2.imread(path, cv2.IMREAD_COLOR)
        if img is None:
            return fail(f"cannot read image {path!r}", as_json=args.json, code="bad_image")
        images.append(img)
    guesses = classify(images)  # BGR, as OpenCV reads
    if args.json:
        print_json({"crops": [
            {
                "file": path,
                "tile": g.code,
                "confidence": round(g.confidence, 4),
                "orientation": g.orientation,
                "top3": [{"tile": a.code, "probability": round(a.probability, 4)} for a in g.top3],
            }
            for path, g in zip(args.crops, guesses, strict=True)
        ]})
    else:
        for path, g in zip(args.crops, guesses, strict=True):
            alts = ", ".join(f"{a.code} {a.probability:.2f}" for a in g.top3)
            print(f"{path}: {g.code} ({g.confidence:.2f}, {g.orientation} deg)  top-3: {alts}")
    return 0
