"""Measure the shipped ONNX tile classifier: accuracy per source, per class, confusions.

Why separate from training: the figures in ``MODEL_CARD.md`` must come from
the exported ``tile-classifier.onnx`` (and its second stage, ``bonus-reader.onnx``,
when it lies beside it) run by onnxruntime through ``vision.classify`` (exactly
what users run), not from the PyTorch network.

    python3 models/evaluate_classifier.py --data build/tiles --bonus-data build/bonus

Writes ``models/metrics.json`` and ``models/confusion.png`` (rows: true label,
columns: predicted; held-out synthetic style + held-out real sets). Each split
is read by both stages; ``first_stage`` gives the tile model's figures alone.
``--data`` may also be test crops rendered at the photo pipeline's 128x96
(``datasets.tile_dataset --pipeline-size``), which both stages read as they read
a photo's faces. ``--bonus-data`` adds the bonus reader's test splits (128x96 crops, mostly
flowers and seasons): the 80x60 crops of ``--data`` are too small for it.
The real crops are read twice: as the data builder stores them (160x120,
near the 128x96 faces the photo pipeline cuts), and as files at their own
size (``from_files``), which is what ``mjlens classify CROP`` gets.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from datasets.artwork import HELD_OUT_STYLES, datasets_root  # noqa: E402
from datasets.tile_dataset import (  # noqa: E402
    BONUS_CODES,
    LABELS,
    REAL_HELDOUT_SETS,
    REAL_TRAIN_SETS,
)
from vision.classify import MIN_CONFIDENCE, TURNABLE, TileClassifier  # noqa: E402

BONUS_INDICES = [LABELS.index(c) for c in BONUS_CODES]
"""Label indices of the flowers and seasons, reported apart (the weak point)."""


def run(clf: TileClassifier, x: Sequence[np.ndarray] | np.ndarray, *, rgb: bool = True
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top-1 label index, its probability, predicted upside-down flag.

    Reads the crops as the product does (``TileClassifier.probabilities``: both
    ways up, averaged), so these figures are the ones users get."""
    preds, confs, ups = [], [], []
    for i in range(0, len(x), 256):
        p, p_up = clf.probabilities(list(x[i : i + 256]), rgb=rgb)
        preds.append(p.argmax(1))
        confs.append(p.max(1))
        ups.append((p_up > 0.5).astype(np.int64))
    return np.concatenate(preds), np.concatenate(confs), np.concatenate(ups)


def read_crop(path: Path) -> np.ndarray:
    """One real crop as ``mjlens classify`` reads it (BGR, at its own size)."""
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise SystemExit(f"{path}: not a readable image")
    return img


def wrong_files(files: np.ndarray, y: np.ndarray, pred: np.ndarray) -> list[list[str]]:
    """``[file, true code, read code]`` for each crop read wrong."""
    return [[str(f), LABELS[t], LABELS[q]] for f, t, q in zip(files, y, pred, strict=True)
            if t != q]


def summary(y: np.ndarray, pred: np.ndarray, conf: np.ndarray) -> dict[str, object]:
    ok = pred == y
    return {
        "n": len(y),
        "top1": round(float(ok.mean()), 4) if len(y) else None,
        # what a user sees: wrong answers given with confidence >= MIN_CONFIDENCE
        "confident_errors": int(((~ok) & (conf >= MIN_CONFIDENCE)).sum()),
        "rejected_as_unsure": int((conf < MIN_CONFIDENCE).sum()),
    }


def confusions(y: np.ndarray, pred: np.ndarray, top: int = 15) -> list[list[object]]:
    c = Counter((LABELS[t], LABELS[p]) for t, p in zip(y, pred, strict=True) if t != p)
    return [[t, p, n] for (t, p), n in c.most_common(top)]


def per_class(y: np.ndarray, pred: np.ndarray) -> dict[str, list[float]]:
    out = {}
    for i, lab in enumerate(LABELS):
        m = y == i
        if m.any():
            out[lab] = [round(float((pred[m] == i).mean()), 4), int(m.sum())]
    return out


def draw_confusion(y: np.ndarray, pred: np.ndarray, path: Path, title: str) -> None:
    """Confusion matrix as a PNG (row-normalised), drawn with OpenCV only."""
    n = len(LABELS)
    m = np.zeros((n, n), np.float64)
    for t, p in zip(y, pred, strict=True):
        m[t, p] += 1
    m = m / np.maximum(m.sum(1, keepdims=True), 1)
    cell, left, topm = 16, 48, 60
    img = np.full((topm + n * cell + 10, left + n * cell + 10, 3), 255, np.uint8)
    for i in range(n):
        for j in range(n):
            v = m[i, j]
            if v > 0:
                col = (255, int(255 * (1 - v)), int(255 * (1 - v))) if i == j else \
                      (int(255 * (1 - v)), int(255 * (1 - v)), 255)
                y0, x0 = topm + i * cell, left + j * cell
                cv2.rectangle(img, (x0, y0), (x0 + cell - 1, y0 + cell - 1), col, -1)
        cv2.putText(img, LABELS[i], (2, topm + i * cell + 12), cv2.FONT_HERSHEY_PLAIN, 0.8,
                    (0, 0, 0), 1)
        tx = left + i * cell + 3
        for k, ch in enumerate(LABELS[i][:4]):
            cv2.putText(img, ch, (tx, 18 + k * 10), cv2.FONT_HERSHEY_PLAIN, 0.7, (0, 0, 0), 1)
    for k in range(n + 1):
        cv2.line(img, (left, topm + k * cell), (left + n * cell, topm + k * cell), (220, 220, 220))
        cv2.line(img, (left + k * cell, topm), (left + k * cell, topm + n * cell), (220, 220, 220))
    cv2.putText(img, title, (left, topm - 8), cv2.FONT_HERSHEY_PLAIN, 0.9, (0, 0, 0), 1)
    cv2.imwrite(str(path), img)


def main() -> int:
    p = argparse.ArgumentParser(description="evaluate the ONNX tile classifier")
    p.add_argument("--data", default=str(REPO / "build" / "tiles"))
    p.add_argument("--out", default=str(REPO / "models"))
    p.add_argument("--model", default=None)
    p.add_argument("--bonus-data", default=None,
                   help="the bonus reader's data (datasets.tile_dataset --reader bonus)")
    p.add_argument("--datasets", default=None, help="shared data folder, for the real crops' "
                   "files (default: $MJLENS_DATASETS or ../shared/datasets)")
    a = p.parse_args()
    data, out = Path(a.data), Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    clf = TileClassifier(a.model)
    first = TileClassifier(a.model, second_stage=False)
    metrics: dict[str, object] = {"second_stage": clf.bonus_reader is not None}
    ys, ps = [], []
    splits = [(split, data / f"{split}.npz") for split in ("test_seen", "test_heldout")]
    if a.bonus_data:
        splits += [(f"bonus_{split}", Path(a.bonus_data) / f"{split}.npz")
                   for split in ("test_seen", "test_heldout")]
    for split, path in splits:
        d = np.load(path)
        pred, conf, up = run(clf, d["x"])
        y = d["y"]
        res = summary(y, pred, conf)
        res["first_stage"] = summary(y, *run(first, d["x"])[:2])
        bonus = np.isin(y, BONUS_INDICES)
        res["bonus"] = summary(y[bonus], pred[bonus], conf[bonus])
        tile = np.array([LABELS[t] in TURNABLE for t in y])
        res["orientation_acc"] = round(float((up[tile] == d["rot"][tile]).mean()), 4)
        res["per_source"] = {s: summary(y[d["src"] == s], pred[d["src"] == s], conf[d["src"] == s])
                             for s in sorted(set(d["src"]))}
        res["per_class"] = per_class(y, pred)
        res["confusions"] = confusions(y, pred)
        metrics[split] = res
        if split == "test_heldout":
            ys.append(y)
            ps.append(pred)
    real = np.load(data / "real.npz")
    x_real = real["x"]  # 160x120: each stage shrinks the crops to its own input
    pred, conf, up = run(clf, x_real)
    pred_1, conf_1, _ = run(first, x_real)
    y = real["y"]
    sets = real["set"]
    pred_180, _, up_180 = run(clf, np.ascontiguousarray(x_real[:, ::-1, ::-1]))
    crops = datasets_root(a.datasets) / "real-dev" / "crops"
    from_files = None
    if crops.is_dir():
        from_files = run(clf, [read_crop(crops / f) for f in real["files"]], rgb=False)
    else:
        print(f"{crops} is missing: the real crops are read only as stored in real.npz")
    for name, group in (("real_heldout", REAL_HELDOUT_SETS), ("real_trained", REAL_TRAIN_SETS)):
        m = np.isin(sets, group)
        res = summary(y[m], pred[m], conf[m])
        res["first_stage"] = summary(y[m], pred_1[m], conf_1[m])
        bonus = m & np.isin(y, BONUS_INDICES)
        res["bonus"] = summary(y[bonus], pred[bonus], conf[bonus])
        res["sets"] = list(group)
        res["per_set"] = {s: summary(y[sets == s], pred[sets == s], conf[sets == s])
                          for s in group}
        res["top1_upside_down"] = round(float((pred_180[m] == y[m]).mean()), 4)
        if from_files is not None:
            read = summary(y[m], from_files[0][m], from_files[1][m])
            read["errors"] = wrong_files(real["files"][m], y[m], from_files[0][m])
            res["from_files"] = read
        t = m & np.array([LABELS[k] in TURNABLE for k in y])
        res["orientation_acc"] = round(float(((up[t] == 0).mean() + (up_180[t] == 1).mean()) / 2),
                                       4)
        res["per_class"] = per_class(y[m], pred[m])
        res["confusions"] = confusions(y[m], pred[m])
        res["errors"] = wrong_files(real["files"][m], y[m], pred[m])
        metrics[name] = res
        if name == "real_heldout":
            ys.append(y[m])
            ps.append(pred[m])
    draw_confusion(np.concatenate(ys), np.concatenate(ps), out / "confusion.png",
                   f"held-out: {'+'.join(HELD_OUT_STYLES)} renders and real sets " +
                   " ".join(REAL_HELDOUT_SETS))
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1))
    for k, v in metrics.items():
        if not isinstance(v, dict):
            continue
        print(f"{k}: top1 {v['top1']} on {v['n']} (confident errors {v['confident_errors']}, "
              f"unsure {v['rejected_as_unsure']}); first stage alone {v['first_stage']['top1']}; "
              f"flowers and seasons {v['bonus']['top1']} on {v['bonus']['n']}")
        if "per_source" in v:
            for s, r in v["per_source"].items():
                print(f"   {s}: {r['top1']} on {r['n']}")
        if "per_set" in v:
            for s, r in v["per_set"].items():
                print(f"   set {s}: {r['top1']} on {r['n']}")
        if "from_files" in v:
            r = v["from_files"]
            print(f"   read from the files: top1 {r['top1']} (confident errors "
                  f"{r['confident_errors']}), wrong: {r['errors']}")
        print("   confusions:", v["confusions"][:8])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
