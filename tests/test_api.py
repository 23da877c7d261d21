"""The HTTP API through FastAPI's test client: scoring, rules, the page, and every error."""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from api.app import create_app
from api.settings import Settings

HAND = {"concealed": "123m456m789p234s55p", "winning_tile": "4s"}
CONTEXT = {"seat_wind": "south", "round_wind": "east", "self_drawn": False, "discarder": "east"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings())) as c:
        yield c


def _error(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code
    message: str = body["error"]["message"]
    assert message and "Traceback" not in message
    return message


def _png(width: int = 64, height: int = 48) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (30, 120, 60)).save(buf, "PNG")
    return buf.getvalue()


def _png_bomb(side: int = 40_000) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0,
                                                               0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


# --------------------------------------------------------------------------- service


def test_healthz(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}


def test_page_and_static_files(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert "Mahjong Lens" in page.text
    assert client.get("/static/app.js").status_code == 200


def test_openapi_documents_every_endpoint_with_examples(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path, method in [("/api/v1/recognize", "post"), ("/api/v1/score", "post"),
                         ("/api/v1/scan", "post"), ("/api/v1/rules", "get"),
                         ("/healthz", "get")]:
        operation = paths[path][method]
        assert operation["summary"]
        text = str(operation) + str(schema["components"])
        assert "example" in text, path
    score_body = paths["/api/v1/score"]["post"]["requestBody"]["content"]["application/json"]
    assert {"hand", "recognition", "italian"} <= set(score_body["examples"])
    assert client.get("/docs").status_code == 200


def test_unknown_address_and_method_are_json(client: TestClient) -> None:
    _error(client.get("/api/v1/nothing"), 404, "not_found")
    _error(client.get("/api/v1/score"), 405, "method_not_allowed")


def test_cors_is_off_by_default_and_configurable() -> None:
    headers = {"Origin": "https://app.example.com", "Access-Control-Request-Method": "POST"}
    with TestClient(create_app(Settings())) as plain:
        response = plain.options("/api/v1/score", headers=headers)
        assert "access-control-allow-origin" not in response.headers
    settings = Settings(cors_origins="https://app.example.com, https://other.example")
    assert settings.cors_origin_list == ["https://app.example.com", "https://other.example"]
    with TestClient(create_app(settings)) as cors:
        response = cors.options("/api/v1/score", headers=headers)
        assert response.status_code == 200
        assert response.headers["access-control-allow-origin"] == "https://app.example.com"
        evil = cors.options("/api/v1/score", headers={**headers, "Origin": "https://evil.test"})
        assert "access-control-allow-origin" not in evil.headers


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJLENS_MAX_UPLOAD_BYTES", "5000000")
    monkeypatch.setenv("MJLENS_MAX_CONCURRENT_RECOGNITIONS", "3")
    monkeypatch.setenv("MJLENS_CORS_ORIGINS", "*")
    monkeypatch.setenv("MJLENS_READ_AGAIN_UNSURE", "never")
    settings = Settings()
    assert settings.read_again_unsure == "never"
    assert Settings.model_fields["read_again_unsure"].default == "when_idle"
    assert settings.max_upload_bytes == 5_000_000
    assert settings.max_concurrent_recognitions == 3
    assert settings.cors_origin_list == ["*"]
    monkeypatch.setenv("MJLENS_MAX_PIXELS", "lots")
    with pytest.raises(ValueError, match="max_pixels"):
        Settings()


@pytest.mark.parametrize(("value", "mode"), [
    ("false", "never"), ("False", "never"), ("0", "never"), (False, "never"),
    ("true", "always"), ("ON", "always"), (True, "always"), ("when_idle", "when_idle")])
def test_reading_again_unsure_photos_is_still_a_switch(value: object, mode: str) -> None:
    """It began as true or false: a deployment that set it keeps what it chose."""
    assert Settings(read_again_unsure=value).read_again_unsure == mode


def test_an_unknown_way_to_read_again_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJLENS_READ_AGAIN_UNSURE", "sometimes")
    with pytest.raises(ValueError,
                       match=r"(?s)read_again_unsure.*'always', 'when_idle' or 'never'"):
        Settings()


# --------------------------------------------------------------------------- rules


def test_rules_lists_every_preset_with_titles(client: TestClient) -> None:
    from scoring.presets import list_presets

    response = client.get("/api/v1/rules")
    assert response.status_code == 200, response.text
    presets = response.json()["presets"]
    assert [p["name"] for p in presets] == list(list_presets())
    for preset in presets:
        assert preset["title"] and preset["title_it"]
        assert preset["model"] in ("hk", "italian")
        assert preset["options"]
    hk = next(p for p in presets if p["name"] == "hk-a")
    assert hk["patterns"] and {"name", "name_it", "fan"} <= set(hk["patterns"][0])


# --------------------------------------------------------------------------- score


def test_score_a_hand(client: TestClient) -> None:
    response = client.post("/api/v1/score",
                           json={"rules": "hk-a", "hand": HAND, "context": CONTEXT})
    assert response.status_code == 200, response.text
    result = response.json()
    assert result["valid"] is True
    assert result["rules"] == "hk-a"
    assert result["fan"] >= 1
    assert result["patterns"] and all(p["name"] and p["name_it"] for p in result["patterns"])
    assert set(result["payments"]) == {"east", "west", "north"}
    assert result["hand"]["concealed"] == HAND["concealed"]


def test_score_is_the_library_result(client: TestClient) -> None:
    from scoring.score import score_request

    request = {"rules": "hk-b", "hand": HAND, "context": CONTEXT}
    expected = score_request(request)
    got = client.post("/api/v1/score", json=request).json()
    assert {k: got[k] for k in expected} == expected


def test_winning_tile_may_be_given_at_the_top(client: TestClient) -> None:
    hand = {"concealed": HAND["concealed"]}
    got = client.post("/api/v1/score", json={"hand": hand, "winning_tile": "4s",
                                             "context": CONTEXT}).json()
    assert got["valid"] is True and got["winning_tile"] == "4s"


def test_a_hand_one_tile_short_is_an_answer_not_an_error(client: TestClient) -> None:
    response = client.post("/api/v1/score", json={"hand": {"concealed": "123m456m789p234s5p"}})
    assert response.status_code == 200
    result = response.json()
    assert result["valid"] is False
    assert result["reason"]
    assert result["waits"] == ["5p"]


def test_corrected_recognition_scores_like_the_same_hand(client: TestClient) -> None:
    codes = ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "9p", "2s", "3s", "4s", "5p",
             "5p", "plum"]
    recognition = {
        "image": {"width": 800, "height": 600},
        "tiles": [{"index": i, "code": c, "confidence": 0.5, "outline": [[0, 0]] * 4}
                  for i, c in enumerate(codes)],
        "groups": [{"id": 0, "kind": "concealed", "tiles": list(range(14))},
                   {"id": 1, "kind": "bonus", "tiles": [14]}],
        "warnings": [],
    }
    by_photo = client.post("/api/v1/score", json={
        "rules": "hk-a", "recognition": recognition, "winning_tile": "4s", "context": CONTEXT,
    })
    assert by_photo.status_code == 200, by_photo.text
    by_text = client.post("/api/v1/score", json={
        "rules": "hk-a", "hand": {**HAND, "bonus": "1f"}, "context": CONTEXT}).json()
    got = by_photo.json()
    assert got["hand"] == {"concealed": "123456m55789p234s", "melds": [], "bonus": ["1f"],
                           "winning_tile": "4s"}
    assert got["fan"] == by_text["fan"]
    assert got["payments"] == by_text["payments"]
    assert [p["name"] for p in got["patterns"]] == [p["name"] for p in by_text["patterns"]]


def test_recognition_with_a_bad_group_is_an_invalid_hand(client: TestClient) -> None:
    recognition = {
        "tiles": [{"index": i, "code": c} for i, c in enumerate(
            ["1m", "1m", "2p", "3p", "5p"])],
        "groups": [{"id": 0, "kind": "concealed", "tiles": [0, 1]},
                   {"id": 1, "kind": "meld", "tiles": [2, 3, 4]}],
    }
    response = client.post("/api/v1/score", json={"recognition": recognition})
    assert response.status_code == 200
    result = response.json()
    assert result["valid"] is False
    assert result["code"] == "illegal_hand"
    assert "Group 1" in result["reason"]
    assert result["tiles"] == [2, 3, 4] and result["group"] == 1


@pytest.mark.parametrize(
    ("body", "code", "fragment"),
    [
        ({"rules": "hk-z", "hand": HAND}, "unknown_rules", "hk-z"),
        ({"rules": "hk-a", "options": {"nonsense": 1}, "hand": HAND}, "bad_rule_option",
         "nonsense"),
        ({"hand": {"concealed": "123m456m789p234s5x"}}, "bad_request", "5x"),
        ({"hand": {"concealed": 42}}, "bad_request", "hand.concealed"),
        ({"hand": HAND, "context": {"seat_wind": "middle"}}, "bad_request", "middle"),
        ({"hand": HAND, "context": {"self_drawn": "perhaps"}}, "bad_request", "self_drawn"),
        ({}, "bad_request", "exactly one of"),
        ({"hand": HAND, "recognition": {"tiles": []}}, "bad_request", "exactly one of"),
        ({"recognition": {"tiles": [{"index": 0, "code": "1m"}],
                          "groups": [{"id": 0, "tiles": [7]}]}}, "bad_request", "tile 7"),
        ({"recognition": {"tiles": "1m2m"}}, "bad_request", "recognition.tiles"),
    ],
)
def test_bad_score_requests(client: TestClient, body: dict[str, Any], code: str,
                            fragment: str) -> None:
    message = _error(client.post("/api/v1/score", json=body), 422, code)
    assert fragment in message


def test_score_body_that_is_not_json(client: TestClient) -> None:
    response = client.post("/api/v1/score", content=b"{not json",
                           headers={"content-type": "application/json"})
    assert "JSON" in _error(response, 422, "bad_request")
    response = client.post("/api/v1/score", content=b"[1, 2]",
                           headers={"content-type": "application/json"})
    _error(response, 422, "bad_request")


def test_oversized_json_body() -> None:
    settings = Settings(max_json_bytes=1024)  # the photo limit stays at its 20 MiB default
    with TestClient(create_app(settings)) as small:
        body = {"hand": HAND, "padding": "x" * 5000}
        _error(small.post("/api/v1/score", json=body), 413, "request_too_large")

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            yield b'{"hand": {"concealed": "'
            for _ in range(10):
                yield b"1m" * 500
            yield b'"}}'

        response = small.post("/api/v1/score", content=chunks(),
                              headers={"content-type": "application/json"})
        _error(response, 413, "request_too_large")


# --------------------------------------------------------------------------- photos


@pytest.mark.parametrize("path", ["/api/v1/recognize", "/api/v1/scan"])
@pytest.mark.parametrize(
    ("data", "status", "code"),
    [
        (b"just some text, not a photo", 415, "not_an_image"),
        (b"", 415, "not_an_image"),
        (b"%PDF-1.7\n1 0 obj\n", 415, "unsupported_format"),
        (_png_bomb(), 413, "image_too_large"),
        (_png()[:60], 422, "truncated_image"),
    ],
)
def test_photo_errors(client: TestClient, path: str, data: bytes, status: int,
                      code: str) -> None:
    response = client.post(path, files={"photo": ("hand.jpg", data, "image/jpeg")})
    _error(response, status, code)


@pytest.mark.parametrize("path", ["/api/v1/recognize", "/api/v1/scan"])
def test_missing_photo(client: TestClient, path: str) -> None:
    assert "photo" in _error(client.post(path), 422, "bad_request")
    response = client.post(path, data={"other": "field"})
    assert "photo" in _error(response, 422, "bad_request")
    response = client.post(path, data={"photo": "a text field, not a file"})
    assert "file upload" in _error(response, 422, "bad_request")


def test_photo_over_the_byte_limit() -> None:
    settings = Settings(max_upload_bytes=2048, max_json_bytes=1024)
    big = _png(400, 400) + b"\x00" * 4096
    with TestClient(create_app(settings)) as small:
        for path in ("/api/v1/recognize", "/api/v1/scan"):
            response = small.post(path, files={"photo": ("hand.png", big, "image/png")})
            assert "MB" in _error(response, 413, "image_too_large")


def test_photo_over_the_pixel_limit() -> None:
    settings = Settings(max_pixels=10_000)
    with TestClient(create_app(settings)) as small:
        response = small.post("/api/v1/recognize",
                              files={"photo": ("hand.png", _png(200, 100), "image/png")})
        assert "megapixels" in _error(response, 413, "image_too_large")


@pytest.mark.parametrize(
    ("field", "fragment"),
    [("{not json", "not valid JSON"), ("[1]", "JSON object"),
     ('{"context": {"self_drawn": "maybe"}}', "request.context.self_drawn"),
     ('{"options": 5}', "request.options")],
)
def test_scan_request_field_is_checked_before_the_photo(
    client: TestClient, field: str, fragment: str
) -> None:
    response = client.post("/api/v1/scan", data={"request": field},
                           files={"photo": ("hand.png", _png(), "image/png")})
    assert fragment in _error(response, 422, "bad_request")
