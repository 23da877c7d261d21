"""Turn a shipped ONNX model back into a PyTorch checkpoint that training can start from.

Why: only the ONNX models are committed (the checkpoints are ignored, and a fresh
machine has none), and a fine-tune (``train_classifier.py --init``) needs a
PyTorch state dict. Run 10's checkpoint was once overwritten, and its weights were
recovered from its float ONNX export this way; from the committed int8 models the
weights come back within their 8-bit rounding, which a fine-tune smooths out.

The export folds each batch normalisation into the convolution before it
(weights scaled, a bias added), so the folded weights go back into the
convolutions and each batch normalisation is set, from the statistics of its
convolution's output on training crops, so that it passes its input on plus the
folded bias *both* in evaluation mode and with a training batch's own statistics
(an identity batch normalisation would rescale every layer in the first training
step). The script checks that PyTorch then gives onnxruntime's answers.

It rebuilds TileNet exports only: the tile classifier, and the bonus readers
before the forty-fifth session. The shipped reader since then is a
``litenet.LiteNet`` (float, float16 weights), trained from ImageNet weights
in 25 minutes, so a new one is trained rather than recovered.

    python3 models/checkpoint_from_onnx.py models/tile-classifier.onnx build/tiles10 \\
        build/init/tilenet.pt
    python3 models/checkpoint_from_onnx.py --reader bonus models/bonus-reader.onnx build/bonus15 \\
        build/init/bonusnet.pt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))  # train_classifier.py beside it

from train_classifier import READER_LABELS, TileNet, crop_size, to_tensor

from vision.classify import model_session

STAT_CROPS = 2048
"""Training crops whose convolution outputs set each batch normalisation."""


def float_weights(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    """Every constant tensor of the graph as float: initializers as stored, and the
    outputs of DequantizeLinear nodes on initializers (int8 weights, int32 biases)."""
    values = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type != "DequantizeLinear" or node.input[0] not in values:
            continue
        q, scale = values[node.input[0]].astype(np.float64), values[node.input[1]]
        zero = values[node.input[2]].astype(np.float64) if len(node.input) > 2 else 0.0
        axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
        if np.ndim(scale) == 1 and q.ndim > 1:  # per channel along `axis`
            shape = [1] * q.ndim
            shape[axis] = -1
            scale, zero = np.reshape(scale, shape), np.reshape(zero, shape)
        values[node.output[0]] = ((q - zero) * scale).astype(np.float32)
    return values


def rebuild(onnx_path: Path, reader: str, crops: np.ndarray) -> TileNet:
    """The network of ``onnx_path`` as a :class:`TileNet`, batch normalisations set on
    ``crops`` (see the module docstring)."""
    graph = onnx.load(str(onnx_path))
    values = float_weights(graph)
    convs = [(values[n.input[1]], values[n.input[2]])
             for n in graph.graph.node if n.op_type == "Conv"]
    dense = {n.input[1].split(".")[0]: (values[n.input[1]], values[n.input[2]])
             for n in graph.graph.node if n.op_type == "Gemm"}
    net = TileNet(len(READER_LABELS[reader]), crop_size(reader)).eval()
    if len(convs) != len(net.features):
        raise SystemExit(f"{onnx_path}: {len(convs)} convolutions, the network has "
                         f"{len(net.features)}")
    with torch.no_grad():
        for name in ("fc", "cls", "orient"):
            layer = getattr(net, name)
            layer.weight.copy_(torch.from_numpy(dense[name][0]))
            layer.bias.copy_(torch.from_numpy(dense[name][1]))
        x = TileNet.normalise(to_tensor(crops))
        for block, (weight, bias) in zip(net.features, convs, strict=True):
            conv, bn = block[0], block[1]
            conv.weight.copy_(torch.from_numpy(weight))
            z = conv(x)
            m, v = z.mean(dim=(0, 2, 3)), z.var(dim=(0, 2, 3), unbiased=False)
            bn.running_mean.copy_(m)
            bn.running_var.copy_(v)
            bn.weight.copy_(torch.sqrt(v + bn.eps))
            bn.bias.copy_(m + torch.from_numpy(bias))
            x = F.relu(z + torch.from_numpy(bias).view(1, -1, 1, 1))
    return net


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", type=Path, help="the ONNX model (int8 or float)")
    p.add_argument("data", type=Path, help="its training data folder (train.npz)")
    p.add_argument("out", type=Path, help="the checkpoint to write (.pt)")
    p.add_argument("--reader", choices=tuple(READER_LABELS), default="tiles")
    a = p.parse_args()
    x = np.load(a.data / "train.npz")["x"]
    pick = np.sort(np.random.default_rng(0).choice(len(x), min(STAT_CROPS, len(x)),
                                                   replace=False))
    net = rebuild(a.model, a.reader, x[pick])

    check = x[pick[:256]]
    with torch.no_grad():
        ours = net(to_tensor(check))[0].numpy()
    theirs = model_session(a.model).run(
        ["logits"], {"image": to_tensor(check).numpy()})[0]
    agree = float((ours.argmax(1) == theirs.argmax(1)).mean())
    print(f"{a.model} -> {a.out}: PyTorch and onnxruntime agree on {agree:.1%} of "
          f"{len(check)} training crops (largest logit difference "
          f"{float(np.abs(ours - theirs).max()):.3f})")
    a.out.parent.mkdir(parents=True, exist_ok=True)
    torch.save(net.state_dict(), a.out)
    return 0 if agree >= 0.98 else 1


if __name__ == "__main__":
    sys.exit(main())
