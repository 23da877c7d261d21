"""The one entry point of the scoring library: a JSON request in, a JSON response out.

The CLI, the HTTP API, the web page and mobile apps all speak this contract,
so it lives here rather than in any of them. The preset's ``model`` picks the
engine: ``hk`` (fan, :mod:`scoring.hongkong`) or ``italian`` (points and
doubles, ``scoring.italian.score_italian``).

Request::

    {"rules": "hk-a", "options": {"min_fan": 3},
     "hand": {"concealed": "123m456m789p234s55p",
              "melds": [{"kind": "pung", "tiles": "555z", "exposed": true,
                         "claimed_from": "north"}],
              "bonus": ["plum"], "winning_tile": "4s"},
     "context": {"seat_wind": "south", "round_wind": "east", "self_drawn": false,
                 "discarder": "east", "last_tile": false, "kong_replacement": false,
                 "robbing_kong": false, "heavenly": false, "earthly": false,
                 "winning_tile_unseen": false, "wall_tiles_left": 40}}

Response (winning hand)::

    {"valid": true, "rules": "hk-a", "fan": 3, "limit": false,
     "patterns": [{"id": "...", "name": "...", "name_it": "...", "fan": 1, "count": 1}],
     "payments": {"east": 16, "west": 8, "north": 8}, "decomposition": [...],
     "winning_tile": "4s", "winning_tile_assumed": false, ...}

An illegal hand is an answer, not an error: ``{"valid": false, "reason": "...",
"waits": ["3p", "6p"]}`` (``waits`` when the hand is one tile short).
Malformed requests raise :class:`~scoring.errors.RequestError`, unknown rules or
options :class:`~scoring.errors.RuleError`.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from scoring.errors import IllegalHand, RequestError, RuleError
from scoring.hand import Context, Hand, check_request_fields, context_from_json, hand_from_json
from scoring.hongkong import score_hk, score_to_json
from scoring.presets import Preset, load_preset, read_preset_data

DEFAULT_RULES = "hk-a"


def invalid(reason: str, rules: str | None, waits: tuple[str, ...] = (),
            **extra: Any) -> dict[str, Any]:
    """The response for a hand that cannot win."""
    out: dict[str, Any] = {"valid": False, "rules": rules, "reason": reason}
    if waits:
        out["waits"] = list(waits)
    out.update(extra)
    return out


def score_parsed(hand: Hand, ctx: Context, preset: Preset,
                 ) -> dict[str, Any]:
    """Score already-parsed parts under a fan (``hk``) preset.

    :class:`IllegalHand` from the engine becomes ``"valid": false``.
    """
    if preset.model != "hk":
        raise RequestError(f"{preset.name} is an {preset.model} preset: score it with "
                           "score_request (it needs the whole request)")
    try:
        scored = score_hk(hand, ctx, preset)
        assumed = hand.winning_tile is None and scored.winning_tile is not None
        return score_to_json(scored, hand, ctx, preset, assumed=assumed)
    except IllegalHand as exc:
        return invalid(exc.message, preset.name, exc.waits)


def score_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Score a JSON request (already decoded); see the module docstring for the shapes."""
    check_request_fields(request)
    if "hand" not in request:
        raise RequestError("the request needs \"hand\" (with at least \"concealed\")")
    rules = request.get("rules") or DEFAULT_RULES
    if not isinstance(rules, str):
        raise RuleError(f"\"rules\" must be a preset name, got {rules!r}", code="unknown_rules")
    data = read_preset_data(rules)
    if data.get("model") == "italian":
        # The hook of the Italian model: it reads the whole request (players,
        # totals, its own dotted options) and answers in the same JSON shape.
        italian = importlib.import_module("scoring.italian")
        answer: dict[str, Any] = italian.score_italian(request, data)
        return answer
    preset = load_preset(rules, request.get("options"))
    try:
        hand = hand_from_json(request["hand"])
    except IllegalHand as exc:
        return invalid(exc.message, preset.name, exc.waits)
    ctx = context_from_json(request.get("context"))
    return score_parsed(hand, ctx, preset)


def score_hand(hand: Hand, ctx: Context | None = None, rules: str = DEFAULT_RULES,
               options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Python convenience: score a :class:`Hand` under a preset name."""
    return score_parsed(hand, ctx or Context(), load_preset(rules, options))


def not_winning_text(response: Mapping[str, Any]) -> str:
    """The plain-text answer for a hand that does not win, the same under every model:
    the reason and, when one tile short, the tiles it waits on."""
    lines = [f"Not a winning hand ({response.get('rules')}): {response.get('reason')}"]
    if response.get("waits"):
        lines.append("Waits on: " + " ".join(response["waits"]))
    return "\n".join(lines)
