"""Base points ("punti di stecca", every player) and closing points (the winner only).

Each function returns the lines it scores, so the response can show a player
exactly where every point came from.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.italian.rules import Entry, ItalianRules
from scoring.italian.view import Group, HandView
from scoring.tiles import Tile


@dataclass(frozen=True, slots=True)
class Line:
    """One scored line: what, in both languages, which tiles, and how much."""

    key: str
    name: str
    name_it: str
    value: int
    tiles: str = ""

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"key": self.key, "name": self.name, "name_it": self.name_it,
                                  "value": self.value}
        if self.tiles:
            out["tiles"] = self.tiles
        return out


def _line(entry: Entry, value: int, tiles: str = "") -> Line:
    return Line(entry.key, entry.name, entry.name_it, value, tiles)


def _set_names(head: bool, kong: bool, concealed: bool) -> tuple[str, str, str]:
    state, state_it = ("concealed", "nascosto") if concealed else ("exposed", "scoperto")
    kind, kind_it = ("kong", "Poker") if kong else ("pung", "Tris")
    sort, sort_it = ("terminals/honours", "palle di testa") if head else (
        "simples", "palle di centro")
    return (f"{kind}_{'head' if head else 'simple'}_{state}",
            f"{state.capitalize()} {kind} of {sort}", f"{kind_it} {state_it} di {sort_it}")


_SET_NAMES: dict[tuple[bool, bool, bool], tuple[str, str, str]] = {
    (h, k, c): _set_names(h, k, c) for h in (False, True) for k in (False, True)
    for c in (False, True)
}
"""The eight kinds of scoring set (terminal or not, kong or not, concealed or not), named once."""


def set_line(group: Group, rules: ItalianRules) -> Line | None:
    """A pung's or kong's points; chows score ``points.chow`` (0 in every sheet we know)."""
    kind = group.kind
    if kind == "chow":
        chow = rules.points["chow"]
        return _line(chow, chow.value, group.code) if chow.value else None
    if kind == "pair":
        return None
    head = group.tile.is_terminal_or_honour
    kong = kind == "kong"
    key, name, name_it = _SET_NAMES[head, kong, group.concealed]
    value = rules.set_points(terminal_or_honour=head, kong=kong, concealed=group.concealed)
    return Line(key, name, name_it, value, group.code)


def pair_lines(tile: Tile, seat: Tile, round_wind: Tile, rules: ItalianRules) -> list[Line]:
    """A pair scores when it is of dragons, of one's own wind or of the round wind (both: twice)."""
    lines: list[Line] = []
    code = f"{tile.rank}{tile.rank}{tile.suit.value}"
    if tile.is_dragon:
        entry = rules.points["pair_dragon"]
        lines.append(_line(entry, entry.value, code))
    if tile is seat:
        entry = rules.points["pair_seat_wind"]
        lines.append(_line(entry, entry.value, code))
    if tile is round_wind:
        entry = rules.points["pair_round_wind"]
        lines.append(_line(entry, entry.value, code))
    return [line for line in lines if line.value]


def bonus_lines(bonus: tuple[Tile, ...], rules: ItalianRules) -> list[Line]:
    entry = rules.points["bonus_tile"]
    return [_line(entry, entry.value, t.code) for t in bonus if entry.value]


def base_lines(view: HandView, rules: ItalianRules) -> list[Line]:
    """Every player's base points: sets, the scoring pair, flowers and seasons."""
    lines: list[Line] = []
    for group in view.groups:
        if group.kind == "pair":
            lines.extend(pair_lines(group.tile, view.seat, view.round_wind, rules))
        else:
            line = set_line(group, rules)
            if line is not None:
                lines.append(line)
    if view.bonus:
        lines.extend(bonus_lines(view.bonus, rules))
    return lines


CLOSING_POINTS: tuple[str, ...] = ("mahjong", "self_drawn", "only_possible_tile", "completing_pair")
"""The closing points the scorer knows; the sheet gives their values."""


def closing_lines(view: HandView, rules: ItalianRules) -> list[Line]:
    """The winner's closing points ("punti di chiusura")."""
    table = rules.closing_points
    earned = {
        "mahjong": True,
        "self_drawn": view.self_drawn,
        "only_possible_tile": view.single_wait,
        "completing_pair": view.winning_group is not None
        and view.groups[view.winning_group].kind == "pair",
    }
    return [
        _line(table[key], table[key].value)
        for key, got in earned.items()
        if got and key in table and table[key].value
    ]
