"""Which of the tiles still hard to read would change the score if they were another face.

Why: a photo of an unfamiliar tile set leaves some tiles marked for the player
to check, most often a flower or a season, and the player checks them all. But
a season read as the flower of its number is the same seat's bonus tile, and
the score is the same either way: of the 81 hands of five generated sets of
the scanned Hong Kong set that were read wrong, 48 still scored right
(``bench/bench_pipeline.py``, fifty-eighth session). So each marked tile is
scored again as each face it may be (its alternatives), and the answer says
whether any of them changes the score: the checks that matter come first.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from api.recognized_hand import RecognitionError, hand_from_recognition
from scoring.errors import ScoringError

MAX_TILES = 6
"""Marked tiles looked at (a hand with more asks for every check anyway)."""
MAX_FACES = 2
"""Faces tried per tile: its first alternatives, the classifier's next two (the
recognition lists them first). Not the faces listed after them because they
would also win, however unlikely the classifier found them: a flower's are
the other seven bonus tiles, one of which always changes the score."""
SCORE_KEYS = ("valid", "fan", "limit", "points", "doubles", "score", "payments")
"""What the player is told of a score: whether the hand wins, its fan or points
and doubles, and who pays whom (Hong Kong and Italian answers alike)."""

Scorer = Callable[[Mapping[str, Any]], Mapping[str, Any]]
"""A hand (the ``hand`` of a scoring request) -> the scoring answer."""


def the_score(answer: Mapping[str, Any]) -> tuple[Any, ...]:
    """What of a scoring answer the player pays and is paid by (:data:`SCORE_KEYS`)."""
    return tuple(repr(answer.get(key)) for key in SCORE_KEYS)


def unsure_tiles(recognition: Mapping[str, Any], winning_tile: str | None, scorer: Scorer,
                 answer: Mapping[str, Any]) -> list[dict[str, Any]]:
    """For each tile of ``recognition`` marked ``low_confidence`` (a tile the player has
    corrected is sent without the mark), whether reading it as any of its
    ``alternatives`` (as ``/api/v1/recognize`` gives them) changes ``answer``, the
    score of the hand as read: ``{"index", "changes_score", "faces"}``, ``faces``
    being those tried.

    Only the faces with which the hand still wins are compared: players photograph
    a winning hand (the premise of ``scoring.likely_hand``), and a face that leaves
    none (a bamboo for a flower, a back among the concealed, a fifth copy) is not
    what the tile is. Tiles without alternatives are left out, and so is every
    tile when the hand as read does not win: then every check matters."""
    if not answer.get("valid"):
        return []
    tiles = recognition.get("tiles")
    if not isinstance(tiles, list):
        return []
    marked = [t for t in tiles if isinstance(t, Mapping) and t.get("low_confidence") is True
              and isinstance(t.get("alternatives"), list) and t["alternatives"]][:MAX_TILES]
    base = the_score(answer)
    out = []
    for tile in marked:
        faces = [a["code"] for a in tile["alternatives"][:MAX_FACES]
                 if isinstance(a, Mapping) and isinstance(a.get("code"), str)
                 and a["code"] not in ("none", tile.get("code"))]
        if not faces:
            continue
        answers = (_score_as(recognition, tile, face, winning_tile, scorer) for face in faces)
        changes = any(the_score(a) != base for a in answers if a is not None and a.get("valid"))
        out.append({"index": tile.get("index"), "changes_score": changes, "faces": faces})
    return out


def _score_as(recognition: Mapping[str, Any], tile: Mapping[str, Any], face: str,
              winning_tile: str | None, scorer: Scorer) -> Mapping[str, Any] | None:
    """The scoring answer with ``tile`` read as ``face`` (None: no hand to score)."""
    changed = [{**t, "code": face, "face_down": face == "back"} if t is tile else t
               for t in recognition["tiles"]]
    try:
        hand = hand_from_recognition({**recognition, "tiles": changed},
                                     winning_tile=winning_tile)
    except RecognitionError:
        return None
    try:
        return scorer(hand)
    except ScoringError:
        return None
