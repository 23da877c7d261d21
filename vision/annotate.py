"""Draw what was recognised onto the photo, for the player to check at a glance.

Each group gets its own colour; each tile its outline, its code and its place
in the reading order; tiles to check (low confidence) are drawn thick in red;
face-down tiles are hatched. Works on the image at any size: outlines are in
the original photo's pixels and are scaled to the image given.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.recognize import Recognition

GROUP_COLOURS: tuple[tuple[int, int, int], ...] = (
    (30, 144, 255), (50, 205, 50), (255, 165, 0), (186, 85, 211), (0, 206, 209),
    (255, 215, 0), (240, 128, 128), (154, 205, 50),
)
"""RGB colours of groups 0, 1, 2, ... (cycled)."""
CHECK_COLOUR = (230, 20, 20)


def annotate(image: np.ndarray, recognition: Recognition, *, max_side: int = 1600) -> np.ndarray:
    """A copy of the RGB ``image`` (shrunk to ``max_side``) with the recognition drawn on it."""
    h, w = image.shape[:2]
    shrink = min(1.0, max_side / max(h, w))
    out = cv2.resize(image, (round(w * shrink), round(h * shrink)),
                     interpolation=cv2.INTER_AREA) if shrink < 1 else image.copy()
    to_px = out.shape[1] / max(1, recognition.width)
    line = max(1, round(max(out.shape[:2]) / 500))
    for t in recognition.tiles:
        pts = (np.array(t.outline) * to_px).astype(np.int32)
        colour = GROUP_COLOURS[t.group % len(GROUP_COLOURS)]
        if t.face_down:
            x0, y0 = pts.min(axis=0)
            x1, y1 = pts.max(axis=0)
            for k in range(int(x0), int(x1), max(4, 4 * line)):
                cv2.line(out, (k, int(y1)), (min(int(x1), k + int(y1 - y0)), int(y0)), colour, 1)
        thick = 3 * line if t.low_confidence else line
        cv2.polylines(out, [pts], True, CHECK_COLOUR if t.low_confidence else colour, thick,
                      cv2.LINE_AA)
        label = f"{t.code}" if not t.low_confidence else f"{t.code}?"
        _label(out, label, pts, line, CHECK_COLOUR if t.low_confidence else colour)
    for g in recognition.groups:
        members = [recognition.tiles[i] for i in g.tiles]
        pts = (np.concatenate([np.array(m.outline) for m in members]) * to_px).astype(np.int32)
        x0, y1 = int(pts[:, 0].min()), int(pts[:, 1].max())
        text = f"{g.id}: {g.kind}"
        cv2.putText(out, text, (x0, min(out.shape[0] - 4, y1 + 14 * line)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45 * line, (255, 255, 255), 3 * line,
                    cv2.LINE_AA)
        cv2.putText(out, text, (x0, min(out.shape[0] - 4, y1 + 14 * line)),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.45 * line,
                    GROUP_COLOURS[g.id % len(GROUP_COLOURS)], line, cv2.LINE_AA)
    return out


def _label(img: np.ndarray, text: str, pts: np.ndarray, line: int,
           colour: tuple[int, int, int]) -> None:
    """The tile's code just above its top edge, on a white background for contrast."""
    x = int(pts[:, 0].min())
    y = int(pts[:, 1].min()) - 4
    scale = 0.4 * line
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, line)
    y = max(th + 2, y)
    cv2.rectangle(img, (x, y - th - 2), (x + tw + 2, y + 2), (255, 255, 255), -1)
    cv2.putText(img, text, (x + 1, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, line,
                cv2.LINE_AA)
