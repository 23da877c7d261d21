"""Quantize an exported model to 8-bit integers, the form that ships.

Why: a hand is 14 crops read twice each (both ways up), plus the bonus reader
on those that may be flowers or seasons, and that must fit in 15 ms on a
laptop core. Laptop and server CPUs of the last years multiply 8-bit integers
several times faster than 32-bit floats (AVX-512 VNNI, AVX-VNNI), and
onnxruntime uses that for integer convolutions. Static quantization with
per-channel weights, calibrated on training crops, reads the test splits as the
float model does (``models/HISTORY.md``) in about two thirds of its time
(a real hand with four flowers: 12.9 against 17.6 ms), and makes the files a
quarter of the size. That is how the tile classifier (``TileNet``) ships. A
network of depthwise convolutions (``litenet.LiteNet``: the bonus reader since
the forty-fifth session) is slower in int8 and ships in float, its weights
stored as float16 (:func:`halve_weights`).

    python3 models/quantize.py FLOAT.onnx OUT.onnx --data build/tiles10/train.npz
    python3 models/quantize.py --half FLOAT.onnx OUT.onnx

``train_classifier.py`` calls one or the other itself when it exports (by the
network's kind); this command does it again from a float export.
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


HALVED_MIN_SIZE = 256
"""Weights with fewer values than this stay float32 in :func:`halve_weights` (biases,
batch-norm leftovers): they save nothing worth a cast."""


def halve_weights(float_model: Path, out: Path, min_size: int = HALVED_MIN_SIZE) -> None:
    """Write ``float_model`` to ``out`` with its float32 weights stored as float16,
    each cast back to float32 by a node that onnxruntime folds when it loads the model.

    Why: a network built mostly of depthwise convolutions (``litenet.LiteNet``, the
    bonus reader since the forty-fifth session) runs *slower* as int8 here, since
    onnxruntime has no fast integer kernel for them (8 crops at 128x96: 13.0 ms
    int8, 7.2 ms float); it ships in float, and this halves its file (12.3
    to 6.2 MB) for a rounding of its logits under 0.01 (the same test figures to
    the crop). It computes in float32."""
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(float_model))
    graph = model.graph
    kept, casts = [], []
    for tensor in graph.initializer:
        value = numpy_helper.to_array(tensor)
        if value.dtype != np.float32 or value.size < min_size:
            kept.append(tensor)
            continue
        half = numpy_helper.from_array(value.astype(np.float16), f"{tensor.name}.f16")
        kept.append(half)
        casts.append(helper.make_node("Cast", [half.name], [tensor.name],
                                      to=onnx.TensorProto.FLOAT, name=f"{tensor.name}.cast"))
    nodes = [*casts, *graph.node]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, str(out))


def main() -> int:
    p = argparse.ArgumentParser(description="quantize an exported tile model to int8")
    p.add_argument("float_model", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--data", type=Path,
                   help="the train.npz of the model's data set (calibration crops)")
    p.add_argument("--half", action="store_true",
                   help="store the weights as float16 instead (see halve_weights)")
    a = p.parse_args()
    if a.half:
        halve_weights(a.float_model, a.out)
    elif a.data is None:
        p.error("--data is needed to quantize (or --half)")
    else:
        quantize(a.float_model, a.out, calibration_crops(a.data))
    print(f"wrote {a.out} ({a.out.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
