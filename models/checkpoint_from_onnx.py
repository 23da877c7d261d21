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

It rebuilds both architectures: TileNet (the tile classifier, and the bonus
readers before the forty-fifth session) and ``litenet.LiteNet`` (the reader since
then, shipped in float with float16 weights behind Cast nodes). For both, every
batch normalisation is set from one evaluation pass with the folded biases in
place, since a LiteNet's convolutions are not a plain chain (ReLU6, residual sums)
that could be followed layer by layer.

    python3 models/checkpoint_from_onnx.py models/tile-classifier.onnx build/tiles10 \\
        build/init/tilenet.pt
    python3 models/checkpoint_from_onnx.py --reader bonus models/bonus-reader.onnx build/bonus37 \\
        build/init/bonusnet.pt
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, str(Path(__file__).resolve().parent))  # train_classifier.py beside it

from train_classifier import ARCHS, READER_LABELS, build_model, crop_size, to_tensor

from vision.classify import model_session

STAT_CROPS = 2048
"""Training crops whose convolution outputs set each batch normalisation."""


def float_weights(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    """Every constant tensor of the graph as float: initializers as stored, the
    outputs of Cast nodes on initializers (float16 weights), and the outputs of
    DequantizeLinear nodes on initializers (int8 weights, int32 biases)."""
    values = {t.name: numpy_helper.to_array(t).copy() for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Cast" and node.input[0] in values:
            values[node.output[0]] = values[node.input[0]].astype(np.float32)
            continue
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


def conv_bn_pairs(net: torch.nn.Module) -> list[tuple[torch.nn.Conv2d, torch.nn.BatchNorm2d]]:
    """Each convolution with the batch normalisation after it, in the order the
    export writes them: both networks register each convolution just before its
    batch normalisation, and in the order their forward passes use them."""
    pairs, conv = [], None
    for module in net.modules():
        if isinstance(module, torch.nn.Conv2d):
            conv = module
        elif isinstance(module, torch.nn.BatchNorm2d) and conv is not None:
            pairs.append((conv, module))
            conv = None
    return pairs


def rebuild(onnx_path: Path, reader: str, arch: str, crops: np.ndarray) -> torch.nn.Module:
    """The network of ``onnx_path`` as a ``build_model(arch)``, batch normalisations
    set on ``crops`` (see the module docstring)."""
    graph = onnx.load(str(onnx_path))
    values = float_weights(graph)
    convs = [(values[n.input[1]], values[n.input[2]])
             for n in graph.graph.node if n.op_type == "Conv"]
    dense = {n.input[1].split(".")[0]: (values[n.input[1]], values[n.input[2]])
             for n in graph.graph.node if n.op_type == "Gemm"}
    net = build_model(arch, len(READER_LABELS[reader]), crop_size(reader)).eval()
    pairs = conv_bn_pairs(net)
    if len(convs) != len(pairs):
        raise SystemExit(f"{onnx_path}: {len(convs)} convolutions, a {arch} network has "
                         f"{len(pairs)}")
    with torch.no_grad():
        for name in ("fc", "cls", "orient"):
            layer = getattr(net, name)
            layer.weight.copy_(torch.from_numpy(dense[name][0]))
            layer.bias.copy_(torch.from_numpy(dense[name][1]))
        # First each batch normalisation adds its convolution's folded bias and nothing
        # else (in evaluation mode), so the network computes what the export computes ...
        for (conv, bn), (weight, bias) in zip(pairs, convs, strict=True):
            conv.weight.copy_(torch.from_numpy(weight))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(bias))
        # ... then each takes the statistics of its convolution's output on the crops,
        # with a scale and shift that undo them (the same output in evaluation mode).
        sums: dict[torch.nn.Module, torch.Tensor] = {}

        def add(module: torch.nn.Module, _: object, z: torch.Tensor) -> None:
            """Per channel: count, sum and sum of squares of the output, over chunks."""
            z = z.double().transpose(0, 1).flatten(1)
            row = torch.stack([torch.full((len(z),), float(z.shape[1]), dtype=torch.float64),
                               z.sum(1), (z * z).sum(1)])
            sums[module] = sums[module] + row if module in sums else row

        hooks = [conv.register_forward_hook(add) for conv, _ in pairs]
        for chunk in np.array_split(crops, -(-len(crops) // 256)):
            net(to_tensor(chunk))
        for hook in hooks:
            hook.remove()
        for conv, bn in pairs:
            n, total, squares = sums[conv]
            m = total / n
            v = (squares / n - m * m).clamp_min(0.0)
            bn.running_mean.copy_(m)
            bn.running_var.copy_(v)
            bn.weight.copy_(torch.sqrt(v.float() + bn.eps))
            bn.bias.add_(m.float())
    return net


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("model", type=Path, help="the ONNX model (int8 or float)")
    p.add_argument("data", type=Path, help="its training data folder (train.npz)")
    p.add_argument("out", type=Path, help="the checkpoint to write (.pt)")
    p.add_argument("--reader", choices=tuple(READER_LABELS), default="tiles")
    p.add_argument("--arch", choices=ARCHS, default="vgg",
                   help="the network the model was exported from (the shipped reader: lite0)")
    a = p.parse_args()
    x = np.load(a.data / "train.npz")["x"]
    pick = np.sort(np.random.default_rng(0).choice(len(x), min(STAT_CROPS, len(x)),
                                                   replace=False))
    net = rebuild(a.model, a.reader, a.arch, x[pick])

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
