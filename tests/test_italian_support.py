"""Shared helpers of the Italian scoring tests (no tests here): build requests, score them."""

from __future__ import annotations

from typing import Any

from scoring.italian import score_italian
from scoring.italian.rules import ItalianRules, read_preset_file, rules_from_mapping

PRESET: dict[str, Any] = read_preset_file("italian")


def rules(**options: object) -> ItalianRules:
    return rules_from_mapping(PRESET, options)


def score(
    concealed: str,
    *,
    melds: list[dict[str, Any]] | None = None,
    bonus: list[str] | str | None = None,
    win: str | None = None,
    seat: str = "south",
    round_wind: str = "east",
    self_drawn: bool = False,
    discarder: str | None = None,
    players: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    **flags: bool,
) -> dict[str, Any]:
    """Score a winner's hand; a discard win defaults to the next seat discarding."""
    if not self_drawn and discarder is None:
        discarder = "west" if seat != "west" else "north"
    request: dict[str, Any] = {
        "rules": "italian",
        "hand": {"concealed": concealed, "melds": melds or [], "bonus": bonus or [],
                 "winning_tile": win},
        "context": {"seat_wind": seat, "round_wind": round_wind, "self_drawn": self_drawn,
                    "discarder": discarder, **flags},
    }
    if players is not None:
        request["players"] = players
    if options is not None:
        request["options"] = options
    return score_italian(request, PRESET)


def pung(tiles: str, exposed: bool = True) -> dict[str, Any]:
    return {"kind": "pung", "tiles": tiles, "exposed": exposed}


def kong(tiles: str, exposed: bool = True) -> dict[str, Any]:
    return {"kind": "kong", "tiles": tiles, "exposed": exposed}


def chow(tiles: str) -> dict[str, Any]:
    return {"kind": "chow", "tiles": tiles, "exposed": True}


def lines(result: dict[str, Any], seat: str | None = None, kind: str = "double_lines"
          ) -> dict[str, int]:
    """A player's lines as {key: total value} (the winner's by default)."""
    player = result["players"][seat or result["winner"]]
    out: dict[str, int] = {}
    for line in player[kind]:
        out[line["key"]] = out.get(line["key"], 0) + line["value"]
    return out
