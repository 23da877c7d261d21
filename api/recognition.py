"""Run photo recognitions off the event loop, a bounded number at a time.

Recognition is CPU-bound (decode, segmentation, classifier) and takes a good
fraction of a second; run on the event loop it would freeze every other request,
``/healthz`` included, and run unbounded it would let a burst of uploads eat all
memory. So each recognition runs in a worker thread (OpenCV, onnxruntime and
Pillow release the GIL), at most ``max_concurrent_recognitions`` at once; a
bounded number of uploads may wait for a slot, and beyond that, or after
``queue_timeout_s``, the client gets ``503 busy`` with ``Retry-After`` instead of
the whole service slowing down for everybody.
"""

from __future__ import annotations

import base64
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import anyio
import anyio.to_thread
import numpy as np
from PIL import Image

from api.errors import ApiError
from api.settings import Settings, available_cpus
from api.workload import Load, Workload
from vision.photo import Photo, load_photo

if TYPE_CHECKING:
    from vision.recognize import Recognition

MIN_PHOTO_SIDE = 32
"""Pixels: below this on either side a photo cannot show a readable tile (and such
slivers only exercise the pipeline's corner cases), so it is answered at once."""


@dataclass(frozen=True)
class RecognizedPhoto:
    """The recognition as JSON (outlines in the original photo's pixels) and its picture."""

    recognition: dict[str, Any]
    annotated_image: str | None
    """A ``data:image/jpeg;base64,...`` URL, when asked for."""


def recognize_photo(data: bytes, settings: Settings, *, annotate: bool = False,
                    idle: Callable[[], bool] = lambda: True) -> RecognizedPhoto:
    """Decode, recognise and (optionally) annotate one photo. Blocking: call from a thread.

    ``idle()`` says whether the machine has time (:meth:`Recognizer.idle`): with
    ``settings.read_again_unsure`` at ``when_idle``, a photo that leaves tiles hard
    to read is read again, closer, only then. Why: that second look doubles such a
    photo's CPU time (a third of the photos of an unfamiliar tile set), which a
    lone user does not notice and a busy service pays in throughput, from 9.2 to
    4.6 photos a second on two cores (docs/api.md); the tiles it would have
    settled stay marked for the player to check."""
    photo = load_photo(
        data, max_bytes=settings.max_upload_bytes, max_pixels=settings.max_pixels,
        max_side=settings.max_side or None,
    )
    width, height = photo.original_size
    if min(width, height) < MIN_PHOTO_SIDE:
        raise ApiError(
            "no_tiles_found",
            f"The photo is {width}x{height} pixels: too small to show the tiles. "
            "Send the photo as the camera took it.",
        )
    mode = settings.read_again_unsure
    read_again: bool | Callable[[], bool] = idle if mode == "when_idle" else mode == "always"
    found = read_tiles(photo, full_size=lambda: load_photo(  # heavy: after the checks
        data, max_bytes=settings.max_upload_bytes, max_pixels=settings.max_pixels),
        read_again_unsure=read_again)
    picture = None
    if annotate:
        from vision.annotate import annotate as draw

        picture = _jpeg_data_url(draw(photo.image, found), settings.annotate_quality)
    return RecognizedPhoto(with_photo_size(found.to_dict(), photo), picture)


def read_tiles(photo: Photo, full_size: Callable[[], Photo] | None = None, *,
               read_again_unsure: bool | Callable[[], bool] = True) -> Recognition:
    """The photo's tiles as the service and ``mjlens`` read them: the hand chooses
    among unsure readings (``most_likely``), settles the tiles it answers for and
    offers the faces that would also win (``other_winning_faces``); a photo
    whose tiles do not count as a winning hand, or (with ``read_again_unsure``)
    that leaves tiles hard to read, is read again, closer: from ``full_size()``
    when ``photo`` was decoded smaller than it was taken (``vision.recognize``).
    Here because only ``api`` wires ``scoring`` into ``vision``."""
    from scoring.likely_hand import most_likely, other_winning_faces
    from vision.recognize import recognize

    return recognize(photo.image, scale=photo.scale, hand_reader=most_likely,
                     hand_alternatives=other_winning_faces, full_size=full_size,
                     read_again_unsure=read_again_unsure)


def with_photo_size(recognition: dict[str, Any], photo: Photo) -> dict[str, Any]:
    """Report the uploaded photo's exact size (upright), whatever size it was decoded at.

    The pipeline reports outlines in the original photo's pixels (it is given
    :attr:`Photo.scale`) and rounds the size it derives; apps draw over the photo
    they sent, so the size must be exactly that photo's.
    """
    width, height = photo.original_size
    return {**recognition,
            "image": {**dict(recognition.get("image") or {}), "width": width, "height": height}}


def _jpeg_data_url(image: np.ndarray, quality: int) -> str:
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(image[..., :3], dtype=np.uint8)).save(
        buf, "JPEG", quality=quality, optimize=False
    )
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


class Recognizer:
    """The per-process gate in front of :func:`recognize_photo`."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._slots: anyio.Semaphore | None = None
        self._limiter: anyio.CapacityLimiter | None = None
        self._waiting = 0
        self._running = 0
        self._workload = Workload(Path(settings.workload_dir) if settings.workload_dir else None)
        self._cpus = available_cpus()

    @property
    def running(self) -> int:
        """Recognitions in progress in this process (for health checks and tests)."""
        return self._running

    @property
    def waiting(self) -> int:
        """Uploads waiting for a free slot."""
        return self._waiting

    def idle(self) -> bool:
        """Whether the machine has time for a closer read: no upload waits for a slot,
        here or in the service's other processes (:mod:`api.workload`), and no more
        photos are being read than there are CPUs. Asked from the worker threads: they
        read this process's counts, which the event loop alone writes."""
        others = self._workload.others()
        return (self._waiting == 0 and others.waiting == 0
                and self._running + others.running <= self._cpus)

    def close(self) -> None:
        """Stop sharing this process's load (at shutdown)."""
        self._workload.close()

    def _publish(self) -> None:
        self._workload.publish(Load(self._waiting, self._running))

    def _busy(self, why: str) -> ApiError:
        retry = max(1, math.ceil(self.settings.queue_timeout_s / 4))
        return ApiError("busy", f"The server is busy ({why}). Try again in a few seconds.",
                        headers={"Retry-After": str(retry)})

    async def run(self, upload: BinaryIO, *, annotate: bool = False) -> RecognizedPhoto:
        """Wait for a slot, then read the upload and recognise it in a worker thread.

        The upload is read only once a slot is free, so waiting requests hold
        Starlette's spooled temporary file rather than the photo's bytes in memory.
        """
        if self._slots is None or self._limiter is None:
            self._slots = anyio.Semaphore(self.settings.max_concurrent_recognitions)
            self._limiter = anyio.CapacityLimiter(self.settings.max_concurrent_recognitions)
        if self._slots.value == 0 and self._waiting >= self.settings.max_queued_recognitions:
            raise self._busy("too many photos are waiting")
        self._waiting += 1
        self._publish()
        try:
            with anyio.move_on_after(self.settings.queue_timeout_s) as scope:
                await self._slots.acquire()
        finally:
            self._waiting -= 1
            self._publish()
        if scope.cancelled_caught:
            raise self._busy("no recognition slot became free in time")
        self._running += 1
        self._publish()
        try:
            return await anyio.to_thread.run_sync(
                self._read_and_recognize, upload, annotate, limiter=self._limiter
            )
        finally:
            self._running -= 1
            self._publish()
            self._slots.release()

    def _read_and_recognize(self, upload: BinaryIO, annotate: bool) -> RecognizedPhoto:
        upload.seek(0)
        data = upload.read(self.settings.max_upload_bytes + 1)
        return recognize_photo(data, self.settings, annotate=annotate, idle=self.idle)
