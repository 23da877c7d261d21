"""The photo benchmark's tally: what it counts and how it reports a hand it got wrong.

The benchmark's figures go into the issue notes and its failure lines are how
two models are compared hand by hand, so its bookkeeping is tested like code."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import bench_pipeline as bench

from datasets.scene_eval import box_polygon


def _row(codes: list[str], x0: float = 0.0) -> list[tuple[np.ndarray, str]]:
    """Tiles 60 px wide side by side, as outlines with their codes."""
    return [(box_polygon([x0 + 60 * i, 0, 60, 80]), c) for i, c in enumerate(codes)]


def test_an_exact_hand_is_counted_and_not_listed() -> None:
    tally = bench.Tally()
    truth = _row(["1m", "2m", "3m"])
    tally.add(truth, truth, complete=True, name="scene_1")
    assert (tally.hands, tally.exact, tally.named, tally.matched) == (1, 1, 3, 3)
    assert tally.failures == []


def test_a_wrong_name_a_missed_and_an_extra_tile_are_listed() -> None:
    tally = bench.Tally()
    truth = _row(["1m", "2m", "3m", "5z"])
    found = [*_row(["1m", "5m", "3m"]), *_row(["back"], x0=600)]  # 5z missed, one extra
    tally.add(found, truth, complete=True, name="scene_2")
    assert (tally.hands, tally.exact, tally.named, tally.matched, tally.found) == (1, 0, 2, 3, 4)
    assert tally.failures == ["scene_2 2m->5m missed 5z extra 1"]


def test_outlines_without_names_list_only_outline_errors() -> None:
    """``--segment-only`` names nothing: only missed and extra outlines are failures."""
    tally = bench.Tally()
    truth = _row(["1m", "2m"])
    tally.add([(q, "") for q, _ in truth[:1]], truth, complete=True, name="scene_3")
    assert tally.failures == ["scene_3 missed 2m"]


def test_partly_labelled_photos_never_count_extra_tiles() -> None:
    tally = bench.Tally()
    truth = _row(["1m"])
    tally.add([*truth, *_row(["9m"], x0=600)], truth, complete=False, name="photo")
    assert tally.found == 0 and tally.failures == []


def test_warnings_are_tallied_against_the_tiles_they_point_at() -> None:
    """A misnamed tile that a warning points at costs the player a check; a wrong hand
    without any warning is a silent wrong score; a right hand with one, a false alarm."""
    tally = bench.Tally()
    truth = _row(["1m", "2m", "3m"])
    # the true face among the alternatives: 2m second, 3m third (a face that also wins)
    tally.add(_row(["1m", "5m", "3m"]), truth, complete=True, name="a",
              pointed=[False, True, False], warned=True, offered=[[], ["2m", "6m"], []])
    tally.add(_row(["1m", "2m", "4m"]), truth, complete=True, name="b",
              pointed=[False, False, False], warned=False, offered=[[], [], ["5m", "2m", "3m"]])
    tally.add(truth, truth, complete=True, name="c", pointed=[True, False, True], warned=True,
              offered=[[], [], []])
    assert (tally.misread, tally.misread_pointed) == (2, 1)
    assert (tally.misread_offered, tally.misread_offered_two) == (2, 1)
    assert (tally.wrong_hands, tally.silent_wrong, tally.right_hands_warned) == (2, 1, 1)
    assert tally.right_hands_pointed == 2  # the checks asked on hand "c", read right
    lines = tally.lines("ours", complete=True)
    assert ("  misnamed tiles that a warning points at: 1 of 2; whose true face is offered: 2"
            " (among the classifier's next two: 1)") in lines
    assert any("with no warning at all: 1 of 2" in line for line in lines)
    assert any("read right with a warning: 1 of 1, 2 tiles to check on them" in line
               for line in lines)


HAND = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "1p", "1p", "5z", "5z"]


def _scene(bonus: str, concealed: list[str] = HAND) -> dict[str, object]:
    """A generated scene's truth as its JSON has it: a concealed hand and a bonus tile."""
    tiles = [{"code": c, "group": 0, "kind": "concealed"} for c in concealed]
    return {"tiles": [*tiles, {"code": bonus, "group": 1, "kind": "bonus"}]}


def test_a_hand_scores_right_when_a_misread_leaves_its_score() -> None:
    """A summer read as the orchid is the bonus tile of the same seat: the score is the
    true hand's at every seat. Read as the winter, it is not; nor is a hand that cannot
    be read as one (a face-down tile among the concealed)."""
    truth = bench.scored_as(_scene("2g"))
    assert all(valid for valid, _, _ in truth)
    assert bench.scored_as(_scene("2f")) == truth
    assert bench.scored_as(_scene("4g")) != truth
    assert bench.scored_as(_scene("2g", [*HAND[:-1], "back"])) == ("unreadable", "illegal_hand")
    tally = bench.Tally()
    tally.scored(bench.scored_as(_scene("2f")), truth, exact=False)
    tally.scored(truth, truth, exact=True)
    tally.scored(bench.scored_as(_scene("4g")), truth, exact=False)
    assert (tally.scored_right, tally.scored_right_inexact) == (2, 1)
