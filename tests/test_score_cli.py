"""``mjlens score``: flags in, a readable breakdown out; ``--json`` speaks the API's contract."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from typing import Any

import pytest

from api.cli import main

REQUEST = {"rules": "hk-a",
           "hand": {"concealed": "111222333s789m55p", "winning_tile": "5p"},
           "context": {"seat_wind": "south", "round_wind": "east", "discarder": "east"}}


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_text_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["score", "111222333s789m55p", "--win", "5p", "--seat", "south",
                          "--discarder", "east"], capsys)
    assert status == 0
    assert "All chows" in out and "Tutte scale" in out
    assert "Total: 3 fan" in out and "the best of 2 readings" in out
    assert "east 16, west 8, north 8" in out


def test_melds_bonus_and_flags(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["score", "123m456m234s55p", "--meld", "kong:9999p:from=west",
                          "--bonus", "plum,orchid", "--win", "4s", "--seat", "south",
                          "--self-drawn", "--kong-replacement"], capsys)
    assert status == 0
    assert "Win on a kong replacement tile" in out and "Own flower" in out


def test_json_request_on_standard_input(capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    status, out, _ = run(["score", "--json"], capsys, json.dumps(REQUEST), monkeypatch)
    assert status == 0
    resp: dict[str, Any] = json.loads(out)
    assert resp["valid"] is True and resp["fan"] == 3
    assert resp["payments"] == {"east": 16, "west": 8, "north": 8}
    assert [p["id"] for p in resp["patterns"]] == ["all_chows", "pair_258", "no_bonus"]


def test_flags_with_json_output_match_the_request(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["score", "111222333s789m55p", "--win", "5p", "--seat", "south",
                          "--discarder", "east", "--json"], capsys)
    assert status == 0 and json.loads(out)["fan"] == 3


def test_incomplete_hand_exit_1_with_waits(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["score", "123m456m789p2345s", "--seat", "south",
                          "--discarder", "east"], capsys)
    assert status == 1
    assert "Waits on: 2s 5s" in out


def test_bad_input_is_a_clear_error(capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    status, _, err = run(["score", "12x"], capsys)
    assert status == 2 and "unknown tile" in err
    status, out, _ = run(["score", "--json"], capsys, "{not json", monkeypatch)
    assert status == 2 and json.loads(out)["error"]["code"] == "bad_request"
    status, out, _ = run(["score", "--json"], capsys, json.dumps({**REQUEST, "rules": "x"}),
                         monkeypatch)
    assert status == 2 and json.loads(out)["error"]["code"] == "unknown_rules"
    status, _, err = run(["score", "123m", "--meld", "pung"], capsys)
    assert status == 2 and "KIND:TILES" in err
    status, _, err = run(["score"], capsys)
    assert status == 2 and "--json" in err


def test_options_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["score", "111222333s789m55p", "--win", "5p", "--seat", "south",
                          "--discarder", "east", "--option", "min_fan=4"], capsys)
    assert status == 1 and "at least 4" in out


def test_console_script_runs() -> None:
    done = subprocess.run([sys.executable, "-m", "api.cli", "score", "--json"],
                          input=json.dumps(REQUEST), capture_output=True, text=True, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)["fan"] == 3
