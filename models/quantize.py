"""Quantize an exported model to 8-bit integers, the form that ships.

Why: a hand is 14 crops read twice each (both ways up), plus the bonus reader
on those that may be flowers or seasons, and that must fit in 15 ms on a
laptop core. Laptop and server CPUs of the last years multiply 8-bit integers
several times faster than 32-bit floats (AVX-512 VNNI, AVX-VNNI), and
onnxruntime uses that for integer convolutions. Static quantization with
per-channel weights, calibrated on training crops, reads the test splits as the
float model does (``models/HISTORY.md``) in about two thirds of its time
(a real hand with four flowers: 12.9 against 17.6 ms), and makes the files a
quarter of the size. Both stages get the same treatment.

    python3 models/quantize.py FLOAT.onnx OUT.onnx --data build/tiles10/train.npz

``train_classifier.py`` calls :func:`quantize` itself when it exports, so a
retrain ships integer models; this command re-quantizes a float export.
Needs ``onnx`` (the ``train`` extra); running the result needs only onnxruntime.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.classify import preprocess  # noqa: E402

CALIBRATION_CROPS = 512
"""Training crops whose activations set the integer ranges (each read both ways
up, as at inference). More changed no test figure."""
BATCH = 32


def calibration_crops(train_npz: Path, n: int = CALIBRATION_CROPS, seed: int = 0) -> np.ndarray:
    """``n`` crops (N, H, W, 3) RGB drawn at random from a data set's training split."""
    with np.load(train_npz, mmap_mode="r") as data:
        x = data["x"]
        idx = np.sort(np.random.default_rng(seed).choice(len(x), min(n, len(x)), replace=False))
        return np.asarray(x[idx])


def quantize(float_model: Path, out: Path, crops: np.ndarray) -> None:
    """Write ``float_model`` as an int8 model (QDQ, per-channel weights) to ``out``,
    its activation ranges measured on ``crops`` (RGB, at the model's input size)."""
    from onnxruntime.quantization import (  # type: ignore[import-untyped]
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import (  # type: ignore[import-untyped]
        quant_pre_process,
    )

    batch = preprocess(list(crops), crops.shape[1:3], rgb=True)
    batch = np.concatenate([batch, batch[:, :, ::-1, ::-1]])  # both ways up, as _two_views

    class Crops(CalibrationDataReader):  # type: ignore[misc]
        def __init__(self) -> None:
            self.feeds: Iterator[dict[str, np.ndarray]] = (
                {"image": batch[i : i + BATCH]} for i in range(0, len(batch), BATCH))

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.feeds, None)

    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"  # shapes inferred, graph folded
        quant_pre_process(str(float_model), str(prepared))
        quantize_static(str(prepared), str(out), Crops(), quant_format=QuantFormat.QDQ,
                        per_channel=True, activation_type=QuantType.QInt8,
                        weight_type=QuantType.QInt8, calibrate_method=CalibrationMethod.MinMax)


def main() -> int:
    p = argparse.ArgumentParser(description="quantize an exported tile model to int8")
    p.add_argument("float_model", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--data", type=Path, required=True,
                   help="the train.npz of the model's data set (calibration crops)")
    a = p.parse_args()
    quantize(a.float_model, a.out, calibration_crops(a.data))
    print(f"wrote {a.out} ({a.out.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
