"""Train the tile classifier (PyTorch, CPU or GPU) and export it to ONNX (see quantize.py).

Why a script in ``models/``: it produces the files committed beside it
(``tile-classifier.onnx``, ``labels.txt``, ``reference.npz``) and the metrics
quoted by ``MODEL_CARD.md``, so the whole recipe lives next to its result.
Needs the ``train`` extra (torch, tqdm) and the data built by
``python3 -m datasets.tile_dataset`` (see that module).

    python3 models/train_classifier.py --data build/tiles --epochs 8 --seed 0
    python3 models/train_classifier.py --reader bonus --data build/bonus \
        --init models/tilenet.pt --lr 2e-3 --budget-min 12

``--reader bonus`` trains the second stage of ``vision.classify`` instead: the bonus
reader, which tells the eight flowers and seasons apart (and from everything
else, "other") on larger crops, from data built with ``--reader bonus``. A
TileNet reader starts from the tile classifier's weights (``--init``): trained
from scratch for 25 minutes it read the training styles' bonus tiles worse than
the classifier it was meant to help (92.3 against 94.7 %). The shipped reader is
a ``--arch lite0`` network (``litenet.py``), which starts from ImageNet weights
instead and reads unseen sets' flowers and seasons better (run 50,
models/HISTORY.md, forty-fifth session; ``vision.classify.FLOWER_PRIOR`` then
weighs its flowers above the seasons):

    python3 models/train_classifier.py --reader bonus --arch lite0 --data build/bonus37 \
        --lr 1e-3 --budget-min 25 --real-reps 16 --restyle 0.5 --restyle-kernels 1

Training data: rendered crops of every artwork except
``datasets.artwork.HELD_OUT_STYLES`` plus the real crops of the physical sets
``REAL_TRAIN_SETS``; the sets ``REAL_HELDOUT_SETS`` are never trained on.
"""

from __future__ import annotations

import argparse
import json
import math
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

from litenet import LiteNet, imagenet_weights, normalised  # noqa: E402  (models/, the script's folder)
from quantize import calibration_crops, halve_weights, quantize  # noqa: E402

from datasets.tile_dataset import (  # noqa: E402
    BONUS_CODES,
    LABELS,
    REAL_HELDOUT_SETS,
    REAL_TRAIN_SETS,
    crop_size,
    photometric,
)
from vision.classify import BONUS_READER_FILES, MODEL_FILES, OTHER, TURNABLE  # noqa: E402

READER_LABELS: dict[str, tuple[str, ...]] = {"tiles": LABELS, "bonus": (*BONUS_CODES, OTHER)}
"""Each model's outputs: the tile classifier's 44 labels, or the bonus reader's 9."""
READER_FILES = {"tiles": MODEL_FILES, "bonus": BONUS_READER_FILES}
CHECKPOINTS = {"tiles": "tilenet.pt", "bonus": "bonusnet.pt"}
"""The state dict saved after each epoch, in the output folder beside the model it
exports. (It was once saved in the data folder, where any later run on the same
data, a smoke test included, overwrote it: run 10's weights were lost that way and
two later fine-tunes started from a half-trained network; see models/HISTORY.md.)"""
TRAIN_LOGS = {"tiles": "train_log.json", "bonus": "bonus-train_log.json"}
MIN_ORIGINAL = 0.25
""":func:`restyle` keeps at least this much of the original image: a random
convolution alone can wash a face out to a blank, which then teaches that a blank
face may be any tile. (The unseen set's blank white dragon was still read as dots
in 3 or 4 of the 200 benchmark hands with it: models/HISTORY.md, runs 23 and 24.)"""
COLOUR_BOUND = ("5z", "back")
"""Labels that only colour tells apart: a blank white dragon is a white face, a
face-down tile a coloured back. :func:`restyle` leaves them alone by default
(``--restyle-keep``): restyled, the unseen set's white dragon was also read as a
back (models/HISTORY.md, runs 20 and 26)."""
RESTYLE_KERNELS = (1, 3)
""":func:`restyle`'s convolution sizes, one drawn per batch."""
FLOAT_MODELS = {"tiles": "tilenet.onnx", "bonus": "bonusnet.onnx"}
"""The float ONNX export, in the output folder; what ships is its int8 quantization."""


def relabel(y: np.ndarray, reader: str) -> np.ndarray:
    """The data's tile-label indices -> the reader's output indices (non-bonus -> other)."""
    labels = READER_LABELS[reader]
    index = {lab: i for i, lab in enumerate(labels)}
    table = np.array([index.get(lab, index.get(OTHER, -1)) for lab in LABELS], np.int64)
    return table[y]


def turnable_mask(labels: tuple[str, ...]) -> torch.Tensor:
    """Orientation is learnt only on tiles that look different upside down."""
    return torch.tensor([lab in TURNABLE for lab in labels])


def conv_bn(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class TileNet(nn.Module):
    """Small VGG-like CNN; input (N, 3, H, W) RGB in [0, 255] (80x60 for the
    classifier, 128x96 for the bonus reader).

    Per-image brightness/contrast normalisation is part of the graph, so the
    ONNX model sees raw pixels and no pre-processing can drift between
    training and inference. Two heads: label (44, or the bonus reader's 9) and
    orientation (2)."""

    def __init__(self, n_classes: int = len(LABELS),
                 size: tuple[int, int] = crop_size("tiles")) -> None:
        super().__init__()
        grid = math.ceil(size[0] / 16) * math.ceil(size[1] / 16)  # after four stride-2 convs
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
        self.fc = nn.Linear(128 * grid, 256)
        self.cls = nn.Linear(256, n_classes)
        self.orient = nn.Linear(256, 2)

    normalise = staticmethod(normalised)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        f = self.features(self.normalise(x)).flatten(1)
        f = F.relu(self.fc(self.drop(f)))
        f = self.drop(f)
        return self.cls(f), self.orient(f)


ARCHS = ("vgg", "lite0")
"""``vgg``: :class:`TileNet`, learnt from the crops alone (the shipped tile
classifier); ``lite0``: :class:`litenet.LiteNet`, started from ImageNet weights
(the shipped bonus reader)."""


def build_model(arch: str, n_classes: int, size: tuple[int, int]) -> nn.Module:
    return LiteNet(n_classes, size) if arch == "lite0" else TileNet(n_classes, size)


# ------------------------------------------------------------------ real crops


def augment_real(img: np.ndarray, rng: np.random.Generator, size: tuple[int, int]
                 ) -> np.ndarray:
    """A real tight crop (160x120) -> a crop like the segmenter's (``size``: H, W)."""
    h, w = img.shape[:2]
    s = rng.uniform(0.88, 1.15)
    ang = rng.normal(0, 2.5)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), ang, 1 / s)
    m[:, 2] += rng.normal(0, 0.04, 2) * np.array([w, h])
    out = cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    out = cv2.resize(out, size[::-1], interpolation=cv2.INTER_AREA)
    return photometric(out, rng, strength=0.6)


def real_batch(x: np.ndarray, y: np.ndarray, reps: int, rng: np.random.Generator,
               size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs, ys, rs = [], [], []
    for _ in range(reps):
        for img, lab in zip(x, y, strict=True):
            a = augment_real(img, rng, size)
            up = rng.random() < 0.5
            xs.append(a[::-1, ::-1] if up else a)
            ys.append(lab)
            rs.append(int(up))
    return np.stack(xs), np.array(ys), np.array(rs)


def plain_real(x: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    return np.stack([cv2.resize(i, size[::-1], interpolation=cv2.INTER_AREA) for i in x])


# ------------------------------------------------------------------ training


def to_tensor(x: np.ndarray | torch.Tensor, device: torch.device | str = "cpu") -> torch.Tensor:
    """NHWC uint8 crops -> NCHW float (channels-last in memory) on ``device``; the
    conversion to float happens there, so a GPU is sent a quarter of the bytes."""
    t = x if isinstance(x, torch.Tensor) else torch.from_numpy(np.ascontiguousarray(x))
    return t.to(device, non_blocking=True).permute(0, 3, 1, 2).float()


@torch.no_grad()
def restyle(x: torch.Tensor, share: float, gen: torch.Generator,
            keep: torch.Tensor | None = None,
            kernels: tuple[int, ...] = RESTYLE_KERNELS) -> torch.Tensor:
    """A random share of a batch redrawn in random colours and strokes (RandConv).

    Why: every set inks its faces its own way (red on ivory, white on jade, thin
    or bold brush), and ten training artworks teach the network those sets'
    colours and strokes along with the tiles. Each chosen image goes through a
    random convolution (3 -> 3 channels, of a size drawn from ``kernels``: 1x1
    gives new ink and face colours, inverted ones included; 3x3 also blurred,
    thickened or outlined strokes), is stretched back to 0..255 and blended
    with the original by a random weight, so only the shapes stay reliable.
    After Xu et al., "Robust and generalizable visual representation learning
    via random convolutions" (ICLR 2021). Off by default: the fine-tunes tried
    with it (models/HISTORY.md, runs 19-26) read unseen sets' characters better and
    their blank white dragon worse, and did not ship.

    ``keep`` marks the images left as they are: those whose colour is their
    label (:data:`COLOUR_BOUND`, or ``--restyle-keep``)."""
    pick = torch.rand(len(x), generator=gen) < share
    if keep is not None:
        pick &= ~keep
    chosen = torch.nonzero(pick).flatten().to(x.device)
    if not len(chosen):
        return x
    k = kernels[int(torch.randint(0, len(kernels), (1,), generator=gen))]
    n = len(chosen)
    src = x[chosen]
    # drawn on the CPU generator whatever the device, so a seed restyles alike everywhere
    w = (torch.randn(n * 3, 3, k, k, generator=gen) / math.sqrt(3 * k * k)).to(x.device)
    y = F.conv2d(src.reshape(1, n * 3, *src.shape[2:]) / 255.0 - 0.5, w, padding=k // 2,
                 groups=n).reshape(src.shape)
    low = y.amin(dim=(1, 2, 3), keepdim=True)
    high = y.amax(dim=(1, 2, 3), keepdim=True)
    y = (y - low) / (high - low + 1e-6) * 255.0
    a = (MIN_ORIGINAL + (1 - MIN_ORIGINAL) * torch.rand(n, 1, 1, 1, generator=gen)).to(x.device)
    out = x.clone()
    out[chosen] = a * src + (1 - a) * y
    return out


@torch.no_grad()
def predict(model: nn.Module, x: np.ndarray, bs: int = 512) -> tuple[np.ndarray, np.ndarray]:
    model.eval()
    device = next(model.parameters()).device
    outs, ors = [], []
    for i in range(0, len(x), bs):
        c, o = model(to_tensor(x[i : i + bs], device))
        outs.append(c.cpu().numpy())
        ors.append(o.cpu().numpy())
    return np.concatenate(outs), np.concatenate(ors)


def load_matching(model: nn.Module, state: dict[str, torch.Tensor]) -> None:
    """Copy the weights whose name and shape agree; the rest keep their initialisation."""
    own = model.state_dict()
    same = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
    model.load_state_dict(same, strict=False)
    print(f"started from {len(same)} of {len(own)} tensors")


def main() -> int:
    p = argparse.ArgumentParser(description="train the tile classifier")
    p.add_argument("--data", default=str(REPO / "build" / "tiles"))
    p.add_argument("--out", default=str(REPO / "models"))
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--real-reps", type=int, default=12, help="copies of each real crop per epoch")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--reader", choices=tuple(READER_LABELS), default="tiles",
                   help="which model: the tile classifier, or the bonus reader (its own data)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu",
                   help="where the network trains: cpu, or cuda on a machine with a GPU (the "
                   "crops then wait there as bytes, and each batch is cut, turned and made "
                   "float there)")
    p.add_argument("--restyle", type=float, default=0.0, metavar="SHARE",
                   help="share of each batch redrawn by a random convolution (see restyle)")
    p.add_argument("--restyle-kernels", type=int, nargs="+", default=list(RESTYLE_KERNELS),
                   metavar="K", help="its sizes (1: colours only; 3: strokes too)")
    p.add_argument("--restyle-keep", nargs="*", default=list(COLOUR_BOUND), metavar="LABEL",
                   help="labels never restyled")
    p.add_argument("--bf16", action="store_true",
                   help="convolutions in bfloat16 (autocast), for CPUs that have it natively "
                   "(AVX-512 BF16, AMX): 1.6x the steps in the same minutes, but the models "
                   "so trained were not better (run 11 in models/HISTORY.md), so not the default")
    p.add_argument("--limit", type=int, default=0, help="use only N synthetic crops (smoke test)")
    p.add_argument("--budget-min", type=float, default=0.0,
                   help="train for this many minutes of wall clock (cosine schedule over the "
                   "clock, ignores --epochs): keeps a retrain under an hour on a busy machine")
    p.add_argument("--init", metavar="CHECKPOINT", default=None,
                   help="start from another model's weights where the shapes agree (a "
                   "TileNet bonus reader starts from the tile classifier's convolutions)")
    p.add_argument("--arch", choices=ARCHS, default="vgg",
                   help="the network (see ARCHS); lite0 starts from ImageNet weights unless --init")
    p.add_argument("--export-only", metavar="CHECKPOINT", default=None,
                   help="skip training: export a saved state dict (tilenet.pt)")
    a = p.parse_args()
    t0 = time.time()
    labels, size = READER_LABELS[a.reader], crop_size(a.reader)
    if a.export_only:
        model = build_model(a.arch, len(labels), size)
        model.load_state_dict(torch.load(a.export_only, map_location="cpu"))
        export(model, Path(a.out), Path(a.data), np.random.default_rng(a.seed), a.reader)
        return 0
    torch.manual_seed(a.seed)
    torch.set_num_threads(a.threads)
    rng = np.random.default_rng(a.seed)
    gen = torch.Generator().manual_seed(a.seed)
    data = Path(a.data)
    tr = np.load(data / "train.npz")
    x_syn, y_syn, r_syn = tr["x"], relabel(tr["y"], a.reader), tr["rot"]
    if a.limit:
        idx = rng.choice(len(y_syn), a.limit, replace=False)
        x_syn, y_syn, r_syn = x_syn[idx], y_syn[idx], r_syn[idx]
    with np.load(data / "real.npz") as z:
        real = {k: z[k] for k in z.files}
    real["y"] = relabel(real["y"], a.reader)
    train_mask = np.isin(real["set"], REAL_TRAIN_SETS)
    xr, yr = real["x"][train_mask], real["y"][train_mask]
    print(f"synthetic {len(y_syn)}, real train {len(yr)} from sets {REAL_TRAIN_SETS}")

    device = torch.device(a.device)
    model = build_model(a.arch, len(labels), size)
    if a.init:
        load_matching(model, torch.load(a.init, map_location="cpu"))
    elif a.arch == "lite0":
        load_matching(model, imagenet_weights())
    # to_tensor's batches are channels-last already
    model = model.to(device, memory_format=torch.channels_last)
    turnable = turnable_mask(labels).to(device)
    x_syn_t = torch.from_numpy(x_syn).to(device)  # uint8 NHWC; on the CPU, no copy
    keep_style = torch.tensor([lab in a.restyle_keep for lab in labels])
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
        xb_r, yb_r, rb_r = real_batch(xr, yr, a.real_reps, rng, size)
        x_all = torch.cat([x_syn_t, torch.from_numpy(xb_r).to(device)])
        y_all = np.concatenate([y_syn, yb_r])
        r_all = np.concatenate([r_syn, rb_r])
        order = rng.permutation(len(y_all))
        model.train()
        total = "?" if budget_s else str(a.epochs)
        bar = tqdm(range(0, len(order), a.batch), desc=f"epoch {epoch + 1}/{total}")
        correct = seen = 0
        for i in bar:
            idx = order[i : i + a.batch]
            xb = x_all[torch.from_numpy(idx).to(device)]
            rb = r_all[idx].copy()
            flip = rng.random(len(idx)) < 0.5  # online 180 degree turns: free extra variety
            flip_t = torch.from_numpy(flip).to(device)[:, None, None, None]
            xb = torch.where(flip_t, xb.flip(1, 2), xb)
            rb[flip] ^= 1
            xt = to_tensor(xb, device)
            y_cpu = torch.from_numpy(y_all[idx])  # restyle draws its choices on the CPU
            yt = y_cpu.to(device)
            if a.restyle:
                xt = restyle(xt, a.restyle, gen, keep=keep_style[y_cpu],
                             kernels=tuple(a.restyle_kernels))
            rt = torch.from_numpy(rb).to(device)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=a.bf16):
                logits, orient = model(xt)
            logits, orient = logits.float(), orient.float()
            loss = F.cross_entropy(logits, yt, label_smoothing=0.05)
            mask = turnable[yt]
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
        Path(a.out).mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), Path(a.out) / CHECKPOINTS[a.reader])
        # progress only (no checkpoint is chosen by it): real sets never trained on
        held = np.isin(real["set"], REAL_HELDOUT_SETS)
        c, _ = predict(model, plain_real(real["x"][held], size))
        print(f"  real held-out sets: {float((c.argmax(1) == real['y'][held]).mean()):.4f}",
              flush=True)
    train_s = time.time() - t0
    export(model, Path(a.out), data, rng, a.reader)
    (Path(a.out) / TRAIN_LOGS[a.reader]).write_text(json.dumps({
        "reader": a.reader, "arch": a.arch, "seed": a.seed, "epochs": epoch, "steps": n_steps,
        "batch": a.batch,
        "bf16": a.bf16, "device": a.device, "restyle": a.restyle,
        "restyle_kernels": a.restyle_kernels if a.restyle else None,
        "restyle_keep": a.restyle_keep if a.restyle else None,
        "train_seconds": round(train_s),
        "synthetic": len(y_syn), "real_train": len(yr),
        "command": " ".join(sys.argv),
    }, indent=2))
    print(f"trained in {train_s / 60:.1f} min")
    return 0


def export(model: nn.Module, out: Path, data: Path, rng: np.random.Generator,
           reader: str = "tiles") -> None:
    """The shipped ONNX model (int8, or float16 weights for a LiteNet: see
    ``quantize.py``) + labels + reference inputs and
    PyTorch outputs (so tests need no torch). The float ONNX model stays beside
    them and the checkpoint, for comparisons (ignored by git in ``models/``)."""
    model = model.cpu().eval()
    out.mkdir(parents=True, exist_ok=True)
    files = READER_FILES[reader]
    dummy = torch.zeros(1, 3, *crop_size(reader))
    float_model = out / FLOAT_MODELS[reader]
    torch.onnx.export(
        model, (dummy,), str(float_model), input_names=["image"],
        output_names=["logits", "orientation"], opset_version=17, dynamo=False,
        dynamic_axes={"image": {0: "batch"}, "logits": {0: "batch"}, "orientation": {0: "batch"}},
    )
    if isinstance(model, LiteNet):  # slower in int8: see quantize.halve_weights
        halve_weights(float_model, out / files.model)
    else:
        quantize(float_model, out / files.model, calibration_crops(data / "train.npz"))
    (out / files.labels).write_text("\n".join(READER_LABELS[reader]) + "\n")
    with np.load(data / "test_seen.npz") as te:
        idx = rng.choice(len(te["y"]), 6, replace=False)
        x = te["x"][idx]
    c, o = predict(model, x)
    np.savez_compressed(out / files.reference, x=x, logits=c, orientation=o)


if __name__ == "__main__":
    raise SystemExit(main())
