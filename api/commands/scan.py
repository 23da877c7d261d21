"""``mjlens scan``: recognise the tiles in a photo and score the hand.

The same context flags as ``mjlens score`` (seat, round, discarder, self-drawn,
winning tile, rules, options); the hand comes from the photo: the concealed
group, each meld (two face-down tiles in a group of four: a concealed kong) and
the bonus tiles (:mod:`api.recognized_hand`).

Exit status: 0 a winning hand, 1 not a winning hand (or no tiles found),
2 bad input, 3 no classifier model installed.
"""

from __future__ import annotations

import argparse
from typing import Any

from api.commands.output import add_json_flag, fail, print_json
from api.commands.recognize import add_photo_arguments, format_recognition, run_recognition
from api.commands.score import add_context_arguments


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "scan",
        help="recognise the tiles in a photo and score the hand",
        description="Recognise the tiles in a photo and score the hand.",
        epilog=("example:\n  mjlens scan hand.jpg --seat south --discarder east --win 5p "
                "--rules hk-a"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_photo_arguments(parser)
    add_context_arguments(parser)
    add_json_flag(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from api.commands.score import build_request, format_text
    from api.recognized_hand import RecognitionError, hand_from_recognition
    from scoring.errors import ScoringError
    from scoring.score import score_request

    recognition, status = run_recognition(args)
    if status is not None:
        return status
    seen = format_recognition(recognition)
    if not recognition.tiles:
        pattern = [w for w in recognition.warnings if w.code == "too_many_faces"]
        if pattern:
            return fail(f"{args.photo}: {pattern[0].message}", as_json=args.json,
                        code=pattern[0].code, status=1)
        return fail(f"no tiles found in {args.photo}", as_json=args.json, code="no_tiles",
                    status=1)
    try:
        # the context flags are those of ``mjlens score``: build its request, then
        # put the hand read from the photo in
        flags = argparse.Namespace(**vars(args), hand="", meld=[], bonus="", player=[])
        request = build_request(flags)
        request["hand"] = hand_from_recognition(recognition.to_dict(), winning_tile=args.win)
        response = score_request(request)
    except RecognitionError as exc:
        if args.json:
            print_json({"recognition": recognition.to_dict(), "error": {
                "code": exc.code, "message": exc.message, "tiles": list(exc.tiles)}})
            return 1
        print(seen)
        return fail(exc.message, as_json=False, code=exc.code, status=1)
    except ScoringError as exc:
        return fail(exc.message, as_json=args.json, code=exc.code)
    except ValueError as exc:
        return fail(str(exc), as_json=args.json, code="bad_request")
    if args.json:
        print_json({"recognition": recognition.to_dict(), "request": request,
                    "score": response})
    else:
        print(seen)
        print(format_text(response, request))
    return 0 if response.get("valid") else 1
