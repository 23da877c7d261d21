"""A recognition (as the page sends it back after corrections) read as a scoring hand."""

from __future__ import annotations

from typing import Any

import pytest

from api.recognized_hand import RecognitionError, hand_from_recognition, request_from_recognition


def _recognition(*groups: tuple[str, str]) -> dict[str, Any]:
    """Build a recognition from (kind, space-separated codes) blocks, left to right."""
    tiles: list[dict[str, Any]] = []
    out_groups: list[dict[str, Any]] = []
    for gid, (kind, codes) in enumerate(groups):
        members = []
        for code in codes.split():
            tiles.append({"index": len(tiles), "code": code, "confidence": 0.9,
                          "outline": [[0, 0], [1, 0], [1, 1], [0, 1]], "group": gid})
            members.append(len(tiles) - 1)
        out_groups.append({"id": gid, "row": 0, "kind": kind, "tiles": members})
    return {"image": {"width": 100, "height": 100}, "tiles": tiles, "groups": out_groups,
            "warnings": []}


def test_concealed_hand_only() -> None:
    rec = _recognition(("concealed", "5p 1m 2m 3m 4p 6p 7s 8s 9s 2z 2z 3z 3z 3z"))
    hand = hand_from_recognition(rec, winning_tile="3z")
    assert hand == {"concealed": "123m456p789s22333z", "melds": [], "bonus": [],
                    "winning_tile": "3z"}


def test_melds_bonus_and_concealed_kong() -> None:
    rec = _recognition(
        ("concealed", "1m 2m 3m 4p 5p 6p 2z 2z"),
        ("meld", "7s 9s 8s"),
        ("meld", "back 6z 6z back"),
        ("meld", "5m 5m 5m 5m"),
        ("bonus", "spring 3f"),
    )
    hand = hand_from_recognition(rec)
    assert hand["concealed"] == "123m456p22z"
    assert hand["melds"] == [
        {"kind": "chow", "tiles": "789s", "exposed": True, "claimed_from": None},
        {"kind": "kong", "tiles": "6666z", "exposed": False, "claimed_from": None},
        {"kind": "kong", "tiles": "5555m", "exposed": True, "claimed_from": None},
    ]
    assert hand["bonus"] == ["3f", "1g"]
    assert hand["winning_tile"] is None


def test_pung_and_face_down_flag_without_code() -> None:
    rec = _recognition(("concealed", "1m 1m"), ("meld", "7z 7z 7z"), ("meld", "4s 4s 4s 4s"))
    rec["tiles"][5]["code"] = "none"
    rec["tiles"][5]["face_down"] = True
    rec["tiles"][8]["code"] = "back"
    hand = hand_from_recognition(rec)
    assert [m["kind"] for m in hand["melds"]] == ["pung", "kong"]
    assert hand["melds"][1]["exposed"] is False


def test_bonus_tiles_found_next_to_a_meld_are_set_aside() -> None:
    rec = _recognition(("concealed", "1m 1m"), ("meld", "7z 7z 7z plum"))
    hand = hand_from_recognition(rec)
    assert hand["melds"] == [{"kind": "pung", "tiles": "777z", "exposed": True,
                              "claimed_from": None}]
    assert hand["bonus"] == ["1f"]


def test_without_groups_the_tile_group_field_is_used() -> None:
    rec = _recognition(("concealed", "1m 1m 2p 3p 4p"), ("meld", "9s 9s 9s"))
    del rec["groups"]
    hand = hand_from_recognition(rec)
    assert hand["concealed"] == "11m234p"
    assert hand["melds"][0]["tiles"] == "999s"


def test_tiles_in_no_group_are_concealed() -> None:
    rec = _recognition(("meld", "9s 9s 9s"))
    rec["tiles"].append({"index": 3, "code": "east"})
    rec["tiles"].append({"index": 4, "code": "1z"})
    hand = hand_from_recognition(rec)
    assert hand["concealed"] == "11z"


def test_corrected_codes_and_aliases_are_read() -> None:
    rec = _recognition(("concealed", "1m 1m"), ("meld", "red red red"))
    rec["tiles"][0]["code"] = "0m"  # a red five, corrected by the player
    hand = hand_from_recognition(rec)
    assert hand["concealed"] == "15m"
    assert hand["melds"][0]["tiles"] == "777z"


def test_request_from_recognition_is_a_full_request() -> None:
    rec = _recognition(("concealed", "1m 1m"), ("meld", "2z 2z 2z"))
    request = request_from_recognition(rec, rules="hk-b", options={"min_fan": 0},
                                       context={"seat_wind": "south"}, winning_tile="1m")
    assert request["rules"] == "hk-b"
    assert request["options"] == {"min_fan": 0}
    assert request["context"] == {"seat_wind": "south"}
    assert request["hand"]["winning_tile"] == "1m"


@pytest.mark.parametrize(
    ("groups", "fragment", "tiles"),
    [
        ((("meld", "1m 2m 4m"),), "neither a chow", (0, 1, 2)),
        ((("meld", "8s 9s 1s"),), "neither a chow", (0, 1, 2)),
        ((("meld", "1z 2z 3z"),), "neither a chow", (0, 1, 2)),
        ((("meld", "1m 1m"),), "has 2 tiles", (0, 1)),
        ((("meld", "1m 1m 1m 1m 1m"),), "has 5 tiles", (0, 1, 2, 3, 4)),
        ((("meld", "1m 1m 1m 2m"),), "not a kong", (0, 1, 2, 3)),
        ((("meld", "back 1m 2m back"),), "faces differ", (0, 1, 2, 3)),
        ((("meld", "back back back back"),), "four face-down", (0, 1, 2, 3)),
        ((("meld", "back 1m 1m"),), "face-down tile", (0, 1, 2)),
        ((("concealed", "1m back"),), "face-down tile", (1,)),
        ((("bonus", "plum 5p"),), "5p is not a flower", (1,)),
        ((("bonus", "plum"),), "No playing tiles", (0,)),
    ],
)
def test_groups_that_are_not_sets(
    groups: tuple[tuple[str, str], ...], fragment: str, tiles: tuple[int, ...]
) -> None:
    with pytest.raises(RecognitionError) as err:
        hand_from_recognition(_recognition(*groups))
    assert err.value.code == "illegal_hand"
    assert fragment in err.value.message
    assert err.value.tiles == tiles


def test_unrecognised_tile_must_be_picked() -> None:
    rec = _recognition(("concealed", "1m 1m 2m"))
    rec["tiles"][2]["code"] = "none"
    with pytest.raises(RecognitionError) as err:
        hand_from_recognition(rec)
    assert err.value.code == "illegal_hand"
    assert "Tile 2" in err.value.message and err.value.tiles == (2,)


@pytest.mark.parametrize(
    ("mutate", "fragment"),
    [
        (lambda r: r.update(tiles="1m"), "must be a list of tiles"),
        (lambda r: r["tiles"].append(5), "must be an object"),
        (lambda r: r["tiles"][0].update(index=-1), "non-negative integer"),
        (lambda r: r["tiles"][0].update(index=1), "Two tiles have index 1"),
        (lambda r: r["tiles"][0].update(code="9z"), "'9z'"),
        (lambda r: r["tiles"][0].update(code=7), "must be text"),
        (lambda r: r["groups"][0].update(kind="hidden"), "unknown kind 'hidden'"),
        (lambda r: r["groups"][0].update(tiles=[0, 1, 99]), "refers to tile 99"),
        (lambda r: r["groups"][0].update(tiles="012"), "list of tile indices"),
        (lambda r: r["groups"].append({"id": 5, "tiles": [0]}), "in both group 0 and group 5"),
        (lambda r: r.update(groups={"a": 1}), "must be a list of groups"),
    ],
)
def test_malformed_recognitions_are_bad_requests(mutate: Any, fragment: str) -> None:
    rec = _recognition(("concealed", "1m 1m 2m"))
    mutate(rec)
    with pytest.raises(RecognitionError) as err:
        hand_from_recognition(rec)
    assert err.value.code == "bad_request"
    assert fragment in err.value.message


@pytest.mark.parametrize(("winning", "fragment"), [("9z", "'9z'"), ("plum", "playing tile")])
def test_bad_winning_tile(winning: str, fragment: str) -> None:
    with pytest.raises(RecognitionError) as err:
        hand_from_recognition(_recognition(("concealed", "1m 1m")), winning_tile=winning)
    assert err.value.code == "bad_request"
    assert fragment in err.value.message


def test_not_a_mapping() -> None:
    with pytest.raises(RecognitionError) as err:
        hand_from_recognition([1, 2, 3])  # type: ignore[arg-type]
    assert err.value.code == "bad_request"
