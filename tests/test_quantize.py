"""models/quantize.py: a float export becomes an int8 model that reads as it did.

Why: every retrain ends in this step, and nothing else runs it between
retrains; a tiny network built here with ``onnx.helper`` (no torch needed)
keeps it working. The shipped models' own check is ``test_classify.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort  # type: ignore[import-untyped]
from onnx import TensorProto, helper, numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "models"))

from quantize import calibration_crops, halve_weights, quantize

from vision.classify import preprocess

H, W, CLASSES = 16, 12, 5


def tiny_model(path: Path) -> None:
    """image (N, 3, 16, 12) -> conv 3x3 -> relu -> mean -> linear: logits and orientation,
    the tile models' input and outputs in miniature."""
    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(a.astype(np.float32), name) for name, a in (
        ("scale", np.array([1 / 128.0])), ("shift", np.array([-1.0])),
        ("w", rng.normal(0, 0.3, (8, 3, 3, 3))), ("b", rng.normal(0, 0.1, 8)),
        ("fc", rng.normal(0, 0.5, (8, CLASSES))), ("fc_b", rng.normal(0, 0.1, CLASSES)),
        ("up", rng.normal(0, 0.5, (8, 2))), ("up_b", np.zeros(2)))]
    nodes = [
        helper.make_node("Mul", ["image", "scale"], ["scaled"]),
        helper.make_node("Add", ["scaled", "shift"], ["x"]),
        helper.make_node("Conv", ["x", "w", "b"], ["conv"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["conv"], ["relu"]),
        helper.make_node("GlobalAveragePool", ["relu"], ["pool"]),
        helper.make_node("Flatten", ["pool"], ["feat"]),
        helper.make_node("Gemm", ["feat", "fc", "fc_b"], ["logits"]),
        helper.make_node("Gemm", ["feat", "up", "up_b"], ["orientation"]),
    ]
    graph = helper.make_graph(
        nodes, "tiny", [helper.make_tensor_value_info("image", TensorProto.FLOAT, ["N", 3, H, W])],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["N", CLASSES]),
         helper.make_tensor_value_info("orientation", TensorProto.FLOAT, ["N", 2])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))


def test_a_float_model_becomes_int8_and_reads_as_before(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    crops = rng.integers(0, 256, (64, H, W, 3), dtype=np.uint8)
    np.savez(tmp_path / "train.npz", x=crops, y=np.zeros(64, np.int64))
    tiny_model(tmp_path / "float.onnx")

    chosen = calibration_crops(tmp_path / "train.npz", n=32)
    assert chosen.shape == (32, H, W, 3)
    quantize(tmp_path / "float.onnx", tmp_path / "int8.onnx", chosen)

    ops = {node.op_type for node in onnx.load(str(tmp_path / "int8.onnx")).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear", "Conv"} <= ops
    batch = preprocess(list(crops[:16]), (H, W), rgb=True)
    before = ort.InferenceSession(str(tmp_path / "float.onnx")).run(None, {"image": batch})
    after = ort.InferenceSession(str(tmp_path / "int8.onnx")).run(None, {"image": batch})
    for b, a in zip(before, after, strict=True):
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, atol=0.1 * float(np.abs(b).max()))


def test_weights_halved_to_float16_read_as_before(tmp_path: Path) -> None:
    """The bonus reader (a LiteNet) ships so: float32 compute, float16 storage."""
    tiny_model(tmp_path / "float.onnx")
    halve_weights(tmp_path / "float.onnx", tmp_path / "half.onnx", min_size=100)

    stored = {t.name: t.data_type for t in onnx.load(str(tmp_path / "half.onnx")).graph.initializer}
    assert stored["w.f16"] == TensorProto.FLOAT16  # 216 values: halved
    assert stored["b"] == TensorProto.FLOAT  # 8 values: kept
    batch = preprocess(list(np.random.default_rng(2).integers(0, 256, (16, H, W, 3),
                                                              dtype=np.uint8)), (H, W), rgb=True)
    before = ort.InferenceSession(str(tmp_path / "float.onnx")).run(None, {"image": batch})
    after = ort.InferenceSession(str(tmp_path / "half.onnx")).run(None, {"image": batch})
    for b, a in zip(before, after, strict=True):
        assert a.dtype == np.float32
        np.testing.assert_allclose(a, b, atol=0.01 * float(np.abs(b).max()))
