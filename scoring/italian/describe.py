"""The Italian section of the players' rules document, written from the preset file.

Generated rather than hand-written so that the document and the sheet the
engine scores with can never disagree (``scoring/rules_doc.py`` calls this).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scoring.italian.rules import Entry, rules_from_mapping

_TABLES = (
    ("closing_points", "Closing points (winner only)", "Punti di chiusura (solo chi chiude)",
     "points"),
    ("doubles", "Fundamental doubles (every player)", "Raddoppi fondamentali (tutti)",
     "doubles"),
    ("closing_doubles", "Closing doubles (winner only)", "Raddoppi di chiusura (solo chi chiude)",
     "doubles"),
)


def _row(entry: Entry, value: str) -> str:
    return f"| {entry.name} | {entry.name_it} | {value} | {entry.source} |"


def _as_doubled(limit: int, doubles: int) -> str:
    """The limit read as base points at the most doubles (the seed's 90 x 2^12), when exact."""
    base, rest = divmod(limit, 1 << doubles)
    return f" = {base} points x 2^{doubles}" if base and not rest else ""


def describe(preset: Mapping[str, Any], heading: str = "##") -> str:
    """Markdown for one Italian preset: settings, every table, and how a hand is counted."""
    r = rules_from_mapping(preset)
    out = [
        f"{heading} {r.name} ({r.name_it})",
        "",
        r.description,
        "",
        f"*{r.description_it}*",
        "",
        "How a hand is counted: base points (every player) plus, for the winner, closing "
        "points; then doubled once per double (fundamental doubles for every player, closing "
        f"doubles for the winner), at most {r.max_doubles} doubles; the score is capped at "
        f"the limit of {r.limit:,} and rounded down to {r.unit}. "
        "Special hands are worth a fixed value, paid as a limit, with no further doubles; "
        "the winner is paid the better of the special value and the ordinary count. "
        "A loser shows his declared sets, the pungs among his concealed tiles (four "
        "undeclared copies are a pung) and the one pair that scores most.",
        "",
        "Settlement: the winner collects his score from each player; each pair of losers "
        "settles the difference of their scores; the winner pays no one; East pays and "
        f"receives {r.east_multiplier} times.",
        "",
        f"{heading}# Settings",
        "",
        "| setting | value |",
        "|---|---|",
        f"| starting points | {r.start_points:,} |",
        f"| smallest unit (rounded down) | {r.unit} |",
        f"| most doubles in a hand | {r.max_doubles} |",
        f"| limit | {r.limit:,}{_as_doubled(r.limit, r.max_doubles)} (East: "
        f"{r.limit * r.east_multiplier:,} from each player, "
        f"{r.limit * r.east_multiplier * 3:,} in one hand) |",
        f"| East pays and receives | x{r.east_multiplier} |",
        f"| East keeps the seat after winning | {'yes' if r.east_keeps_seat_after_win else 'no'} |",
        f"| East keeps the seat after a drawn hand | "
        f"{'yes' if r.east_keeps_seat_after_draw else 'no'} |",
        f"| flowers and seasons in play | {'yes' if r.bonus_tiles else 'no'} |",
        f"| rounds in a game | {r.rounds} |",
        "",
        f"{heading}# Base points (every player)",
        "",
        "| set | exposed | concealed |",
        "|---|---|---|",
    ]
    for head, label in ((False, "simples (2-8)"), (True, "terminals and honours")):
        for kong in (False, True):
            kind = "kong" if kong else "pung"
            exposed = r.set_points(terminal_or_honour=head, kong=kong, concealed=False)
            hidden = r.set_points(terminal_or_honour=head, kong=kong, concealed=True)
            out.append(f"| {kind} of {label} | {exposed} | {hidden} |")
    out += ["", "| item | Italiano | points | source |", "|---|---|---|---|"]
    for key in ("chow", "pair_dragon", "pair_seat_wind", "pair_round_wind", "bonus_tile"):
        entry = r.points[key]
        out.append(_row(entry, str(entry.value)))
    for section, title, title_it, unit in _TABLES:
        out += ["", f"{heading}# {title} / {title_it}", "",
                f"| item | Italiano | {unit} | source |", "|---|---|---|---|"]
        out += [_row(e, str(e.value)) for e in r.section(section).values()]
    out += ["", f"{heading}# Special hands / Grandi giochi (winner only, paid as a limit)", "",
            "| hand | Italiano | value (East) | source |", "|---|---|---|---|"]
    for e in r.special_hands.values():
        drawn = "; all drawn but the last tile" if e.all_drawn_but_last else ""
        out.append(_row(e, f"{e.value:,} ({e.value * r.east_multiplier:,}){drawn}"))
    return "\n".join(out) + "\n"
