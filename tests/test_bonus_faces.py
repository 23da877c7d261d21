"""Procedural flower and season faces: only the corner writing names them."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import artwork, bonus_faces

pytestmark = pytest.mark.skipif(
    "bonus_mix" not in artwork.available_sources(),
    reason="needs the CJK fonts, KMahjongg tile sets and rsvg-convert of the data build",
)


def test_pictures_never_come_from_a_held_out_style() -> None:
    assert set(bonus_faces.PICTURE_BANDS).isdisjoint(artwork.HELD_OUT_STYLES)


def test_eight_bonus_tiles_each_with_writing_above_a_picture() -> None:
    faces = bonus_faces.bonus_faces(per_code=3, seed=5)
    assert set(faces) == {f"{n}{k}" for k in "fg" for n in range(1, 5)}
    for code, imgs in faces.items():
        assert len(imgs) == 3
        for face in imgs:
            assert face.shape == (artwork.FACE_H, artwork.FACE_W, 4)
            assert face.dtype == np.uint8
            alpha = face[..., 3] > 40
            # the character or number sits in the top band, the picture fills the rest;
            # the least writing is the numeral 一, one thin stroke (~40 pixels)
            assert alpha[: artwork.FACE_H // 4].sum() >= 30, code
            assert alpha[artwork.FACE_H // 3 :].mean() > 0.03, code


def test_seeded() -> None:
    a = bonus_faces.bonus_faces(per_code=1, seed=9)
    b = bonus_faces.bonus_faces(per_code=1, seed=9)
    np.testing.assert_array_equal(a["3g"][0], b["3g"][0])


def test_same_writing_in_both_lists_is_impossible() -> None:
    """A flower and a season never share their character or English word."""
    assert set(bonus_faces.FLOWER_CHARS).isdisjoint(bonus_faces.SEASON_CHARS)
    assert set(bonus_faces.ENGLISH["f"]).isdisjoint(bonus_faces.ENGLISH["g"])


def test_writing_keeps_inside_the_face_margin() -> None:
    """A crop a little tight must still show the writing: nothing is drawn in the
    outer band that the segmenter's tight crops cut away."""
    faces = bonus_faces.bonus_faces(per_code=6, seed=3)
    band = int(artwork.FACE_H * bonus_faces.TOP_MARGIN * 0.9)
    for code, imgs in faces.items():
        for face in imgs:
            assert (face[:band, :, 3] <= 40).all(), code
            assert (face[-band:, :, 3] <= 40).all(), code


def test_a_season_seldom_shows_its_own_picture() -> None:
    """Sets draw their own seasons, so the reader must learn a season's writing: with
    half of them over their own picture, it learnt the training sets' drawings
    and called an unseen set's seasons not bonus tiles. ``own`` (30 % of the
    flowers with a number alone) always shows the flower's own picture,
    ``others`` (the rest of them) never does, so that their number names them,
    and ``bird=False`` (all of them) never 1 bamboo's bird, which with a corner
    "1" is a 1 bamboo."""
    pictures = bonus_faces._pictures(None)
    rng = np.random.default_rng(4)
    birds = {id(p) for _, p in pictures["1s"]}

    def drawn(code: str, **kw: bool) -> list[np.ndarray]:
        pics = [bonus_faces._picture(code, pictures, rng, **kw) for _ in range(300)]
        for pic in pics[:20]:
            assert pic.ndim == 3 and pic.shape[2] == 4 and (pic[..., 3] > 10).any()
        return pics

    def own_share(code: str, pics: list[np.ndarray]) -> float:
        mine = {id(p) for c, p in pictures[code[1]] if c == code}
        return sum(id(p) in mine for p in pics) / len(pics)

    assert own_share("2g", drawn("2g")) < 0.2
    assert any(id(p) in birds for p in drawn("2g"))
    assert own_share("2f", drawn("2f", own=True, bird=False)) == 1.0
    assert own_share("2f", drawn("2f")) > 0.3  # a flower's picture means something
    assert own_share("2f", drawn("2f", bird=False, others=True)) == 0.0
    assert not any(id(p) in birds for p in drawn("1f", bird=False))


def test_random_plants_are_seeded() -> None:
    from PIL import Image, ImageDraw

    def plant(seed: int) -> np.ndarray:
        im = Image.new("RGBA", (150, 200), (0, 0, 0, 0))
        artwork.draw_plant(ImageDraw.Draw(im), 150, 200, np.random.default_rng(seed))
        return np.asarray(im)

    a, b = plant(1), plant(1)
    np.testing.assert_array_equal(a, b)
    assert (a[..., 3] > 0).mean() > 0.02
    assert not np.array_equal(a, plant(2))


def test_each_face_has_an_unnamed_twin_without_its_writing() -> None:
    """The data builder redraws a crop whose writing has gone, judged against the
    same face without it; the twin is the picture alone, the faces are unchanged."""
    plain = bonus_faces.bonus_faces(per_code=2, seed=8)
    both = bonus_faces.bonus_faces(per_code=2, seed=8, unnamed=True)
    assert set(both) == set(plain) | {c + artwork.UNNAMED for c in plain}
    top, bottom = artwork.FACE_H // 2, int(artwork.FACE_H * 0.8)  # the writing's bands
    for code, faces in plain.items():
        for face, same, bare in zip(faces, both[code], both[code + artwork.UNNAMED],
                                    strict=True):
            np.testing.assert_array_equal(face, same)
            writing = face[..., 3].astype(int) - bare[..., 3] > 40
            assert writing.sum() >= 30, code
            # the number and name at the top (stacked: down to half-way), a word at the bottom
            assert writing[:top].sum() + writing[bottom:].sum() >= 0.9 * writing.sum(), code
