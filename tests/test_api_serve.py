"""``mjlens serve``: a real uvicorn server with several workers, and settings checked at start."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from api.cli import main

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--max-pixels", "5"], "MJLENS_MAX_PIXELS"),
        (["--max-concurrent-recognitions", "0"], "MJLENS_MAX_CONCURRENT_RECOGNITIONS"),
        (["--port", "70000"], "--port"),
    ],
)
def test_bad_settings_stop_serve_before_it_starts(
    argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("MJLENS_MAX_PIXELS", "MJLENS_MAX_CONCURRENT_RECOGNITIONS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(os, "environ", dict(os.environ))  # serve writes its flags here
    assert main(["serve", *argv]) == 2
    assert fragment in capsys.readouterr().err


def test_bad_environment_variable_stops_serve(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MJLENS_MAX_UPLOAD_BYTES", "a lot")
    assert main(["serve"]) == 2
    assert "MJLENS_MAX_UPLOAD_BYTES" in capsys.readouterr().err


@pytest.mark.slow
def test_serve_with_two_workers_answers_and_stops(tmp_path: Path) -> None:
    """Two workers answer; the one that took an upload shares its load in the
    workload folder (``api.workload``), and its file goes when the server stops."""
    port = _free_port()
    env = {**os.environ, "MJLENS_CORS_ORIGINS": "https://app.example.com",
           "MJLENS_WORKLOAD_DIR": str(tmp_path)}
    server = subprocess.Popen(
        [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--workers", "2",
         "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None, "the server exited early"
            assert time.monotonic() < deadline, "the server did not start in 90 s"
            time.sleep(0.3)
        for _ in range(6):  # several connections: both workers get some
            assert httpx.get(f"{url}/healthz", timeout=5).json() == {"status": "ok"}
        page = httpx.get(f"{url}/", timeout=5)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        error = httpx.post(f"{url}/api/v1/recognize", timeout=10,
                           files={"photo": ("x.txt", b"not a photo", "text/plain")})
        assert error.status_code == 415 and error.json()["error"]["code"] == "not_an_image"
        assert [p.name.isdigit() for p in tmp_path.iterdir()] == [True]
        preflight = httpx.options(f"{url}/api/v1/score", timeout=5, headers={
            "Origin": "https://app.example.com", "Access-Control-Request-Method": "POST"})
        assert preflight.headers["access-control-allow-origin"] == "https://app.example.com"
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=60)
    assert server.returncode == 0, output
    assert "2 workers" in output
    assert list(tmp_path.iterdir()) == []
