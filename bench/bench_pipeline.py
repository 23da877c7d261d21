"""Benchmark of the photo pipeline: tiles found, named, hands read exactly, latency.

Measures, on the generated benchmark set (``python -m datasets.scenes --count 200
--out build/scenes``) and on the real photos of ``../shared/datasets/real-dev/photos``:

* tile recall and precision: a tile is found when a found outline overlaps its
  true outline with IoU >= 0.5 (one-to-one matching);
* name accuracy: the share of true tiles found *and* named right (face-down
  tiles must be reported face down);
* exact hands: every tile found and named right, nothing extra;
* hands scored right: the score that the service would give the hand read
  (Hong Kong list A, a self-drawn win, at each of the four seats: valid or
  not, fan, payments) is the true hand's; a tile read wrong may not change
  it (a summer taken for the orchid: both are seat 2's bonus tile);
* latency of a 12-megapixel JPEG, decode to result (median, warm process).

Tiles are named as the service names them: the classifier's readings, then the
most probable winning hand among them (:mod:`scoring.likely_hand`);
``--no-hand-reading`` measures the classifier's first readings alone,
``--no-settling`` the low-confidence marks without the hand settling any
(``scoring.likely_hand.other_winning_faces``), and ``--no-second-stage`` the tile model
without its bonus reader (``vision.classify``).

The real photos are product photos of whole sets with only some tiles labelled
(``complete: false``): there, recall and naming are measured on the labelled
tiles and precision is not measured.

The same photos go through the public ``mahjong-detector`` package (a YOLO
detector, 34 Japanese-set classes, axis-aligned boxes) when it is installed in
its own virtual environment (``--peer-python``, default
``build/peer-venv/bin/python``); its figures are printed beside ours. Without
it the script says so and measures our pipeline only.

Run::

    python -m datasets.scenes --count 200 --out build/scenes
    python bench/bench_pipeline.py
    python bench/bench_pipeline.py --segment-only --limit 60   # outlines only, quick
    python bench/bench_pipeline.py --no-peer --failures        # which hands failed, and how
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from api.recognized_hand import RecognitionError, hand_from_recognition  # noqa: E402
from datasets.scene_eval import box_polygon, match_outlines  # noqa: E402
from scoring.score import score_request  # noqa: E402
from scoring.tiles import tile as tile_code  # noqa: E402

DECODE_SIDE = 2000
PEER_NAMES = {"chun": "7z", "haku": "5z", "hatsu": "6z", "nan": "2z", "pe": "4z",
              "sha": "3z", "tou": "1z"}
PEER_SCRIPT = r"""
import json, sys, time
from PIL import Image, ImageOps
from mahjong_detector.preprocess import preprocess_image
from mahjong_detector.predict import CLASS_NAMES, predict
out = []
for path in json.loads(sys.stdin.read()):
    t0 = time.perf_counter()
    img = ImageOps.exif_transpose(Image.open(path))
    small, pad = preprocess_image(img)
    dets = predict(small, pad)
    dt = time.perf_counter() - t0
    out.append({"path": path, "seconds": dt, "tiles": [
        {"box": [d.x1, d.y1, d.x2 - d.x1, d.y2 - d.y1], "code": CLASS_NAMES[d.class_id],
         "confidence": d.confidence} for d in sorted(dets, key=lambda d: d.x1)]})
print(json.dumps(out))
"""


@dataclass
class Tally:
    """Counts over a set of photos."""

    truth: int = 0
    found: int = 0
    matched: int = 0
    named: int = 0
    hands: int = 0
    exact: int = 0
    seconds: list[float] = field(default_factory=list)
    seconds_12mp: list[float] = field(default_factory=list)
    scored_right: int = 0
    """Hands whose score is the true hand's (:func:`scored_as`)."""
    scored_right_inexact: int = 0
    """... of them, hands not read exactly."""
    slowest: tuple[float, str] = (0.0, "")
    """The longest decode-to-result time and its photo: a median hides a photo
    that takes seconds (a whole set of 144 faces once took 6 s)."""
    failures: list[str] = field(default_factory=list)
    """One line per hand not read exactly: what went wrong (``--failures`` prints them)."""
    checked: bool = False
    """Whether the warnings were tallied (ours: the peer gives none)."""
    misread: int = 0
    misread_pointed: int = 0
    wrong_hands: int = 0
    silent_wrong: int = 0
    right_hands_warned: int = 0
    right_hands_pointed: int = 0
    """Tiles that a warning asks the player to check, on hands read right."""
    misread_offered: int = 0
    """Misnamed tiles whose true face is among their alternatives (the page offers them)."""
    misread_offered_two: int = 0
    """... among the first two: the classifier's next two faces, as offered before the
    faces that also win were added (fiftieth session)."""

    def add(self, found: list[tuple[np.ndarray, str]], truth: list[tuple[np.ndarray, str]],
            *, complete: bool, name: str = "", pointed: list[bool] | None = None,
            warned: bool = False, offered: list[list[str]] | None = None) -> bool:
        """Count one photo. ``pointed``: for each found tile, whether a warning names it
        (a player is told to check it); ``warned``: whether the photo has any warning;
        ``offered``: each found tile's alternatives, in order. Returns whether the
        hand was read exactly."""
        m = match_outlines([f[0] for f in found], [t[0] for t in truth])
        named = sum(1 for i, j in m.pairs if found[i][1] == truth[j][1])
        misnamed = [(i, j) for i, j in m.pairs
                    if found[i][1] not in ("", truth[j][1])]  # "": --segment-only names nothing
        right = named == len(truth) == len(found)
        if pointed is not None:
            self.checked = True
            self.misread += len(misnamed)
            self.misread_pointed += sum(pointed[i] for i, _ in misnamed)
            if offered is not None:
                self.misread_offered += sum(truth[j][1] in offered[i] for i, j in misnamed)
                self.misread_offered_two += sum(truth[j][1] in offered[i][:2]
                                                for i, j in misnamed)
            if complete:
                self.wrong_hands += int(not right)
                self.silent_wrong += int(not right and not warned)
                self.right_hands_warned += int(right and warned)
                self.right_hands_pointed += sum(pointed) if right else 0
        self.truth += len(truth)
        self.found += len(found) if complete else 0
        self.matched += len(m.pairs)
        self.named += named
        wrong = [f"{truth[j][1]}->{found[i][1]}" for i, j in misnamed]
        matched = {j for _, j in m.pairs}
        missed = [code for j, (_, code) in enumerate(truth) if j not in matched]
        extra = len(found) - len(m.pairs) if complete else 0  # partly labelled: unknowable
        if complete:
            self.hands += 1
            self.exact += int(right)
        if wrong or missed or extra:
            self.failures.append(" ".join([name, *wrong, *(["missed", *missed] if missed else []),
                                           *([f"extra {extra}"] if extra else [])]))
        return right

    def scored(self, read: tuple[Any, ...], truth: tuple[Any, ...], *, exact: bool) -> None:
        """Count one hand's score (:func:`scored_as`) against its true hand's."""
        if read == truth:
            self.scored_right += 1
            self.scored_right_inexact += int(not exact)

    def timed(self, path: Path, seconds: float) -> None:
        """Count one photo's decode-to-result time."""
        self.seconds.append(seconds)
        if path.suffix.lower() in (".jpg", ".jpeg") and _is_12mp(path):
            self.seconds_12mp.append(seconds)
        self.slowest = max(self.slowest, (seconds, path.name))

    def lines(self, name: str, *, complete: bool) -> list[str]:
        pct = lambda a, b: f"{100 * a / b:6.2f}%" if b else "   n/a"  # noqa: E731
        out = [f"{name}: {self.truth} true tiles"
               + (f" in {self.hands} hands" if complete else " (labelled ones)"),
               f"  recall    {pct(self.matched, self.truth)}",
               f"  precision {pct(self.matched, self.found) if complete else '   n/a'}"
               + ("" if complete else " (photos only partly labelled)"),
               f"  named right (of true tiles) {pct(self.named, self.truth)}"]
        if complete:
            out.append(f"  exact hands {pct(self.exact, self.hands)}")
        if complete and self.checked:
            out.append(f"  hands scored right (hk-a, self-drawn, at each seat) "
                       f"{pct(self.scored_right, self.hands)}; of them not read exactly: "
                       f"{self.scored_right_inexact}")
        if self.checked:
            out.append(f"  misnamed tiles that a warning points at: {self.misread_pointed} of "
                       f"{self.misread}; whose true face is offered: {self.misread_offered} "
                       f"(among the classifier's next two: {self.misread_offered_two})")
            if complete:
                out.append(f"  hands read wrong with no warning at all: {self.silent_wrong} of "
                           f"{self.wrong_hands}; hands read right with a warning: "
                           f"{self.right_hands_warned} of {self.exact}, "
                           f"{self.right_hands_pointed} tiles to check on them")
        if self.seconds:
            med = 1000 * statistics.median(self.seconds)
            out.append(f"  latency decode->result median {med:.0f} ms over "
                       f"{len(self.seconds)} photos; slowest {1000 * self.slowest[0]:.0f} ms "
                       f"({self.slowest[1]})")
        if self.seconds_12mp:
            out.append(f"  latency, 12-MP JPEGs: median "
                       f"{1000 * statistics.median(self.seconds_12mp):.0f} ms over "
                       f"{len(self.seconds_12mp)} photos")
        return out


SCORE_SEATS = ("east", "south", "west", "north")


def scored_as(recognition: dict[str, Any], rules: str = "hk-a") -> tuple[Any, ...]:
    """The score the service gives a recognition (or a generated scene's truth, which has
    the same tile fields) for a self-drawn win at each seat: valid or not, fan and
    payments; or why it cannot be read as a hand.

    Why: the player asks for the score, and a tile read wrong may leave it as it
    is (a season taken for the flower of its number); the exact-hands figure counts
    such a hand as lost."""
    try:
        hand = hand_from_recognition(recognition)
    except RecognitionError as exc:
        return ("unreadable", exc.code)
    answers = (score_request({"rules": rules, "hand": hand,
                              "context": {"seat_wind": seat, "self_drawn": True}})
               for seat in SCORE_SEATS)
    return tuple((a.get("valid"), a.get("fan"), json.dumps(a.get("payments"), sort_keys=True))
                 for a in answers)


def _read_truth(path: Path) -> dict[str, Any]:
    """A photo's ground truth, the JSON file beside it."""
    data: dict[str, Any] = json.loads(path.with_suffix(".json").read_text())
    return data


def _truth_scene(data: dict[str, Any]) -> tuple[list[tuple[np.ndarray, str]], bool]:
    return [(np.array(t["outline"], np.float64), t["code"]) for t in data["tiles"]], True


def _truth_real(data: dict[str, Any]) -> tuple[list[tuple[np.ndarray, str]], bool]:
    out = []
    for t in data["tiles"]:
        try:
            code = tile_code(t["tile"]).code
        except ValueError:
            code = t["tile"]  # outside our 43 classes (American sets): never named right
        out.append((box_polygon(t["box"]), code))
    return out, bool(data.get("complete", False))


def _is_12mp(path: Path) -> bool:
    from PIL import Image

    with Image.open(path) as im:
        w, h = im.size
    return 11e6 <= w * h <= 13e6


def run_ours(photos: list[Path], truth_of: Any, tally: Tally,
             by_table: dict[str, Tally] | None = None, *, segment_only: bool = False,
             hand_reading: bool = True, settling: bool = True,
             second_stage: bool = True, full_size: bool = True) -> None:
    from scoring.likely_hand import most_likely, other_winning_faces
    from vision.classify import TileClassifier
    from vision.photo import load_photo
    from vision.recognize import recognize
    from vision.segment import segment

    classifier = None if segment_only else TileClassifier(second_stage=second_stage)

    # one warm-up call: the classifier's session starts once per process
    if photos and not segment_only:
        warm = load_photo(photos[0], max_side=DECODE_SIDE)
        recognize(warm.image, scale=warm.scale, classifier=classifier)
    for path in photos:
        t0 = time.perf_counter()
        photo = load_photo(path, max_side=DECODE_SIDE)
        if segment_only:  # the tiles' outlines only: names are left empty (never right)
            seg = segment(photo.image)
            found = [(q.corners / photo.scale, "") for q in seg.quads]
            pointed, warned, offered = None, False, None  # no names, no warnings to tally
        else:
            rec = recognize(photo.image, scale=photo.scale, classifier=classifier,
                            hand_reader=most_likely if hand_reading else None,
                            hand_alternatives=other_winning_faces if settling else None,
                            full_size=partial(load_photo, path) if full_size else None)
            found = [(np.array(t.outline), t.code) for t in rec.tiles]
            named_by_warnings = {i for w in rec.warnings for i in w.tiles}
            pointed, warned = [t.index in named_by_warnings for t in rec.tiles], bool(rec.warnings)
            offered = [[a.code for a in t.alternatives] for t in rec.tiles]
        tally.timed(path, time.perf_counter() - t0)
        data = _read_truth(path)
        truth, complete = truth_of(data)
        exact = tally.add(found, truth, complete=complete, name=path.stem, pointed=pointed,
                          warned=warned, offered=offered)
        if complete and not segment_only:
            tally.scored(scored_as(rec.to_dict()), scored_as(data), exact=exact)
        if by_table is not None:
            table = str(data.get("background", "?"))
            by_table.setdefault(table, Tally()).add(found, truth, complete=complete)


def run_peer(python: Path, photos: list[Path], truth_of: Any, tally: Tally) -> str | None:
    """Run mahjong-detector in its own environment; returns why not, or None."""
    if not python.exists():
        return f"peer not installed ({python} missing: python3 -m venv build/peer-venv && " \
               "build/peer-venv/bin/pip install torch==2.13.0 mahjong-detector)"
    try:
        proc = subprocess.run([str(python), "-c", PEER_SCRIPT],
                              input=json.dumps([str(p) for p in photos]), text=True,
                              capture_output=True, timeout=3600, check=False)
    except subprocess.TimeoutExpired:
        return "peer timed out"
    if proc.returncode != 0:
        return "peer failed: " + proc.stderr.strip().splitlines()[-1] if proc.stderr else "?"
    results = json.loads(proc.stdout)
    for k, res in enumerate(results):
        path = Path(res["path"])
        if k > 0 or len(results) == 1:  # the first call also starts the model's session
            tally.timed(path, res["seconds"])
        found = [(box_polygon(t["box"]), PEER_NAMES.get(t["code"], t["code"]))
                 for t in res["tiles"]]
        truth, complete = truth_of(_read_truth(path))
        tally.add(found, truth, complete=complete)
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=Path, default=ROOT / "build" / "scenes")
    parser.add_argument("--real", type=Path,
                        default=ROOT / ".." / "shared" / "datasets" / "real-dev" / "photos")
    parser.add_argument("--limit", type=int, default=0, help="use only the first N scenes")
    parser.add_argument("--peer-python", type=Path,
                        default=ROOT / "build" / "peer-venv" / "bin" / "python")
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--no-hand-reading", action="store_true",
                        help="the classifier's first readings, as they are (the service "
                             "reads them as the most likely winning hand)")
    parser.add_argument("--no-settling", action="store_true",
                        help="mark every tile read below the low-confidence mark, even where "
                             "the hand settles its reading (the service lets it)")
    parser.add_argument("--no-full-size", action="store_true",
                        help="never decode a photo again at its full size (the service "
                             "does, for a photo whose tiles do not count right)")
    parser.add_argument("--no-second-stage", action="store_true",
                        help="the tile model alone, without its bonus reader")
    parser.add_argument("--failures", action="store_true",
                        help="list our hands not read exactly: the wrong names (true->read) "
                             "and the tiles missed or extra")
    parser.add_argument("--segment-only", action="store_true",
                        help="outlines only (no classifier, no peer): quick while tuning "
                             "vision/segment.py")
    args = parser.parse_args(argv)

    scenes = sorted(args.scenes.glob("scene_*.jpg"))
    if args.limit:
        scenes = scenes[: args.limit]
    real = sorted(p for p in args.real.glob("*") if p.suffix.lower() in (".jpg", ".png"))
    if not scenes:
        print(f"no scenes in {args.scenes}: python -m datasets.scenes --count 200 "
              f"--out {args.scenes}")
    print(f"command: python bench/bench_pipeline.py --scenes {args.scenes}"
          + (f" --limit {args.limit}" if args.limit else "")
          + (" --segment-only" if args.segment_only else "")
          + (" --no-hand-reading" if args.no_hand_reading else "")
          + (" --no-settling" if args.no_settling else "")
          + (" --no-second-stage" if args.no_second_stage else "")
          + (" --failures" if args.failures else ""))
    for name, photos, truth_of in (("generated scenes", scenes, _truth_scene),
                                   ("real photos (real-dev)", real, _truth_real)):
        if not photos:
            continue
        complete = truth_of is _truth_scene
        ours = Tally()
        tables: dict[str, Tally] | None = {} if complete else None
        run_ours(photos, truth_of, ours, tables, segment_only=args.segment_only,
                 hand_reading=not args.no_hand_reading, settling=not args.no_settling,
                 second_stage=not args.no_second_stage, full_size=not args.no_full_size)
        print("\n".join(ours.lines(f"[ours] {name}", complete=complete)))
        if args.failures:
            print("\n".join(f"  failed: {line}" for line in ours.failures))
        for table, t in sorted((tables or {}).items()):
            print(f"  by table: {table:<6} {t.hands:3d} hands  recall "
                  f"{100 * t.matched / max(1, t.truth):6.2f}%  precision "
                  f"{100 * t.matched / max(1, t.found):6.2f}%  named "
                  f"{100 * t.named / max(1, t.truth):6.2f}%  exact "
                  f"{100 * t.exact / max(1, t.hands):6.2f}%")
        if args.no_peer or args.segment_only:
            continue
        peer = Tally()
        why = run_peer(args.peer_python, photos, truth_of, peer)
        if why:
            print(f"[mahjong-detector] {name}: {why}")
        else:
            print("\n".join(peer.lines(f"[mahjong-detector] {name}", complete=complete)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
