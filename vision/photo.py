"""Decode an uploaded photo into an upright RGB array, refusing anything unsafe.

Photos come from strangers over HTTP, so decoding is the first line of defence:
the byte size is checked before reading, the pixel count is checked from the
header before a single pixel is decoded (decompression bombs), the set of file
formats handed to Pillow is an explicit allow-list (no EPS/Ghostscript, no
exotic plugins), and every failure becomes a :class:`PhotoError` with a stable
code and a message a player can act on. Phones store photos sideways with an
EXIF orientation tag, so the result is always turned upright. Large JPEGs are
decoded at a reduced size by DCT scaling (Pillow's ``draft`` chooses it), which is
several times faster and smaller than decoding 12 megapixels and shrinking
afterwards; what is still too large after that is shrunk, and turned upright,
with OpenCV (several times faster than Pillow at both). Pillow reads every
header and decodes every format; OpenCV decodes the pixels of whole colour
JPEGs, the same pixels sooner (:func:`_jpeg_by_opencv`).
"""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import cv2
import numpy as np
from PIL import Image, ImageFile, UnidentifiedImageError
from PIL.JpegImagePlugin import JpegImageFile

try:  # HEIC/HEIF (iPhone photos) only when the optional extra is installed.
    import pillow_heif

    pillow_heif.register_heif_opener()
    HEIF_SUPPORTED: Final[bool] = True
except ImportError:  # pragma: no cover - depends on the environment
    HEIF_SUPPORTED = False  # type: ignore[misc]

DEFAULT_MAX_BYTES: Final[int] = 20 * 1024 * 1024
"""20 MiB: a 12-megapixel phone JPEG is 3-6 MB, a 50-megapixel one about 15 MB."""

DEFAULT_MAX_PIXELS: Final[int] = 50_000_000
"""50 megapixels: every current phone camera's default mode, far below a bomb."""

SUPPORTED_FORMATS: Final[tuple[str, ...]] = (
    "JPEG", "PNG", "WEBP", "GIF", "BMP", "TIFF", "AVIF",
    *(("HEIF",) if HEIF_SUPPORTED else ()),
)
"""Pillow's opener names we decode (the JPEG opener also reads phones' multi-picture MPO files)."""

DRAFT_SLACK: Final[float] = 1.05
"""A photo decoded up to 5 % larger than ``max_side`` is kept at that size. A
12-megapixel phone JPEG (4032 x 3024) decodes by DCT scaling to 2016 x 1512 for
a ``max_side`` of 2000, and shrinking it by the last 0.8 % took Pillow 46 ms,
more than the decoding itself, for pixels no better for it."""
_ORIENTATION_TAG: Final[int] = 0x0112
_SWAPS_AXES: Final[frozenset[int]] = frozenset({5, 6, 7, 8})

# Formats we recognise by their first bytes but do not decode, so that the error
# can name them instead of calling a PDF "not an image".
_KNOWN_SIGNATURES: Final[tuple[tuple[bytes, int, str], ...]] = (
    (b"%PDF", 0, "PDF document"),
    (b"%!PS", 0, "PostScript/EPS"),
    (b"8BPS", 0, "Photoshop (PSD)"),
    (b"\x00\x00\x01\x00", 0, "Windows icon (ICO)"),
    (b"\xff\x0a", 0, "JPEG XL"),
    (b"\x00\x00\x00\x0cJXL ", 0, "JPEG XL"),
    (b"\x00\x00\x00\x0cjP  ", 0, "JPEG 2000"),
    (b"qoif", 0, "QOI"),
)
_HEIF_BRANDS: Final[frozenset[bytes]] = frozenset(
    {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1"}
)


class PhotoError(ValueError):
    """A photo that cannot be used; ``code`` is stable for programs, the message is for people.

    Codes: ``not_an_image``, ``unsupported_format``, ``image_too_large``,
    ``truncated_image``.
    """

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        self.message = message
        super().__init__(message)


@dataclass(frozen=True, eq=False)
class Photo:
    """An upright photo ready for the vision pipeline.

    ``image`` may be smaller than the original (``max_side``); ``scale`` is its
    pixels per original pixel, so outlines found in ``image`` are reported in the
    original photo's pixels by dividing by ``scale`` (see :meth:`to_original`).
    """

    image: np.ndarray
    """RGB, uint8, shape (height, width, 3), EXIF orientation applied."""
    original_size: tuple[int, int]
    """(width, height) of the full-size photo, upright."""
    scale: float
    """``image`` width / original width (1.0 when decoded at full size)."""
    format: str
    """Pillow's name of the file format, e.g. ``"JPEG"``."""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of ``image``."""
        return int(self.image.shape[1]), int(self.image.shape[0])

    def to_original(self, points: Iterable[Sequence[float]]) -> list[list[float]]:
        """Map (x, y) points of ``image`` to the original photo's pixels."""
        return [[float(x) / self.scale, float(y) / self.scale] for x, y in points]


def load_photo(
    data: bytes | bytearray | memoryview | str | os.PathLike[str],
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_pixels: int = DEFAULT_MAX_PIXELS,
    max_side: int | None = None,
) -> Photo:
    """Decode a photo given as bytes or a file path.

    ``max_side`` bounds the longest side of the returned image (the photo is
    shrunk, never enlarged; a JPEG's DCT scaling may land up to
    :data:`DRAFT_SLACK` over it, and is kept so); ``None`` keeps the full size. Raises
    :class:`PhotoError` for anything that is not a usable photo.
    """
    if max_side is not None and max_side < 1:
        raise ValueError(f"max_side must be positive, got {max_side}")
    raw = _read(data, max_bytes)
    if not raw:
        raise PhotoError("not_an_image", "The upload is empty: send a photo (JPEG, PNG, ...).")
    img = _open(raw)
    try:
        width, height = img.size
        if width < 1 or height < 1:
            raise PhotoError("not_an_image", "The image has no pixels.")
        if width * height > max_pixels:
            raise PhotoError(
                "image_too_large",
                f"The photo is {width}x{height} = {width * height / 1e6:.1f} megapixels; "
                f"the limit is {max_pixels / 1e6:.1f} megapixels. Send a smaller photo.",
            )
        orientation = _orientation(img)
        upright = (height, width) if orientation in _SWAPS_AXES else (width, height)
        longest = max(width, height)
        shrink = 1  # the JPEG's DCT scaling: decoded at 1/shrink of its size
        if max_side is not None and isinstance(img, JpegImageFile) and longest > max_side:
            ratio = max_side / max(width, height)
            asked = (max(1, round(width * ratio)), max(1, round(height * ratio)))
            drafted = img.draft("RGB", asked)
            if drafted is not None:
                shrink = round(width / drafted[1][2])
        decoded = _jpeg_by_opencv(raw, img, shrink)
        if decoded is None:
            decoded = _decode_by_pillow(img)
        array = _upright(decoded, orientation)
        height, width = array.shape[:2]
        if max_side is not None and max(width, height) > max_side * DRAFT_SLACK:
            ratio = max_side / max(width, height)
            # (the mean of the pixels each new one covers: as sharp as Pillow's bilinear
            # filter and a sixth of its time, 12 against 70 ms from 8 megapixels)
            array = cv2.resize(array, (max(1, round(width * ratio)), max(1, round(height * ratio))),
                               interpolation=cv2.INTER_AREA)
        file_format = str(img.format or "unknown")
    finally:
        img.close()
    return Photo(
        image=array,
        original_size=upright,
        scale=array.shape[1] / upright[0],
        format=file_format,
    )


def _decode_by_pillow(img: ImageFile.ImageFile) -> np.ndarray:
    """The pixels as a new RGB array (the file is closed after)."""
    try:
        with warnings.catch_warnings():
            # Our own pixel limit is the guard; Pillow's global one would warn or
            # refuse in ways we could not word for the player.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            img.load()
    except Image.DecompressionBombError as exc:  # pragma: no cover - caught before
        raise PhotoError("image_too_large", "The photo has too many pixels.") from exc
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise _decode_error(exc) from exc
    return np.array(_to_rgb(img), dtype=np.uint8)


_OPENCV_SHRINK: Final[dict[int, int]] = {
    1: cv2.IMREAD_COLOR_RGB,
    2: cv2.IMREAD_REDUCED_GRAYSCALE_2 | cv2.IMREAD_COLOR_RGB,
    4: cv2.IMREAD_REDUCED_GRAYSCALE_4 | cv2.IMREAD_COLOR_RGB,
    8: cv2.IMREAD_REDUCED_GRAYSCALE_8 | cv2.IMREAD_COLOR_RGB,
}
"""OpenCV's flags for an RGB decode at 1/n of the size (its ``REDUCED_GRAYSCALE``
flags carry the DCT scaling alone; ``COLOR_RGB`` asks for colour, in RGB order)."""


def _jpeg_by_opencv(raw: bytes, img: ImageFile.ImageFile, shrink: int) -> np.ndarray | None:
    """A colour JPEG's pixels decoded by OpenCV, or ``None`` where Pillow must decode it.

    Why: both use libjpeg-turbo with the same settings, and give the same pixels
    (checked on every photo of the benchmark, and in the tests), but OpenCV writes
    them straight into an RGB array, where Pillow decodes into its own 4-byte
    pixels and copies them out twice: a 12-megapixel photo at half size took
    Pillow 38 ms and OpenCV 17 in a fresh process, 25 and 21 ms in a server's,
    whose allocator keeps memory (:mod:`vision.allocator`). Only a whole file is
    given to OpenCV: it fills what a truncated JPEG lacks with grey and says
    nothing, where Pillow's error names the problem. A complete JPEG ends with
    its end-of-image marker (a phone that appends data after it, or a CMYK or
    grey JPEG, goes to Pillow). The size is checked against Pillow's reading of
    the header."""
    if not (isinstance(img, JpegImageFile) and img.mode == "RGB" and shrink in _OPENCV_SHRINK
            and raw.endswith(b"\xff\xd9")):
        return None
    flags = _OPENCV_SHRINK[shrink] | cv2.IMREAD_IGNORE_ORIENTATION
    try:
        array = cv2.imdecode(np.frombuffer(raw, np.uint8), flags)
    except cv2.error:
        return None
    if array is None or array.shape != (img.size[1], img.size[0], 3):
        return None
    return array


def _read(data: bytes | bytearray | memoryview | str | os.PathLike[str], max_bytes: int) -> bytes:
    if isinstance(data, bytes | bytearray | memoryview):
        size = len(data)
        raw = bytes(data) if size <= max_bytes else b""
    else:
        path = Path(data)
        try:
            size = path.stat().st_size
            raw = path.read_bytes() if size <= max_bytes else b""
        except FileNotFoundError as exc:
            raise PhotoError("not_an_image", f"No such file: {path}") from exc
        except IsADirectoryError as exc:
            raise PhotoError("not_an_image", f"{path} is a folder, not a photo.") from exc
        except OSError as exc:
            raise PhotoError("not_an_image", f"Cannot read {path}: {exc.strerror}") from exc
    if size > max_bytes:
        raise PhotoError(
            "image_too_large",
            f"The file is {size / 1e6:.1f} MB; the limit is {max_bytes / 1e6:.1f} MB. "
            "Send a smaller photo or a JPEG.",
        )
    return raw


def _open(raw: bytes) -> ImageFile.ImageFile:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return Image.open(io.BytesIO(raw), formats=SUPPORTED_FORMATS)
    except Image.DecompressionBombError as exc:
        raise PhotoError(
            "image_too_large", "The photo has far too many pixels to be a real photo."
        ) from exc
    except UnidentifiedImageError:
        pass
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise _decode_error(exc) from exc
    other = _sniff_other_format(raw)
    if other is not None:
        raise PhotoError(
            "unsupported_format",
            f"{other} files are not supported. Send a JPEG, PNG, WebP"
            f"{', HEIC' if HEIF_SUPPORTED else ''} or AVIF photo.",
        )
    raise PhotoError(
        "not_an_image",
        "This file is not an image. Send a photo of the hand (JPEG, PNG, WebP, ...).",
    )


def _sniff_other_format(raw: bytes) -> str | None:
    """Name a recognisable image or document format that we do not decode."""
    head = raw[:64]
    if head[4:8] == b"ftyp" and head[8:12] in _HEIF_BRANDS:
        return "HEIC (install the 'heif' extra, pillow-heif, to accept them)"
    for signature, offset, name in _KNOWN_SIGNATURES:
        if head[offset:offset + len(signature)] == signature:
            return name
    text = head.lstrip().lower()
    if text.startswith(b"<svg") or (text.startswith(b"<?xml") and b"<svg" in raw[:4096].lower()):
        return "SVG"
    try:  # Anything else Pillow can identify (header only, never decoded).
        with Image.open(io.BytesIO(raw)) as probe:
            return f"{probe.format} image"
    except Exception:  # a probe: any failure just means "not an image"
        return None


def _decode_error(exc: BaseException) -> PhotoError:
    text = str(exc).lower()
    if "truncated" in text or isinstance(exc, EOFError) or "premature end" in text:
        return PhotoError(
            "truncated_image",
            "The photo file is incomplete (the upload was cut short?). Send it again.",
        )
    return PhotoError("not_an_image", "The file looks like an image but cannot be decoded.")


def _orientation(img: Image.Image) -> int | None:
    try:
        value = img.getexif().get(_ORIENTATION_TAG)
    except Exception:  # broken EXIF must not reject a good photo
        return None
    return int(value) if isinstance(value, int) and 1 <= value <= 8 else None


def _upright(array: np.ndarray, orientation: int | None) -> np.ndarray:
    """The decoded pixels turned upright by their EXIF ``orientation`` (the same
    array when they are), as ``ImageOps.exif_transpose`` turns them, with
    OpenCV's flips and turns: a fifth of Pillow's time on a 12-megapixel photo,
    and numpy's copy of a turned view takes longer still."""
    return _UPRIGHT[orientation or 1](array)


_UPRIGHT: Final[dict[int, Callable[[np.ndarray], np.ndarray]]] = {
    1: lambda a: a,
    2: lambda a: cv2.flip(a, 1),  # mirrored about the vertical axis
    3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
    4: lambda a: cv2.flip(a, 0),  # mirrored about the horizontal axis
    5: cv2.transpose,  # about the main diagonal
    6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
    7: lambda a: cv2.flip(cv2.transpose(a), -1),  # about the other diagonal
    8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
}
"""How each EXIF orientation is undone."""


def _to_rgb(img: Image.Image) -> Image.Image:
    """RGB over a white background: transparent areas of screenshots become paper-white."""
    if img.mode == "RGB":
        return img
    if img.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        values = np.asarray(img, dtype=np.float64)
        top = float(values.max()) if values.size else 0.0
        if top > 255.0:
            values = values * (255.0 / top)
        grey = Image.fromarray(np.clip(values, 0, 255).astype(np.uint8), mode="L")
        return grey.convert("RGB")
    has_alpha = img.mode in ("RGBA", "LA", "PA", "RGBa", "La") or (
        img.mode == "P" and "transparency" in img.info
    )
    if has_alpha:
        rgba = img.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    return img.convert("RGB")
