"""Which tiles still hard to read would change the score (``api.unsure_tiles``), and the
score answer that reports it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from api.app import create_app
from api.recognized_hand import hand_from_recognition
from api.settings import Settings
from api.unsure_tiles import unsure_tiles
from scoring.score import score_request

CONCEALED = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5z", "5z", "5z", "9p", "9p"]


def _recognition(bonus_alternatives: list[str], *, low: bool = True) -> dict[str, Any]:
    """A concealed winning hand and a 2 flower read unsurely, as /recognize gives them."""
    tiles: list[dict[str, Any]] = [{"index": i, "code": c} for i, c in enumerate(CONCEALED)]
    tiles.append({"index": 14, "code": "2f", "low_confidence": low, "alternatives": [
        {"code": code, "confidence": 0.1} for code in bonus_alternatives]})
    return {"tiles": tiles, "groups": [{"id": 1, "kind": "concealed", "tiles": list(range(14))},
                                       {"id": 2, "kind": "bonus", "tiles": [14]}]}


def _checks(recognition: dict[str, Any], seat: str) -> list[dict[str, Any]]:
    def scorer(hand: Any) -> Any:
        return score_request({"rules": "hk-a", "hand": hand,
                              "context": {"seat_wind": seat, "self_drawn": True}})

    return unsure_tiles(recognition, None, scorer, scorer(hand_from_recognition(recognition)))


def test_a_season_for_the_flower_of_its_number_does_not_change_the_score() -> None:
    """South's flower and South's season both score one fan: reading the 2 flower as the
    summer is a check that does not matter; as the 3 flower, it does. A 1 bamboo among
    the bonus tiles leaves no hand, so it is not what the tile is."""
    assert _checks(_recognition(["2g", "1s"]), "south") == [
        {"index": 14, "changes_score": False, "faces": ["2g", "1s"]}]
    assert _checks(_recognition(["3f", "2g"]), "south")[0]["changes_score"] is True
    assert _checks(_recognition(["3f", "2g"]), "east")[0]["changes_score"] is False
    assert _checks(_recognition(["3f"], low=False), "south") == []  # checked: no mark
    assert _checks(_recognition([]), "south") == []  # nothing to try


def test_the_score_answer_says_which_checks_matter() -> None:
    """``POST /api/v1/score`` with a recognition as /recognize gives it: ``unsure_tiles``
    for its marked tiles; not for a hand that does not win, nor without marks."""
    client = TestClient(create_app(Settings()))
    body = {"rules": "hk-a", "context": {"seat_wind": "south", "self_drawn": True}}
    answer = client.post("/api/v1/score", json={**body, "recognition": _recognition(["3f", "2g"])})
    assert answer.status_code == 200 and answer.json()["valid"] is True
    assert answer.json()["unsure_tiles"] == [
        {"index": 14, "changes_score": True, "faces": ["3f", "2g"]}]
    unmarked = client.post("/api/v1/score",
                           json={**body, "recognition": _recognition(["3f"], low=False)})
    assert "unsure_tiles" not in unmarked.json()
    short = _recognition(["3f"])
    short["tiles"] = short["tiles"][1:]
    short["groups"][0]["tiles"] = list(range(1, 14))
    not_a_win = client.post("/api/v1/score", json={**body, "recognition": short})
    assert not_a_win.json()["valid"] is False and "unsure_tiles" not in not_a_win.json()


def test_scan_says_which_checks_matter_for_its_own_reading(tmp_path: Path) -> None:
    """``/api/v1/scan`` of generated scene 8 of the scanned set: a flower read unsurely,
    whose next faces score the same for East, is a check that does not matter."""
    from datasets.scenes import generate_scene, save_scene

    path = save_scene(generate_scene(8, size=(1600, 1200), tilt=15.0, flipped=False,
                                     style="xmahjongg_real"), tmp_path, "hand")
    client = TestClient(create_app(Settings()))
    answer = client.post("/api/v1/scan", files={"photo": ("hand.jpg", path.read_bytes(),
                                                          "image/jpeg")},
                         data={"request": json.dumps({"context": {"seat_wind": "east",
                                                                  "discarder": "south"}})})
    assert answer.status_code == 200
    tiles = answer.json()["recognition"]["tiles"]
    checks = answer.json()["score"]["unsure_tiles"]
    assert {c["index"] for c in checks} <= {t["index"] for t in tiles if t["low_confidence"]}
    assert any(not c["changes_score"] and tiles[c["index"]]["code"].endswith("f")
               for c in checks), checks
