"""Where the tiles of a generated hand lie on the table, before any camera.

Why a separate module: the layout is the ground truth the pipeline is judged
against (rows, blocks, sideways and face-down tiles), so it is kept free of
pixels. Coordinates are in *table units* where an upright tile face is
``1.0`` wide and :data:`FACE_ASPECT` tall, ``x`` to the player's right and
``y`` towards the player (image-like, ``y`` down).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FACE_ASPECT = 4.0 / 3.0
"""Height / width of a tile face (portrait 3:4, like the artwork)."""

SUITS = ("m", "p", "s")


@dataclass(frozen=True)
class PlacedTile:
    """One tile on the table: its face rectangle in table units and what it shows."""

    code: str  # the tile's own code, also for face-down tiles (what is hidden)
    face_down: bool
    sideways: bool  # turned 90° (a claimed tile in an exposed meld)
    upside_down: bool  # the player put it the wrong way round (classifier orientation 180)
    x: float  # left edge of the face
    y: float  # top edge of the face
    w: float
    h: float
    angle: float  # small jitter rotation in degrees about the face centre
    row: int
    block: int  # index of the block (concealed hand, each meld, bonus tiles) in the layout
    kind: str  # "concealed" | "meld" | "bonus"

    def corners(self) -> np.ndarray:
        """Face corners TL, TR, BR, BL as the player reads the tile (4x2 float)."""
        cx, cy = self.x + self.w / 2, self.y + self.h / 2
        pts = np.array(
            [[-self.w / 2, -self.h / 2], [self.w / 2, -self.h / 2],
             [self.w / 2, self.h / 2], [-self.w / 2, self.h / 2]], np.float64
        )
        a = np.deg2rad(self.angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        return pts @ rot.T + np.array([cx, cy])


@dataclass(frozen=True)
class Block:
    """A run of touching tiles as the player laid it out."""

    kind: str  # concealed | meld | bonus
    codes: tuple[str, ...]
    meld: str = ""  # chow | pung | kong | concealed_kong for melds
    sideways_at: int = -1  # index of the sideways tile, -1 for none


def _random_set(rng: np.random.Generator, counts: dict[str, int]) -> tuple[str, list[str]]:
    """A chow or pung drawn without exceeding four copies of a tile."""
    for _ in range(100):
        if rng.random() < 0.5:
            suit = SUITS[rng.integers(3)]
            start = int(rng.integers(1, 8))
            codes = [f"{start + i}{suit}" for i in range(3)]
            kind = "chow"
        else:
            if rng.random() < 0.3:
                code = f"{rng.integers(1, 8)}z"
            else:
                code = f"{rng.integers(1, 10)}{SUITS[rng.integers(3)]}"
            codes = [code] * 3
            kind = "pung"
        if all(counts.get(c, 0) + codes.count(c) <= 4 for c in set(codes)):
            for c in codes:
                counts[c] = counts.get(c, 0) + 1
            return kind, codes
    raise RuntimeError("could not draw a set")  # pragma: no cover - 100 tries never fail


def random_hand(rng: np.random.Generator, *, with_bonus: bool = True) -> list[Block]:
    """A winning hand as blocks: concealed tiles first, then melds, then bonus tiles."""
    counts: dict[str, int] = {}
    sets = [_random_set(rng, counts) for _ in range(4)]
    while True:
        pair = f"{rng.integers(1, 10)}{SUITS[rng.integers(3)]}"
        if counts.get(pair, 0) <= 2:
            counts[pair] = counts.get(pair, 0) + 2
            break
    n_melds = int(rng.choice([0, 1, 2, 3], p=[0.35, 0.3, 0.25, 0.1]))
    concealed: list[str] = [pair, pair]
    blocks: list[Block] = []
    for i, (kind, codes) in enumerate(sets):
        if i < n_melds:
            if kind == "pung" and counts[codes[0]] == 3 and rng.random() < 0.35:
                counts[codes[0]] += 1
                if rng.random() < 0.4:
                    blocks.append(Block("meld", (codes[0],) * 4, "concealed_kong"))
                    continue
                codes = [codes[0]] * 4
                kind = "kong"
            side = int(rng.integers(len(codes))) if rng.random() < 0.4 else -1
            blocks.append(Block("meld", tuple(codes), kind, side))
        else:
            concealed.extend(codes)
    order = sorted(concealed, key=lambda c: ("mpsz".index(c[1]), c[0]))
    out = [Block("concealed", tuple(order)), *blocks]
    if with_bonus and rng.random() < 0.45:
        n = int(rng.integers(1, 3))
        bonus = rng.choice([f"{i}{s}" for s in "fg" for i in range(1, 5)], n, replace=False)
        out.append(Block("bonus", tuple(str(b) for b in bonus)))
    return out


def lay_out(blocks: list[Block], rng: np.random.Generator) -> list[PlacedTile]:
    """Place blocks in one row (or two when the hand is long), touching within a block."""
    h = FACE_ASPECT
    total = sum(len(b.codes) for b in blocks)
    two_rows = len(blocks) > 1 and (total > 15 or rng.random() < 0.2)
    tiles: list[PlacedTile] = []
    x, row = 0.0, 0
    row_y = 0.0
    for bi, block in enumerate(blocks):
        if two_rows and bi == 1:
            row, x = 1, float(rng.uniform(0.0, 1.5))
            row_y = h * float(rng.uniform(1.6, 2.2))
        elif bi > 0:
            x += float(rng.uniform(0.3, 1.2))  # the gap that sets a block apart
        base_angle = float(rng.normal(0, 1.5))
        for ti, code in enumerate(block.codes):
            sideways = ti == block.sideways_at
            face_down = block.meld == "concealed_kong" and ti in (0, 3)
            w, th = (h, 1.0) if sideways else (1.0, h)
            y = row_y + (h - th)  # bottoms aligned, like tiles pushed against a rack
            upside = (not face_down) and rng.random() < 0.04
            tiles.append(PlacedTile(
                code, face_down, sideways, upside,
                x, y + float(rng.normal(0, 0.02)), w, th,
                base_angle + float(rng.normal(0, 0.4)), row, bi, block.kind,
            ))
            x += w + float(abs(rng.normal(0, 0.015)))
    return tiles
