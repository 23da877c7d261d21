"""``mjlens score --rules italian``: every player's points, doubles, score and the settlement."""

from __future__ import annotations

import json

import pytest

from api.cli import main

WINNER = ["123m456m789p22s", "--meld", "pung:777z", "--win", "9p", "--seat", "south",
          "--discarder", "west", "--rules", "italian"]


def test_text_output_shows_every_player_and_the_settlement(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["score", *WINNER, "--option", "unit=1", "--player", "east=20",
                   "--player", "west=256", "--player", "north=3333s579p2m"])
    out = capsys.readouterr().out
    assert status == 0
    assert "South (winner)" in out
    assert "24 points x 2^1 doubles = 48" in out
    assert "West (loser): score given 256" in out
    assert "Concealed pung of simples 333s" in out
    assert "Settlement" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("  east ")]
    assert rows == [["east", "0", "96", "472", "0"]]  # the worked case


def test_json_output_with_a_loser_hand(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["score", *WINNER, "--json", "--player", "east=555z11z23p/pung:111m",
                   "--player", "west=0", "--player", "north=0"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["players"]["east"]["points"] == 16
    assert sum(data["settlement"]["net"].values()) == 0


def test_missing_players_are_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["score", *WINNER, "--player", "east=5"])
    assert status == 2
    assert "lacks west, north" in capsys.readouterr().err


def test_bad_player_flag(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["score", *WINNER, "--player", "east"])
    assert status == 2
    assert "--player 'east'" in capsys.readouterr().err


def test_not_a_winning_hand_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["score", "123m456m789p23s", "--meld", "pung:777z", "--win", "9p",
                   "--seat", "south", "--discarder", "west", "--rules", "italian"])
    assert status == 1
    assert "Not a winning hand (italian)" in capsys.readouterr().out


def test_special_hand_text(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["score", "119m19p19s1234567z", "--win", "1m", "--seat", "east",
                   "--self-drawn", "--rules", "italian", "--player", "south=40",
                   "--player", "west=0", "--player", "north=120"])
    out = capsys.readouterr().out
    assert status == 0
    assert "special hand Thirteen orphans" in out
    assert "paid as a limit -> score 2000" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("  net ")]
    assert rows == [["net", "+12000", "-4040", "-4160", "-3800"]]
