"""Photo decoding: each way an upload can be wrong has its own code; good photos end upright."""

from __future__ import annotations

import io
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from vision.photo import DRAFT_SLACK, HEIF_SUPPORTED, Photo, PhotoError, load_photo


def _encode(img: Image.Image, fmt: str, **kwargs: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, fmt, **kwargs)
    return buf.getvalue()


def _marked(width: int = 400, height: int = 300) -> Image.Image:
    """A landscape image whose left third is red and the rest blue: orientation is visible."""
    arr = np.zeros((height, width, 3), np.uint8)
    arr[:, :] = (0, 0, 255)
    arr[:, : width // 3] = (255, 0, 0)
    return Image.fromarray(arr)


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG claiming huge dimensions with almost no data: a decompression bomb's header."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body) & 0xFFFFFFFF
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


def test_jpeg_decodes_to_rgb_uint8() -> None:
    photo = load_photo(_encode(_marked(), "JPEG", quality=95))
    assert isinstance(photo, Photo)
    assert photo.image.dtype == np.uint8
    assert photo.image.shape == (300, 400, 3)
    assert photo.original_size == (400, 300)
    assert photo.scale == 1.0
    assert photo.format == "JPEG"
    red = photo.image[150, 20]
    assert red[0] > 200 and red[2] < 60


@pytest.mark.parametrize(
    ("orientation", "red_at"),
    [(1, (150, 20)), (3, (150, 380)), (6, (20, 150)), (8, (380, 150))],
)
def test_exif_orientation_is_applied(orientation: int, red_at: tuple[int, int]) -> None:
    exif = Image.Exif()
    exif[0x0112] = orientation
    photo = load_photo(_encode(_marked(), "JPEG", quality=95, exif=exif))
    swapped = orientation in (6, 8)
    assert photo.original_size == ((300, 400) if swapped else (400, 300))
    assert photo.size == photo.original_size
    y, x = red_at
    assert photo.image[y, x, 0] > 200, "the red third is where an upright photo shows it"


def test_max_side_shrinks_jpeg_and_reports_scale() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6
    data = _encode(_marked(4000, 3000), "JPEG", quality=90, exif=exif)
    photo = load_photo(data, max_side=1000)
    assert photo.original_size == (3000, 4000)
    assert max(photo.size) == 1000
    assert photo.size == (750, 1000)
    assert photo.scale == pytest.approx(0.25)
    assert photo.to_original([[75.0, 100.0]]) == [[300.0, 400.0]]


@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_turns_the_pixels_as_pillow_does(orientation: int) -> None:
    # a noisy, non-square picture: any pixel out of place shows
    pixels = np.random.default_rng(orientation).integers(0, 256, (30, 44, 3), np.uint8)
    exif = Image.Exif()
    exif[0x0112] = orientation
    data = _encode(Image.fromarray(pixels), "PNG", exif=exif)
    with Image.open(io.BytesIO(data)) as img:
        expected = np.asarray(ImageOps.exif_transpose(img).convert("RGB"))
    photo = load_photo(data)
    assert photo.image.flags.writeable and photo.image.flags.c_contiguous
    np.testing.assert_array_equal(photo.image, expected)


def test_a_phone_jpeg_a_hair_over_max_side_keeps_its_dct_scaled_size() -> None:
    # 4032 x 3024 (a 12-megapixel phone's photo) decodes at half size to 2016 x 1512:
    # kept so, as shrinking it by 0.8 % more would cost more than decoding it
    data = _encode(_marked(4032, 3024), "JPEG", quality=80)
    photo = load_photo(data, max_side=2000)
    assert photo.size == (2016, 1512)
    assert photo.scale == pytest.approx(0.5)
    assert max(photo.size) <= 2000 * DRAFT_SLACK
    # ... while one too big by more than the slack is shrunk to max_side
    assert load_photo(data, max_side=1900).size == (1900, 1425)


def test_max_side_also_shrinks_png_and_never_enlarges() -> None:
    data = _encode(_marked(800, 600), "PNG")
    assert load_photo(data, max_side=200).size == (200, 150)
    assert load_photo(data, max_side=5000).size == (800, 600)


def test_transparent_png_is_flattened_on_white() -> None:
    img = Image.new("RGBA", (20, 10), (0, 0, 0, 0))
    img.putpixel((5, 5), (0, 128, 0, 255))
    photo = load_photo(_encode(img, "PNG"))
    assert photo.image[0, 0].tolist() == [255, 255, 255]
    assert photo.image[5, 5].tolist() == [0, 128, 0]


@pytest.mark.parametrize("mode", ["L", "P", "CMYK", "I;16", "1"])
def test_other_pixel_modes_become_rgb(mode: str) -> None:
    img = _marked(40, 30).convert("L").convert(mode) if mode != "CMYK" else _marked(40, 30).convert(
        "CMYK")
    fmt = "TIFF" if mode == "CMYK" else "PNG"
    photo = load_photo(_encode(img, fmt))
    assert photo.image.shape == (30, 40, 3)
    assert photo.image.dtype == np.uint8


@pytest.mark.parametrize("fmt", ["WEBP", "GIF", "BMP", "TIFF"])
def test_common_formats_are_accepted(fmt: str) -> None:
    photo = load_photo(_encode(_marked(), fmt))
    assert photo.image.shape == (300, 400, 3)


def test_path_input(tmp_path: Path) -> None:
    path = tmp_path / "hand.jpg"
    path.write_bytes(_encode(_marked(), "JPEG"))
    assert load_photo(path).size == (400, 300)
    assert load_photo(str(path)).size == (400, 300)


def test_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PhotoError) as err:
        load_photo(tmp_path / "nope.jpg")
    assert err.value.code == "not_an_image"
    assert "nope.jpg" in err.value.message


@pytest.mark.parametrize(
    "data", [b"", b"hello, this is text", b"\x00" * 1000, b"GIF89a broken"]
)
def test_not_an_image(data: bytes) -> None:
    with pytest.raises(PhotoError) as err:
        load_photo(data)
    assert err.value.code == "not_an_image"
    assert err.value.message


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "PDF"),
        (b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n", "PostScript"),
        (b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>', "SVG"),
        (_encode(Image.new("RGBA", (16, 16)), "ICO"), "ICO"),
        (_encode(Image.new("RGB", (16, 16)), "TGA"), "TGA"),
    ],
)
def test_unsupported_format_is_named(data: bytes, name: str) -> None:
    with pytest.raises(PhotoError) as err:
        load_photo(data)
    assert err.value.code == "unsupported_format"
    assert name in err.value.message


def test_too_many_bytes() -> None:
    data = _encode(_marked(), "PNG")
    with pytest.raises(PhotoError) as err:
        load_photo(data, max_bytes=len(data) - 1)
    assert err.value.code == "image_too_large"
    assert "MB" in err.value.message


def test_too_many_bytes_on_disk_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "big.jpg"
    path.write_bytes(b"\xff\xd8" + b"\x00" * 5000)
    with pytest.raises(PhotoError) as err:
        load_photo(path, max_bytes=1000)
    assert err.value.code == "image_too_large"


def test_too_many_pixels() -> None:
    with pytest.raises(PhotoError) as err:
        load_photo(_encode(_marked(400, 300), "JPEG"), max_pixels=100_000)
    assert err.value.code == "image_too_large"
    assert "megapixels" in err.value.message


@pytest.mark.parametrize("side", [30_000, 1_000_000])
def test_decompression_bomb_is_refused_from_the_header(side: int) -> None:
    bomb = _png_header_only(side, side)
    assert len(bomb) < 200
    with pytest.raises(PhotoError) as err:
        load_photo(bomb)
    assert err.value.code == "image_too_large"


def _pillows_own_decode(data: bytes, size: tuple[int, int]) -> np.ndarray:
    """What Pillow decodes of a JPEG asked for at ``size`` (its DCT scaling)."""
    with Image.open(io.BytesIO(data)) as img:
        img.draft("RGB", size)
        return np.asarray(img.convert("RGB"))


@pytest.mark.parametrize("shrink", [1, 2, 4, 8])
@pytest.mark.parametrize("options", [
    {"subsampling": 2}, {"subsampling": 1}, {"subsampling": 0},
    {"progressive": True}, {"quality": 30, "optimize": True},
])
def test_jpeg_pixels_are_pillows_at_every_dct_scale(shrink: int, options: dict[str, object]
                                                    ) -> None:
    # OpenCV decodes whole colour JPEGs (faster): the pixels must be Pillow's, at
    # sizes that are no multiple of the scale, for every chroma layout
    pixels = np.random.default_rng(shrink).integers(0, 256, (203, 331, 3), np.uint8)
    pixels = np.asarray(cv2.GaussianBlur(pixels, (0, 0), 1.5))  # photo-like, not pure noise
    data = _encode(Image.fromarray(pixels), "JPEG", **options)
    # (asked for 1/shrink of the size, rounded down, Pillow's draft decodes at that
    # scale, rounded up: within DRAFT_SLACK, so that nothing is resized after)
    photo = load_photo(data, max_side=331 // shrink if shrink > 1 else None)
    expected = _pillows_own_decode(data, (331 // shrink, 203 // shrink))
    assert photo.size == (-(-331 // shrink), -(-203 // shrink))
    assert photo.image.flags.writeable and photo.image.flags.c_contiguous
    np.testing.assert_array_equal(photo.image, expected)


def test_jpeg_with_data_after_its_end_decodes_as_pillow_does() -> None:
    # some phones append their own data after the end-of-image marker
    data = _encode(_marked(640, 480), "JPEG", quality=85) + b"SEFH" + bytes(200)
    photo = load_photo(data, max_side=320)
    np.testing.assert_array_equal(photo.image, _pillows_own_decode(data, (320, 240)))


@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_truncated_file(fmt: str) -> None:
    rng = np.random.default_rng(0)
    noisy = Image.fromarray(rng.integers(0, 255, (300, 400, 3), dtype=np.uint8))
    data = _encode(noisy, fmt)
    with pytest.raises(PhotoError) as err:
        load_photo(data[: len(data) // 2])
    assert err.value.code == "truncated_image"
    assert "again" in err.value.message


def test_bad_max_side_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="max_side"):
        load_photo(_encode(_marked(), "PNG"), max_side=0)


@pytest.mark.skipif(not HEIF_SUPPORTED, reason="pillow-heif (the 'heif' extra) is not installed")
def test_heic_is_decoded_when_pillow_heif_is_installed() -> None:
    photo = load_photo(_encode(_marked(), "HEIF"))
    assert photo.format == "HEIF"
    assert photo.image.shape == (300, 400, 3)
    assert photo.image[150, 20, 0] > 200


def test_heic_without_pillow_heif_is_unsupported_not_garbage() -> None:
    """Run in a fresh interpreter where pillow-heif cannot be imported."""
    heic_head = b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 100
    code = (
        "import sys; sys.modules['pillow_heif'] = None\n"
        "from vision.photo import load_photo, PhotoError, HEIF_SUPPORTED\n"
        "assert not HEIF_SUPPORTED\n"
        f"try:\n    load_photo({heic_head!r})\n"
        "except PhotoError as e:\n    print(e.code, '|', e.message)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[1])
    code_, message = out.stdout.split("|", 1)
    assert code_.strip() == "unsupported_format"
    assert "HEIC" in message and "pillow-heif" in message
