"""Train the tile classifier (PyTorch, CPU) and export it to ONNX.

Why a script in ``models/``: it produces the files committed beside it
(``tile-classifier.onnx``, ``labels.txt``, ``reference.npz``) and the metrics
quoted by ``MODEL_CARD.md``, so the whole recipe lives next to its result.
Needs the ``train`` extra (torch, tqdm) and the data built by
``python3 -m datasets.tile_dataset`` (see that module).

    python3 models/train_classifier.py --data build/tiles --epochs 8 --seed 0

Training data: rendered crops of every artwork except
``datasets.artwork.HELD_OUT_STYLES`` plus the real crops of the physical sets
``REAL_TRAIN_SETS``; the sets ``REAL_HELDOUT_SETS`` are never trained on.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from tqdm import tqdm

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from datasets.tile_dataset import (  # noqa: E402
    CROP_H,
    CROP_W,
    LABEL_INDEX,
    LABELS,
    REAL_HELDOUT_SETS,
    REAL_TRAIN_SETS,
    photometric,
)
from vision.classify import TURNABLE  # noqa: E402

NONE_INDEX = LABEL_INDEX["none"]
TURNABLE_MASK = torch.tensor([lab in TURNABLE for lab in LABELS])
"""Orientation is learnt only on tiles that look different upside down."""


def conv_bn(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class TileNet(nn.Module):
    """Small VGG-like CNN; input (N, 3, 80, 60) RGB in [0, 255].

    Per-image brightness/contrast normalisation is part of the graph, so the
    ONNX model sees raw pixels and no pre-processing can drift between
    training and inference. Two heads: tile label (44) and orientation (2)."""

    def __init__(self, n_classes: int = len(LABELS)) -> None:
        super().__init__()
        self.features = nn.Sequential(
            conv_bn(3, 16, 2),  # 40x30
            conv_bn(16, 32, 2),  # 20x15
            conv_bn(32, 48),
            conv_bn(48, 96, 2),  # 10x8
            conv_bn(96, 96),
            conv_bn(96, 128, 2),  # 5x4
            conv_bn(128, 128),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(128 * 5 * 4, 256)
        self.cls = nn.Linear(256, n_classes)
        self.orient = nn.Linear(256, 2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        mean = x.mean(dim=(1, 2, 3), keepdim=True)
        std = x.std(dim=(1, 2, 3), keepdim=True) + 8.0
        x = (x - mean) / std
        f = self.features(x).flatten(1)
        f = F.relu(self.fc(self.drop(f)))
        f = self.drop(f)
        return self.cls(f), self.orient(f)


# ------------------------------------------------------------------ real crops


def augment_real(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A real tight crop (160x120) -> a crop like the segmenter's (80x60)."""
    h, w = img.shape[:2]
    s = rng.uniform(0.88, 1.15)
    ang = rng.normal(0, 2.5)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), ang, 1 / s)
    m[:, 2] += rng.normal(0, 0.04, 2) * np.array([w, h])
    out = cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    out = cv2.resize(out, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA)
    return photometric(out, rng, strength=0.6)


def real_batch(x: np.ndarray, y: np.ndarray, reps: int, rng: np.random.Generator
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, rs = [], [], []
    for _ in range(reps):
        for img, lab in zip(x, y, strict=True):
            a = augment_real(img, rng)
            up = rng.random() < 0.5
            xs.append(a[::-1, ::-1] if up else a)
            ys.append(lab)
            rs.append(int(up))
    return np.stack(xs), np.array(ys), np.array(rs)


def plain_real(x: np.ndarray) -> np.ndarray:
    return np.stack([cv2.resize(i, (CROP_W, CROP_H), interpolation=cv2.INTER_AREA) for i in x])


# ------------------------------------------------------------------ training


def to_tensor(x: np.ndarray) -> torch.Tensor:
    return torch.from_numpy(np.ascontiguousarray(x)).permute(0, 3, 1, 2).float()


@torch.no_grad()
def predict(model: nn.Module, x: np.ndarray, bs: int = 512) -> tuple[np.ndarray, np.ndarray]:
    model.eval()
    outs, ors = [], []
    for i in range(0, len(x), bs):
        c, o = model(to_tensor(x[i : i + bs]))
        outs.append(c.numpy())
        ors.append(o.numpy())
    return np.concatenate(outs), np.concatenate(ors)


def main() -> int:
    p = argparse.ArgumentParser(description="train the tile classifier")
    p.add_argument("--data", default=str(REPO / "build" / "tiles"))
    p.add_argument("--out", default=str(REPO / "models"))
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--real-reps", type=int, default=12, help="copies of each real crop per epoch")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--limit", type=int, default=0, help="use only N synthetic crops (smoke test)")
    p.add_argument("--budget-min", type=float, default=0.0,
                   help="train for this many minutes of wall clock (cosine schedule over the "
                   "clock, ignores --epochs): keeps a retrain under an hour on a busy machine")
    p.add_argument("--export-only", metavar="CHECKPOINT", default=None,
                   help="skip training: export a saved state dict (tilenet.pt)")
    a = p.parse_args()
    t0 = time.time()
    if a.export_only:
        model = TileNet()
        model.load_state_dict(torch.load(a.export_only))
        export(model, Path(a.out), Path(a.data), np.random.default_rng(a.seed))
        return 0
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)
    data = Path(a.data)
    tr = np.load(data / "train.npz")
    x_syn, y_syn, r_syn = tr["x"], tr["y"], tr["rot"]
    if a.limit:
        idx = rng.choice(len(y_syn), a.limit, replace=False)
        x_syn, y_syn, r_syn = x_syn[idx], y_syn[idx], r_syn[idx]
    with np.load(data / "real.npz") as z:
        real = {k: z[k] for k in z.files}
    train_mask = np.isin(real["set"], REAL_TRAIN_SETS)
    xr, yr = real["x"][train_mask], real["y"][train_mask]
    print(f"synthetic {len(y_syn)}, real train {len(yr)} from sets {REAL_TRAIN_SETS}")

    model = TileNet()
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=5e-4)
    n_per_epoch = len(y_syn) + len(yr) * a.real_reps
    steps = a.epochs * ((n_per_epoch + a.batch - 1) // a.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=steps, pct_start=0.15)
    budget_s = a.budget_min * 60
    t_train = time.time()
    n_steps = 0
    epoch = 0
    while True:
        if budget_s and time.time() - t_train >= budget_s:
            break
        if not budget_s and epoch >= a.epochs:
            break
        xb_r, yb_r, rb_r = real_batch(xr, yr, a.real_reps, rng)
        x_all = np.concatenate([x_syn, xb_r])
        y_all = np.concatenate([y_syn, yb_r])
        r_all = np.concatenate([r_syn, rb_r])
        order = rng.permutation(len(y_all))
        model.train()
        total = "?" if budget_s else str(a.epochs)
        bar = tqdm(range(0, len(order), a.batch), desc=f"epoch {epoch + 1}/{total}")
        correct = seen = 0
        for i in bar:
            idx = order[i : i + a.batch]
            xb = x_all[idx]
            rb = r_all[idx].copy()
            flip = rng.random(len(idx)) < 0.5  # online 180 degree turns: free extra variety
            xb = np.where(flip[:, None, None, None], xb[:, ::-1, ::-1], xb)
            rb[flip] ^= 1
            xt = to_tensor(xb)
            yt = torch.from_numpy(y_all[idx])
            rt = torch.from_numpy(rb)
            logits, orient = model(xt)
            loss = F.cross_entropy(logits, yt, label_smoothing=0.05)
            mask = TURNABLE_MASK[yt]
            if mask.any():
                loss = loss + 0.3 * F.cross_entropy(orient[mask], rt[mask])
            opt.zero_grad(set_to_none=True)
            loss.backward()
            if budget_s:  # warm-up then cosine decay over the wall-clock budget
                frac = min(1.0, (time.time() - t_train) / budget_s)
                lr = a.lr * (frac / 0.05 if frac < 0.05 else
                             0.5 * (1 + np.cos(np.pi * (frac - 0.05) / 0.95)))
                for g in opt.param_groups:
                    g["lr"] = lr
                if frac >= 1.0:
                    break
            opt.step()
            if not budget_s:
                sched.step()
            n_steps += 1
            correct += int((logits.argmax(1) == yt).sum())
            seen += len(idx)
            bar.set_postfix(loss=f"{loss.item():.3f}", acc=f"{correct / seen:.3f}")
        epoch += 1
        torch.save(model.state_dict(), data / "tilenet.pt")
        # progress only (no checkpoint is chosen by it): real sets never trained on
        held = np.isin(real["set"], REAL_HELDOUT_SETS)
        c, _ = predict(model, plain_real(real["x"][held]))
        print(f"  real held-out sets: {float((c.argmax(1) == real['y'][held]).mean()):.4f}",
              flush=True)
    train_s = time.time() - t0
    export(model, Path(a.out), data, rng)
    (Path(a.out) / "train_log.json").write_text(json.dumps({
        "seed": a.seed, "epochs": epoch, "steps": n_steps, "batch": a.batch,
        "train_seconds": round(train_s),
        "synthetic": len(y_syn), "real_train": len(yr),
        "command": " ".join(sys.argv),
    }, indent=2))
    print(f"trained in {train_s / 60:.1f} min")
    return 0


def export(model: nn.Module, out: Path, data: Path, rng: np.random.Generator) -> None:
    """ONNX + labels + reference inputs/outputs (so tests need no torch)."""
    model.eval()
    out.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, CROP_H, CROP_W)
    torch.onnx.export(
        model, (dummy,), str(out / "tile-classifier.onnx"), input_names=["image"],
        output_names=["logits", "orientation"], opset_version=17, dynamo=False,
        dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}, "orientation": {0: "batch"}},
    )
    (out / "labels.txt").write_text("\n".join(LABELS) + "\n")
    with np.load(data / "test_seen.npz") as te:
        idx = rng.choice(len(te["y"]), 6, replace=False)
        x = te["x"][idx]
    c, o = predict(model, x)
    np.savez_compressed(out / "reference.npz", x=x, logits=c, orientation=o)


if __name__ == "__main__":
    raise SystemExit(main())
