"""The ``mjlens`` command line: every sub-command has help and a JSON mode."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from api.cli import COMMANDS, build_parser


def test_top_level_help_lists_every_command() -> None:
    out = subprocess.run([sys.executable, "-m", "api.cli", "--help"], capture_output=True,
                         text=True, check=True).stdout
    for name in COMMANDS:
        assert name in out


@pytest.mark.parametrize("name", COMMANDS)
def test_each_command_has_help(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([name, "--help"])
    assert done.value.code == 0
    assert "usage: mjlens " + name in capsys.readouterr().out


def test_unknown_command_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["frobnicate"])
    assert done.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_a_reader_gone_away_ends_the_output_quietly() -> None:
    """``mjlens ... | head`` closes the pipe before the output is written: no traceback,
    the status a Unix tool gives (141)."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before anything is written
    try:
        done = subprocess.run([sys.executable, "-m", "api.cli", "score", "123m456m789p22s",
                               "--meld", "pung:777z", "--win", "9p"],
                              stdout=write, stderr=subprocess.PIPE, text=True, check=False,
                              timeout=60)
    finally:
        os.close(write)
    assert done.returncode == 141
    assert "Traceback" not in done.stderr and "BrokenPipe" not in done.stderr
