"""The Italian model behind :func:`scoring.score.score_request`: a request in, a JSON answer out.

The request is the one every model shares (``hand``, ``context``, ``options``),
extended with ``players``: the other three seats, each as a hand (scored like
the winner's, without closing points) or as a number (a score counted at the
table). The answer adds every player's points, doubles and score and the
settlement among the four, and keeps the shared fields (``payments``: what
each seat pays the winner) so that clients written for Hong Kong still work.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.errors import IllegalHand, RequestError
from scoring.hand import (
    Hand,
    check_context,
    check_request_fields,
    context_from_json,
    hand_from_json,
    seat,
    tile_counts,
)
from scoring.italian.rules import ItalianRules, rules_from_mapping
from scoring.italian.scorer import PlayerScore, check_rules, score_given, score_loser, score_winner
from scoring.settlement import Settlement, settle
from scoring.tiles import ALL_TILES, WINDS

_RULES_CACHE: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[Any, ItalianRules]] = {}
_CACHE_SIZE = 64


def load_rules(preset_data: Mapping[str, Any], options: Any) -> ItalianRules:
    """The checked sheet for a preset and options, cached: every request of a table reads it.

    The key is the preset mapping's identity (the shared loader returns one
    read-only mapping per file; the cache keeps it alive, so the identity
    cannot be reused) and the options as JSON-ish text.
    """
    if options is not None and not isinstance(options, Mapping):
        raise RequestError("\"options\" must be an object of rule settings")
    key = (id(preset_data), tuple(sorted((str(k), repr(v)) for k, v in (options or {}).items())))
    hit = _RULES_CACHE.get(key)
    if hit is not None and hit[0] is preset_data:
        return hit[1]
    rules = rules_from_mapping(preset_data, options)
    check_rules(rules)
    if len(_RULES_CACHE) >= _CACHE_SIZE:
        _RULES_CACHE.pop(next(iter(_RULES_CACHE)))
    _RULES_CACHE[key] = (preset_data, rules)
    return rules


def _number(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RequestError(f"{where} must be a whole number of points >= 0, got {value!r}")
    return value


def _players(raw: Any, winner: str, round_wind: str, rules: ItalianRules
             ) -> tuple[dict[str, PlayerScore], list[tuple[str, Hand]]]:
    """The other seats' scores, and the hands among them (for the whole-table check)."""
    if not isinstance(raw, Mapping):
        raise RequestError("\"players\" must be an object mapping the other seats "
                           "(east, south, west, north) to a hand or a score")
    out: dict[str, PlayerScore] = {}
    hands: list[tuple[str, Hand]] = []
    for key, value in raw.items():
        who = seat(key, f"players key {key!r}")
        where = f"players.{who}"
        if who == winner:
            raise RequestError(f"{where}: that is the winner's seat (context.seat_wind); "
                               "the winner's tiles go in \"hand\"")
        if who in out:
            raise RequestError(f"{where} is given twice")
        if isinstance(value, Mapping) and set(value) == {"score"}:
            value = value["score"]
        if isinstance(value, Mapping):
            hand = hand_from_json(value)
            hands.append((who, hand))
            out[who] = score_loser(hand, who, round_wind, rules)
        else:
            out[who] = score_given(who, _number(value, where), rules)
    missing = [w for w in WINDS if w != winner and w not in out]
    if missing:
        raise RequestError(f"\"players\" lacks {', '.join(missing)}: give every other seat "
                           "a hand or a score (or leave \"players\" out)")
    return out, hands


def _check_table(hands: list[tuple[str, Hand]]) -> None:
    """Across the four hands there are still only four copies of each tile, one of each bonus."""
    totals = [0] * 34
    bonus: dict[str, str] = {}
    for who, hand in hands:
        for i, c in enumerate(tile_counts(hand)):
            totals[i] += c
        for t in hand.bonus:
            if t.code in bonus:
                raise IllegalHand(f"{t.code} is in both the {bonus[t.code]} and the {who} "
                                  "player's bonus tiles; there is only one")
            bonus[t.code] = who
    over = [f"{c} of {ALL_TILES[i].code}" for i, c in enumerate(totals) if c > 4]
    if over:
        raise IllegalHand("the four hands together hold more than four copies: "
                          + ", ".join(over))


def settlement_json(settlement: Settlement, *, losers_settled: bool, start: dict[str, int]
                    ) -> dict[str, Any]:
    """The matrix by seat name: ``matrix[payer][payee]``, plus nets and totals after the hand."""
    return {
        "seats": list(WINDS),
        "matrix": {WINDS[p]: {WINDS[q]: settlement.matrix[p][q] for q in range(4)}
                   for p in range(4)},
        "net": {WINDS[p]: settlement.net[p] for p in range(4)},
        "totals": {WINDS[p]: start[WINDS[p]] + settlement.net[p] for p in range(4)},
        "losers_settled": losers_settled,
    }


def _totals(raw: Any, rules: ItalianRules) -> dict[str, int]:
    if raw is None:
        return dict.fromkeys(WINDS, rules.start_points)
    if not isinstance(raw, Mapping):
        raise RequestError("\"totals\" must map each seat to its points before this hand")
    out = {seat(k, f"totals key {k!r}"): v for k, v in raw.items()}
    for w in WINDS:
        if w not in out:
            raise RequestError(f"\"totals\" lacks {w}")
        v = out[w]
        if isinstance(v, bool) or not isinstance(v, int):
            raise RequestError(f"totals.{w} must be a whole number, got {v!r}")
    return out


def score_italian(request: Mapping[str, Any], preset_data: Mapping[str, Any]) -> dict[str, Any]:
    """Score a request under an Italian preset (``preset_data``: the preset's parsed TOML).

    Raises :class:`RequestError` / :class:`~scoring.errors.RuleError` for a
    malformed request; an impossible hand answers ``"valid": false``.
    """
    check_request_fields(request)
    rules = load_rules(preset_data, request.get("options"))
    name = request.get("rules") or "italian"
    ctx = context_from_json(request.get("context"))
    start = _totals(request.get("totals"), rules)
    try:
        hand = hand_from_json(request.get("hand"))
        check_context(hand, ctx)
        winner, win_tile, assumed = score_winner(hand, ctx, rules)
        raw_players = request.get("players")
        others: dict[str, PlayerScore] | None = None
        if raw_players is not None:
            others, hands = _players(raw_players, ctx.seat_wind, ctx.round_wind, rules)
            _check_table([(ctx.seat_wind, hand), *hands])
    except IllegalHand as exc:
        return {"valid": False, "rules": name, "model": "italian", "reason": exc.message,
                "waits": list(exc.waits)}
    players = {ctx.seat_wind: winner, **(others or {})}
    scores = [players[w].score if w in players else 0 for w in WINDS]
    settled = others is not None and rules.losers_settle
    settlement = settle(scores, winner=WINDS.index(ctx.seat_wind), east=0,
                        east_multiplier=rules.east_multiplier, losers_settle=settled)
    w = WINDS.index(ctx.seat_wind)
    patterns: list[dict[str, Any]] = []
    if winner.special is not None:
        patterns.append({"name": winner.special.name, "name_it": winner.special.name_it,
                         "points": winner.special.value, "limit": True})
    patterns += [{"name": line.name, "name_it": line.name_it, "doubles": line.value}
                 for line in winner.double_lines]
    described = {s: players[s].to_dict() for s in WINDS if s in players}
    return {
        "valid": True,
        "rules": name,
        "model": "italian",
        "winner": ctx.seat_wind,
        "winning_tile": win_tile.code,
        "winning_tile_assumed": assumed,
        "points": winner.points,
        "doubles": winner.doubles,
        "score": winner.score,
        "limit": winner.limit,
        "special_hand": winner.special.key if winner.special else None,
        "patterns": patterns,
        "decomposition": described[ctx.seat_wind]["groups"],
        "payments": {WINDS[p]: settlement.matrix[p][w] for p in range(4) if p != w},
        "players": described,
        "settlement": settlement_json(settlement, losers_settled=settled, start=start),
    }
