"""The shared artwork loader: sources, face format, hold-out contract."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from datasets import artwork

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared" / "datasets"
pytestmark = pytest.mark.skipif(not SHARED.exists(), reason="../shared/datasets is not present")

CODES = {*(f"{n}{s}" for s in "mps" for n in range(1, 10)), *(f"{n}z" for n in range(1, 8))}


def test_shared_sources_are_available() -> None:
    names = artwork.available_sources()
    assert {"fluffystuff_regular", "fluffystuff_black", "plain_backs"} <= set(names)


def test_held_out_styles_are_never_training_sources() -> None:
    assert set(artwork.HELD_OUT_STYLES).isdisjoint(artwork.training_sources())
    assert set(artwork.HELD_OUT_STYLES) <= set(artwork.SOURCES)


def test_fluffystuff_faces(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJLENS_BUILD", str(tmp_path))
    faces = artwork.load_faces("fluffystuff_regular")
    assert CODES | {"back"} == set(faces)
    assert len(faces["5m"]) == 2  # plain and red five
    for imgs in faces.values():
        for f in imgs:
            assert f.shape == (artwork.FACE_H, artwork.FACE_W, 4)
            assert f.dtype == np.uint8
    assert faces["5z"][0][..., 3].max() == 0  # Japanese white dragon: blank face
    assert faces["back"][0][..., 3].min() == 255  # a back is opaque
    # the cache returns the same faces
    again = artwork.load_faces("fluffystuff_regular")
    np.testing.assert_array_equal(again["1m"][0], faces["1m"][0])
    assert list(tmp_path.glob("artwork/*.npz"))


def test_env_overrides_datasets_root(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("MJLENS_DATASETS", str(tmp_path))
    assert artwork.datasets_root() == tmp_path
    assert "fluffystuff_regular" not in artwork.available_sources()
    with pytest.raises(FileNotFoundError):
        artwork.load_faces("fluffystuff_regular", use_cache=False)


def test_faces_written_with_fewer_fonts_are_cached_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A procedural source drawn on a machine that lacks one of its fonts draws
    other faces: they must not be read back later as the faces of the full set
    of fonts (nor the other way round)."""
    monkeypatch.setenv("MJLENS_BUILD", str(tmp_path))
    have = tmp_path / "font.ttf"
    have.write_bytes(b"")
    drawn: list[int] = []

    def loader(root: Path) -> artwork.FaceSet:
        drawn.append(1)
        return {"1m": [np.zeros((artwork.FACE_H, artwork.FACE_W, 4), np.uint8)]}

    source = artwork.Source("fonts_probe", "test", "none", loader, (), fonts=(have,))
    monkeypatch.setitem(artwork.SOURCES, source.name, source)
    artwork.load_faces(source.name)
    monkeypatch.setitem(artwork.SOURCES, source.name, artwork.Source(
        "fonts_probe", "test", "none", loader, (), fonts=(have, tmp_path / "missing.ttf")))
    artwork.load_faces(source.name)
    artwork.load_faces(source.name)  # now cached
    assert len(drawn) == 2
    assert sorted(p.name for p in tmp_path.glob("artwork/fonts_probe.*")) == [
        f"fonts_probe.v{artwork.CACHE_VERSION}.npz", f"fonts_probe.v{artwork.CACHE_VERSION}f1.npz"]
    assert "font " + str(tmp_path / "missing.ttf") in artwork.missing_for_training()


def test_compose_on_face_fills_transparent_parts() -> None:
    face = np.zeros((4, 3, 4), np.uint8)
    face[0, 0] = (10, 20, 30, 255)
    out = artwork.compose_on_face(face, (200, 190, 180))
    assert tuple(out[0, 0]) == (10, 20, 30)
    assert tuple(out[1, 1]) == (200, 190, 180)


def test_every_training_code_is_drawn_by_several_sources() -> None:
    """No tile may depend on one artwork: the classifier must learn the symbol."""
    from collections import Counter

    seen: Counter[str] = Counter()
    for name in artwork.training_sources():
        if name in ("fluffystuff_regular", "fluffystuff_black", "plain_backs"):
            seen.update(artwork.load_faces(name).keys())
    assert seen["1m"] >= 2
    assert seen["back"] >= 2


XMAHJONGG = ("xmahjongg_real", "xmahjongg_dorothys", "xmahjongg_dorwhite")
ALL_FACES = CODES | {f"{n}{k}" for k in "fg" for n in range(1, 5)}


@pytest.mark.skipif(not all(s in artwork.available_sources() for s in XMAHJONGG),
                    reason="Debian package xmahjongg is not installed")
@pytest.mark.parametrize("name", XMAHJONGG)
def test_xmahjongg_sets_have_every_face(name: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MJLENS_BUILD", str(tmp_path))
    faces = artwork.load_faces(name)
    assert set(faces) == ALL_FACES
    for (face,) in faces.values():
        assert face.shape == (artwork.FACE_H, artwork.FACE_W, 4)
    alpha = np.stack([f[0][..., 3] for f in faces.values()])
    if name == "xmahjongg_real":  # a scanned set keeps its own face colour
        assert alpha.min() == 255
    else:  # drawn on one flat face colour, which becomes transparent
        assert (alpha == 0).mean() > 0.5
        assert (alpha == 255).mean() > 0.05


@pytest.mark.skipif("xmahjongg_real" not in artwork.available_sources(),
                    reason="Debian package xmahjongg is not installed")
def test_xmahjongg_real_grid_names_the_right_faces() -> None:
    """The scanned set's grid is read in the right order: the shipped classifier
    (which never saw this set) names its clean playing tiles, and the framed
    white dragon is the one face with a dark frame."""
    from vision.classify import TileClassifier

    faces = artwork.load_faces("xmahjongg_real")
    codes = sorted(CODES)
    crops = [faces[c][0][..., :3] for c in codes]
    clf = TileClassifier()
    probs, _ = clf.probabilities(crops, rgb=True)
    right = sum(clf.labels[int(p.argmax())] == c for p, c in zip(probs, codes, strict=True))
    assert right >= 30, right
    grey = {c: faces[c][0][..., :3].mean(axis=2) for c in codes}
    frame = {c: g[20:40, 30:120].mean() for c, g in grey.items()}  # the frame's top bar
    assert min(frame, key=frame.__getitem__) == "5z"


@pytest.mark.skipif("cjk_fonts" not in artwork.available_sources(),
                    reason="needs the CJK fonts of the data build")
def test_unnamed_faces_are_listed_apart_and_lack_only_their_writing() -> None:
    faces, bare = artwork.load_faces("cjk_fonts"), artwork.load_unnamed("cjk_fonts")
    assert not any(c.endswith(artwork.UNNAMED) for c in faces)
    # the characters' number and the flowers' and seasons' writing name them, not
    # the 萬 or the plant; a wind or a dragon is named by all of its ink
    assert set(bare) == {f"{n}m" for n in range(1, 10)} | {f"{n}{k}" for k in "fg"
                                                            for n in range(1, 5)}
    for code, twins in bare.items():
        assert len(twins) == len(faces[code])
        for face, twin in zip(faces[code], twins, strict=True):
            assert (twin[..., 3] > 40).sum() > 200, code  # the 萬 or the plant stays
            assert (face[..., 3].astype(int) - twin[..., 3] > 40).sum() >= 30, code
    assert artwork.load_unnamed("fluffystuff_regular") == {}


def test_a_source_lists_its_faces_in_one_order_cached_or_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Faces and their unnamed twins are matched by position: the first load (which
    writes the cache) must give the order that every later load reads."""
    monkeypatch.setenv("MJLENS_BUILD", str(tmp_path))
    faces = [np.full((artwork.FACE_H, artwork.FACE_W, 4), i, np.uint8) for i in range(120)]

    def loader(root: Path) -> artwork.FaceSet:
        return {"1f": faces, "1f" + artwork.UNNAMED: [f + 1 for f in faces]}

    monkeypatch.setitem(artwork.SOURCES, "order_probe",
                        artwork.Source("order_probe", "test", "none", loader, ()))
    first = artwork.load_faces("order_probe")["1f"]
    again = artwork.load_faces("order_probe")["1f"]
    bare = artwork.load_unnamed("order_probe")["1f"]
    assert [int(f[0, 0, 0]) for f in first] == [int(f[0, 0, 0]) for f in again]
    assert [int(f[0, 0, 0]) + 1 for f in first] == [int(f[0, 0, 0]) for f in bare]
