"""Base points ("punti di stecca") and closing points ("punti di chiusura") of the Italian sheet."""

from __future__ import annotations

import pytest
from test_italian_support import chow, kong, lines, pung, rules, score

from scoring.italian.points import pair_lines, set_line
from scoring.italian.view import Group
from scoring.tiles import tile, wind_tile


@pytest.mark.parametrize(
    ("code", "kind", "concealed", "points"),
    [
        ("5m", "pung", False, 2), ("5m", "pung", True, 4),
        ("1p", "pung", False, 4), ("9s", "pung", True, 8),
        ("6z", "pung", False, 4), ("1z", "pung", True, 8),
        ("3s", "kong", False, 8), ("3s", "kong", True, 16),
        ("9m", "kong", False, 16), ("7z", "kong", True, 32),
    ],
)
def test_pung_and_kong_values_of_the_classical_sheet(
    code: str, kind: str, concealed: bool, points: int
) -> None:
    line = set_line(Group(kind, tile(code), concealed), rules())  # type: ignore[arg-type]
    assert line is not None
    assert line.value == points


@pytest.mark.parametrize("code", ["2m", "5p", "8s", "1m", "9p", "1z", "5z"])
@pytest.mark.parametrize("concealed", [False, True])
def test_seed_proportions_hold(code: str, concealed: bool) -> None:
    r = rules()
    t = tile(code)
    head = t.is_terminal_or_honour
    pung_value = r.set_points(terminal_or_honour=head, kong=False, concealed=concealed)
    # A kong is worth four times a pung; concealed double exposed; heads double simples.
    assert r.set_points(terminal_or_honour=head, kong=True, concealed=concealed) == 4 * pung_value
    assert r.set_points(terminal_or_honour=head, kong=False, concealed=True) == 2 * (
        r.set_points(terminal_or_honour=head, kong=False, concealed=False))
    assert r.set_points(terminal_or_honour=True, kong=False, concealed=concealed) == 2 * (
        r.set_points(terminal_or_honour=False, kong=False, concealed=concealed))


def test_chows_score_nothing() -> None:
    assert set_line(Group("chow", tile("3m"), True), rules()) is None


@pytest.mark.parametrize(
    ("code", "seat", "round_wind", "points"),
    [
        ("5z", "south", "east", 2),  # dragons
        ("7z", "north", "west", 2),
        ("2z", "south", "east", 2),  # own wind
        ("1z", "south", "east", 2),  # round wind
        ("1z", "east", "east", 4),  # both
        ("3z", "south", "east", 0),  # another wind
        ("5m", "south", "east", 0),  # simples
        ("9p", "south", "east", 0),  # terminals
    ],
)
def test_pair_points(code: str, seat: str, round_wind: str, points: int) -> None:
    got = pair_lines(tile(code), wind_tile(seat), wind_tile(round_wind), rules())
    assert sum(line.value for line in got) == points


def test_flowers_and_seasons_score_four_each() -> None:
    # Winner south, flowers 1f 3f (not own): 2 x 4 points, no doubles from them.
    r = score("123m456m789p234s55p", win="4s", bonus=["1f", "3f"])
    assert lines(r, kind="point_lines")["bonus_tile"] == 8


def test_winner_closing_points_and_exposed_sets() -> None:
    # South wins on a discard: exposed 222m (2) + exposed 888p (2) + mahjong 20.
    r = score("345s678s99m", melds=[pung("222m"), pung("888p")], win="5s")
    assert lines(r, kind="point_lines") == {"pung_simple_exposed": 4, "mahjong": 20}
    assert r["points"] == 24


def test_pung_completed_by_a_discard_counts_as_exposed() -> None:
    # 444s completed by the discarded 4s: exposed (2); self-drawn it stays concealed (4).
    on_discard = score("444s123m456m789p55p", win="4s")
    self_drawn = score("444s123m456m789p55p", win="4s", self_drawn=True)
    assert lines(on_discard, kind="point_lines")["pung_simple_exposed"] == 2
    assert lines(self_drawn, kind="point_lines")["pung_simple_concealed"] == 4


def test_the_winning_tile_sits_where_it_scores_best() -> None:
    # 333s + 345s: the discarded 3s may complete the pung (then exposed, 2) or the
    # chow (the pung stays concealed, 4): the winner counts it in the chow.
    r = score("333345s123m456m99p", win="3s")
    assert lines(r, kind="point_lines")["pung_simple_concealed"] == 4


def test_concealed_kong_declared_face_down_still_counts_as_concealed() -> None:
    # Kong of red dragons shown with two tiles face down: concealed honour kong, 32 points.
    meld = {"kind": "kong", "tiles": ["back", "7z", "7z", "back"], "exposed": False}
    r = score("123m456m789p55p", melds=[meld], win="5p", self_drawn=True)
    assert lines(r, kind="point_lines")["kong_head_concealed"] == 32
    assert lines(r)["concealed"] == 1  # a declared concealed kong claims nothing


def test_exposed_kong_values() -> None:
    r = score("123m456m55p", melds=[kong("2222s"), kong("9999p")], win="6m")
    assert lines(r, kind="point_lines") == {
        "kong_simple_exposed": 8, "kong_head_exposed": 16, "mahjong": 20}


def test_self_drawn_adds_two() -> None:
    r = score("123m456m789p234s55p", win="4s", self_drawn=True)
    assert lines(r, kind="point_lines")["self_drawn"] == 2


def test_only_possible_tile_adds_two() -> None:
    # 12m waits only on 3m (edge wait): 2 points; 23m waits on 1m and 4m: none.
    edge = score("123m456p789p234s55p", win="3m")
    open_wait = score("234m456p789p234s55p", win="4m")
    assert lines(edge, kind="point_lines")["only_possible_tile"] == 2
    assert "only_possible_tile" not in lines(open_wait, kind="point_lines")


def test_completing_the_pair_adds_two_and_is_also_the_only_tile() -> None:
    r = score("123m456p789p234s55z", win="5z")
    got = lines(r, kind="point_lines")
    assert got["completing_pair"] == 2
    assert got["only_possible_tile"] == 2
    assert got["pair_dragon"] == 2


def test_chows_in_melds_score_nothing() -> None:
    r = score("456p789p55m", melds=[chow("123m"), chow("234s")], win="5m")
    assert lines(r, kind="point_lines") == {
        "mahjong": 20, "completing_pair": 2, "only_possible_tile": 2}


def test_ambiguous_hand_is_read_as_pungs_when_pungs_pay_more() -> None:
    # 111222333m is three pungs or three chows: the pungs score (8 + 4 + 4, concealed,
    # and "three concealed pungs"), the chows nothing, so the winner counts pungs.
    r = score("111222333m456p77z", win="7z", self_drawn=True)
    got = lines(r, kind="point_lines")
    assert got["pung_head_concealed"] == 8
    assert got["pung_simple_concealed"] == 8
    assert lines(r)["three_concealed_pungs"] == 1
    kinds = sorted(g["kind"] for g in r["decomposition"])
    assert kinds == ["chow", "pair", "pung", "pung", "pung"]
