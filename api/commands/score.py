"""``mjlens score``: score a hand given in compact notation, or a JSON request on standard input.

Two ways in, one engine (:func:`scoring.score.score_request`): flags build the
same JSON request the API takes, so what the command prints is what the API
would answer. ``--json`` with no hand reads a whole request from standard input.

Exit status: 0 a winning hand, 1 a hand that cannot win (with the reason and,
when one tile short, the waits), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from api.commands.output import add_json_flag, fail, print_json

_WINDS = ("east", "south", "west", "north")


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "score",
        help="score a hand given in compact notation, or a JSON request on standard input",
        description=(
            "Score a hand given in compact notation, or a JSON request on standard input. "
            "The concealed tiles include the winning tile; declared sets go in --meld."),
        epilog=(
            "examples:\n"
            "  mjlens score 111222333s789m55p --win 5p --seat south --discarder east\n"
            "  mjlens score 234p567p55z --meld pung:777z --meld chow:123p:from=north "
            "--self-drawn --rules hkos\n"
            "  echo '{\"rules\": \"hk-b\", \"hand\": {\"concealed\": \"19m19p19s1234567z1m\"}, "
            "\"context\": {\"self_drawn\": true}}' | mjlens score --json"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("hand", nargs="?",
                        help="concealed tiles incl. the winning tile, e.g. 123m456p789s55z; "
                             "omit with --json to read a request from standard input")
    parser.add_argument("--meld", action="append", default=[], metavar="KIND:TILES[:FLAGS]",
                        help="a declared set, e.g. pung:555z, chow:123m:from=north, "
                             "kong:1111p:concealed (repeatable)")
    parser.add_argument("--bonus", default="", help="flowers and seasons, e.g. plum,spring or 1f1g")
    add_context_arguments(parser)
    parser.add_argument("--player", action="append", default=[], metavar="SEAT=HAND|SCORE",
                        help="Italian rules: another seat's hand (concealed tiles, then "
                             "/KIND:TILES[:FLAGS] melds and /bonus:TILES, e.g. "
                             "west=555z11z23p/pung:111m) or its score (north=40); repeatable")
    add_json_flag(parser)
    parser.set_defaults(func=run)


def add_context_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags that describe the win rather than the tiles; ``mjlens scan`` shares them."""
    parser.add_argument("--rules", default=None,
                        help="rule preset (hk-a, hk-b, hkos, italian; default hk-a)")
    parser.add_argument("--win", metavar="TILE", help="the winning tile (default: the best one)")
    parser.add_argument("--seat", default="east", choices=_WINDS, help="winner's seat wind")
    parser.add_argument("--round", default="east", choices=_WINDS, help="round wind")
    parser.add_argument("--discarder", choices=_WINDS,
                        help="seat that discarded the winning tile (a win on a discard)")
    parser.add_argument("--self-drawn", action="store_true", help="the winning tile was drawn")
    parser.add_argument("--last-tile", action="store_true", help="won on the wall's last tile")
    parser.add_argument("--kong-replacement", action="store_true",
                        help="won on a kong replacement tile")
    parser.add_argument("--robbing-kong", action="store_true", help="won by robbing a kong")
    parser.add_argument("--heavenly", action="store_true", help="dealer won on the deal")
    parser.add_argument("--earthly", action="store_true",
                        help="won on the dealer's first discard")
    parser.add_argument("--unseen", action="store_true",
                        help="the winning discard was a tile never seen before")
    parser.add_argument("--wall-left", type=int, metavar="N", help="tiles left in the wall")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="override a rule option, e.g. min_fan=3 or fan.all_chows=2 "
                             "(VALUE is JSON; repeatable)")


def _meld(text: str) -> dict[str, Any]:
    parts = text.split(":")
    if len(parts) < 2:
        raise ValueError(f"--meld {text!r}: expected KIND:TILES, e.g. pung:555z")
    out: dict[str, Any] = {"kind": parts[0], "tiles": parts[1]}
    for flag in parts[2:]:
        key = flag.strip().lower()
        if key in ("concealed", "hidden"):
            out["exposed"] = False
        elif key in ("exposed", "open"):
            out["exposed"] = True
        elif key.startswith("from="):
            out["claimed_from"] = key[5:]
        else:
            raise ValueError(f"--meld {text!r}: unknown flag {flag!r} "
                             "(use concealed, exposed or from=SEAT)")
    return out


def _player(text: str) -> tuple[str, Any]:
    """``--player west=555z11z23p/pung:111m/bonus:1f`` or ``--player north=40``."""
    seat, sep, value = text.partition("=")
    if not sep or not value:
        raise ValueError(f"--player {text!r}: expected SEAT=TILES or SEAT=SCORE")
    if value.strip().isdigit():
        return seat.strip(), int(value)
    concealed, *parts = value.split("/")
    hand: dict[str, Any] = {"concealed": concealed, "melds": [], "bonus": ""}
    for part in parts:
        if part.startswith("bonus:"):
            hand["bonus"] = part[6:]
        else:
            hand["melds"].append(_meld(part))
    return seat.strip(), hand


def build_request(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON request the flags describe (the same shape the API takes)."""
    options: dict[str, Any] = {}
    for item in args.option:
        key, sep, raw = item.partition("=")
        if not sep:
            raise ValueError(f"--option {item!r}: expected KEY=VALUE")
        try:
            options[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            options[key.strip()] = raw
    context: dict[str, Any] = {
        "seat_wind": args.seat, "round_wind": args.round, "self_drawn": args.self_drawn,
        "last_tile": args.last_tile, "kong_replacement": args.kong_replacement,
        "robbing_kong": args.robbing_kong, "heavenly": args.heavenly, "earthly": args.earthly,
        "winning_tile_unseen": args.unseen,
    }
    if args.discarder:
        context["discarder"] = args.discarder
    if args.wall_left is not None:
        context["wall_tiles_left"] = args.wall_left
    request: dict[str, Any] = {
        "rules": args.rules or "hk-a",
        "hand": {"concealed": args.hand, "melds": [_meld(m) for m in args.meld],
                 "bonus": args.bonus, "winning_tile": args.win},
        "context": context,
    }
    if options:
        request["options"] = options
    if getattr(args, "player", None):
        request["players"] = dict(_player(p) for p in args.player)
    return request


def format_text(response: dict[str, Any], request: dict[str, Any]) -> str:
    """A readable breakdown of a fan response, for people at the table."""
    if response.get("model") == "italian":
        from scoring.italian.text import format_text as italian_text
        return italian_text(response)
    from scoring.score import not_winning_text

    if not response.get("valid"):
        return not_winning_text(response)
    ctx = request.get("context") or {}
    rules = response.get("rules")
    winner = response.get("winner", ctx.get("seat_wind", "east"))
    how = ("self-drawn" if response.get("self_drawn")
           else f"on {ctx.get('discarder', '?')}'s discard")
    win = response.get("winning_tile")
    assumed = " (assumed: the best for the winner)" if response.get("winning_tile_assumed") else ""
    lines = [f"Rules: {rules}. {winner.capitalize()} wins {how}; winning tile {win}{assumed}."]
    groups = response.get("decomposition") or []
    others = response.get("readings", 1) - 1
    lines.append("Reading: " + "  ".join(
        g["tiles"] + ("" if g.get("concealed") else "*") for g in groups)
        + ("   (* exposed)" if any(not g.get("concealed") for g in groups) else "")
        + (f"   (the best of {others + 1} readings)" if others > 0 else ""))
    width = max([len(p["name"]) for p in response.get("patterns", [])] + [10])
    for p in response.get("patterns", []):
        count = f" x{p['count']}" if p.get("count", 1) > 1 else ""
        value = "limit" if p.get("limit") else f"{p['fan']} fan"
        lines.append(f"  {(p['name'] + count).ljust(width + 3)} {value:>8}   {p['name_it']}")
    total = f"{response['fan']} fan" + (" (limit hand)" if response.get("limit") else "")
    lines.append(f"Total: {total}")
    pays = response.get("payments", {})
    lines.append("Payments to " + winner + ": " + ", ".join(
        f"{seat} {amount}" for seat, amount in pays.items())
        + f" (total {response.get('total', sum(pays.values()))})")
    if response.get("liable"):
        lines.append(f"Liability: {response['liable']} pays for all "
                     f"({response.get('liability_reason', '')})")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from scoring.errors import ScoringError
    from scoring.score import score_request

    try:
        if args.hand is None:
            if not args.json:
                return fail("give the concealed tiles (e.g. 123m456p789s11z), or --json to read a "
                            "request from standard input", as_json=False, code="bad_request")
            text = sys.stdin.read()
            try:
                request = json.loads(text)
            except json.JSONDecodeError as exc:
                return fail(f"standard input is not JSON: {exc}", as_json=True,
                            code="bad_request")
            if not isinstance(request, dict):
                return fail("the request must be a JSON object", as_json=True, code="bad_request")
        else:
            request = build_request(args)
        response = score_request(request)
    except ScoringError as exc:
        return fail(exc.message, as_json=args.json, code=exc.code)
    except ValueError as exc:
        return fail(str(exc), as_json=args.json, code="bad_request")
    if args.json:
        print_json(response)
    else:
        print(format_text(response, request))
    return 0 if response.get("valid") else 1
