"""The Italian answer as text for people at the table (``mjlens score --rules italian``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.score import not_winning_text
from scoring.tiles import WINDS


def _player_block(seat: str, p: Mapping[str, Any]) -> list[str]:
    role = "winner" if p.get("winner") else "loser"
    if p.get("given") == "score":
        return [f"{seat.capitalize()} ({role}): score given {p['points']} -> {p['score']}"]
    head = f"{seat.capitalize()} ({role})"
    if p.get("groups"):
        head += ": " + "  ".join(
            g["tiles"] + ("" if g.get("concealed") else "*") for g in p["groups"])
    out = [head]
    special = p.get("special_hand")
    if special:
        out.append(f"    special hand {special['name']} ({special['name_it']}): "
                   f"{special['value']}, paid as a limit -> score {p['score']}")
        return out
    for line in p.get("point_lines", []):
        tiles = f" {line['tiles']}" if line.get("tiles") else ""
        out.append(f"    {line['value']:>4} pts  {line['name']}{tiles}   ({line['name_it']})")
    for line in p.get("double_lines", []):
        out.append(f"    {line['value']:>4} dbl  {line['name']}   ({line['name_it']})")
    capped = ""
    if p.get("doubles_uncapped", 0) > p.get("doubles", 0):
        capped = f" (of {p['doubles_uncapped']}, capped)"
    limit = " = limit" if p.get("limit") else ""
    out.append(f"    {p['points']} points x 2^{p['doubles']} doubles{capped} = {p['raw']}"
               f"{limit} -> score {p['score']}")
    return out


def format_text(response: Mapping[str, Any]) -> str:
    """Each player's points, doubles and score, then who pays whom and the totals."""
    rules = response.get("rules")
    if not response.get("valid"):
        return not_winning_text(response)
    assumed = " (assumed: the best for the winner)" if response.get("winning_tile_assumed") else ""
    lines = [f"Rules: {rules}. {str(response['winner']).capitalize()} wins; "
             f"winning tile {response['winning_tile']}{assumed}.   (* exposed)"]
    players = response.get("players", {})
    for seat in WINDS:
        if seat in players:
            lines.extend(_player_block(seat, players[seat]))
    settlement = response["settlement"]
    matrix = settlement["matrix"]
    lines.append("Settlement (row pays column; East pays and receives double):")
    lines.append("  " + " " * 8 + "".join(f"{s:>10}" for s in WINDS))
    for payer in WINDS:
        lines.append(f"  {payer:<8}" + "".join(f"{matrix[payer][q]:>10}" for q in WINDS))
    lines.append(f"  {'net':<8}" + "".join(f"{settlement['net'][s]:>+10}" for s in WINDS))
    lines.append(f"  {'totals':<8}" + "".join(f"{settlement['totals'][s]:>10}" for s in WINDS))
    if not settlement.get("losers_settled"):
        lines.append("  (the other players' hands were not given: only the winner is paid)")
    return "\n".join(lines)
