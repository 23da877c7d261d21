"""scoring.likely_hand: the most probable winning reading of uncertain tiles."""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets.scene_layout import random_hand
from scoring.likely_hand import (
    MAX_CHANGES,
    MAX_CHECKS,
    MAX_TRIES,
    SURE,
    is_winning,
    most_likely,
    other_winning_faces,
    settled,
)

Reading = list[list[tuple[str, float]]]


def codes(text: str) -> list[str]:
    return text.split()


def sure(text: str) -> list[list[tuple[str, float]]]:
    return [[(c, 0.99)] for c in codes(text)]


HAND = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p 5s 5s"


def cost(blocks: list[Reading], codes: list[list[str]]) -> float:
    total = 0.0
    for block, chosen in zip(blocks, codes, strict=True):
        for options, code in zip(block, chosen, strict=True):
            p = dict(options)[code]
            total += math.log(options[0][1] / p)
    return total


def misread_hand(seed: int, wrong: list[int]) -> tuple[list[list[str]], list[Reading]]:
    """A generated winning hand (its codes) and its readings: every tile sure,
    except the tiles at ``wrong`` (modulo the hand's length), read as another
    face first and their own second."""
    truth = [["back", *b.codes[1:3], "back"] if b.meld == "concealed_kong" else list(b.codes)
             for b in random_hand(np.random.default_rng(seed))]
    flat = [(b, t) for b, block in enumerate(truth) for t in range(len(block))]
    blocks: list[Reading] = [[[(c, 0.98)] for c in block] for block in truth]
    for w in wrong:
        b, t = flat[w % len(flat)]
        code = truth[b][t]
        other = "9m" if code != "9m" else "1p"
        blocks[b][t] = [(other, 0.55), (code, 0.4)]
    return truth, blocks


def test_winning_shapes() -> None:
    assert is_winning([codes(HAND)])
    assert is_winning([codes("1z 1z 2z 2z 3z 3z 4z 4z 5z 5z 6z 6z 7z 7z")])  # seven pairs
    # a concealed kong (faces down at its ends), an exposed chow and two bonus tiles
    assert is_winning([["1m", "2m", "3m", "5s", "5s"], ["back", "1z", "1z", "back"],
                       ["4p", "5p", "6p"], ["7p", "8p", "9p"], ["1f", "2g"]])
    # with four melds the concealed hand is the pair
    assert is_winning([["5s", "5s"], ["1z", "1z", "1z"], ["2m", "3m", "4m"],
                       ["7s", "7s", "7s", "7s"], ["6z", "6z", "6z"]])


def test_what_no_winning_hand_has() -> None:
    hand = codes(HAND)
    assert not is_winning([hand[:-1]])  # a tile missing
    assert not is_winning([[*hand[:-1], "none"]])  # not a tile
    assert not is_winning([[*hand[:-2], "5s", "5s"], ["1f", "1f"]])  # a flower twice
    assert not is_winning([[*hand[:9], "5s", "5s"], ["1p", "2p", "4p"]])  # a meld not a set
    assert not is_winning([[*hand[:9], "5s", "5s"], ["back", "1p", "1p"]])  # face down in 3
    assert not is_winning([[*hand[:9], "5s", "5s"], ["1m", "1m", "1m", "1m"]])  # five 1m
    assert not is_winning([["back", *hand[1:]]])


def test_an_unsure_tile_is_read_as_the_face_that_makes_the_hand() -> None:
    blocks = [[*sure("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p"), [("5p", 0.5), ("1p", 0.4), ("2p", 0.1)],
               *sure("5s 5s")]]
    assert most_likely(blocks) == [codes(HAND)]


def test_a_winning_first_reading_is_kept() -> None:
    blocks = [[*sure("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p 1p"), [("5s", 0.5), ("6s", 0.45)],
               [("5s", 0.5), ("6s", 0.45)]]]
    assert most_likely(blocks) is None


def test_sure_tiles_and_missing_tiles_stay_as_read() -> None:
    # 5p read with confidence: no change, even though 1p would make the hand
    blocks = [[*sure("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p"), [("5p", SURE), ("1p", 0.25)],
               *sure("5s 5s")]]
    assert most_likely(blocks) is None
    # a tile missing: no reading of the others makes a hand
    blocks = [[*sure("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p"), [("5p", 0.4), ("1p", 0.3)],
               *sure("5s")]]
    assert most_likely(blocks) is None


def test_two_flowers_read_alike_are_told_apart() -> None:
    blocks = [sure(HAND), [[("1f", 0.5), ("3f", 0.3)], [("1f", 0.4), ("2f", 0.35)]]]
    assert most_likely(blocks) == [codes(HAND), ["1f", "2f"]]


def test_a_tile_set_apart_is_read_as_the_unlikely_flower_it_must_be() -> None:
    # an unseen set's plum, alone beside the hand: no playing tile can lie alone,
    # and the plum is the likeliest of the readings that make a hand
    plum = [("1z", 0.16), ("1s", 0.15), ("6z", 0.12), ("1f", 0.02), ("4g", 0.015)]
    assert most_likely([sure(HAND), [plum]]) == [codes(HAND), ["1f"]]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), wrong=st.lists(st.integers(0, 30), max_size=MAX_CHANGES))
def test_misread_winning_hands_are_read_as_winning_hands_no_less_likely(
        seed: int, wrong: list[int]) -> None:
    """Generated winning hands with up to three tiles misread (the truth second):
    the reading chosen is a winning hand at most as costly as the truth."""
    truth, blocks = misread_hand(seed, wrong)
    assert is_winning(truth)
    got = most_likely(blocks)
    first = [[options[0][0] for options in block] for block in blocks]
    if got is None:
        assert is_winning(first)
    else:
        assert is_winning(got)
        assert cost(blocks, got) <= cost(blocks, truth) + 1e-9


UNSURE = 0.75  # vision.recognize.LOW_CONFIDENCE


def test_a_tile_whose_alternatives_break_the_hand_is_settled() -> None:
    # 4m at 0.6: its 5m (0.3) or 6m would make 3-5-5 or 3-6-5, no winning hand
    blocks = [[*sure("1m 2m 3m"), [("4m", 0.6), ("5m", 0.3), ("6m", 0.05)],
               *sure("5m 6m 7m 8m 9m 1p 1p 1p 5s 5s")]]
    flags = settled(blocks, UNSURE)
    assert flags == [[True] * 14]


def test_a_tile_another_winning_reading_changes_is_not_settled() -> None:
    # 9m at 0.6 or its 6m: 7-8-9 and 6-7-8 both make the hand (a two-sided wait)
    blocks = [[*sure("1m 2m 3m 4m 5m 6m 7m 8m"), [("9m", 0.6), ("6m", 0.3)],
               *sure("1p 1p 1p 5s 5s")]]
    flags = settled(blocks, UNSURE)[0]
    assert flags[8] is False
    assert all(flags[:8]) and all(flags[9:])


def test_a_flower_is_never_settled_by_the_hand() -> None:
    # any other bonus tile makes the same winning hand
    blocks = [sure(HAND), [[("1f", 0.6), ("1g", 0.3)], *sure("2f")]]
    assert settled(blocks, UNSURE) == [[True] * 14, [False, True]]


def test_the_other_winning_faces_are_given_in_the_order_of_the_readings() -> None:
    # 1-8 characters, a pung and a pair wait on 9m, 6m and 3m (789, 678, 345)
    blocks = [[*sure("1m 2m 3m 4m 5m 6m 7m 8m"),
               [("9m", 0.6), ("6m", 0.2), ("2p", 0.1), ("3m", 0.05)],
               *sure("1p 1p 1p 5s 5s")], [[("1f", 0.6), ("7z", 0.2), ("1g", 0.1)], *sure("2f")]]
    assert other_winning_faces(blocks, UNSURE) == [
        [(), (), (), (), (), (), (), (), ("6m", "3m"), (), (), (), (), ()], [("1g",), ()]]
    # with no winning hand first there is nothing to say
    blocks[0][0] = [("9p", 0.6), ("1m", 0.3)]
    assert other_winning_faces(blocks, UNSURE) is None


def test_a_tile_between_the_hand_readers_mark_and_the_checks_is_searched_too() -> None:
    # 0.72 is above most_likely's SURE but below the mark that asks for a check:
    # its alternative 6m wins too, so it is not settled
    assert SURE < 0.72 < UNSURE
    blocks = [[*sure("1m 2m 3m 4m 5m 6m 7m 8m"), [("9m", 0.72), ("6m", 0.2)],
               *sure("1p 1p 1p 5s 5s")]]
    assert settled(blocks, UNSURE)[0][8] is False


def test_nothing_is_settled_when_the_first_readings_make_no_hand() -> None:
    blocks = [[*sure("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 1p"), [("5p", 0.5), ("1p", 0.4)],
               *sure("5s 5s")]]
    assert settled(blocks, UNSURE) == [[False] * 14]


def test_nothing_is_settled_when_the_search_is_cut_short() -> None:
    # fourteen unsure tiles with three alternatives each: more readings than MAX_CHECKS
    options = {c: [(c, 0.5), ("1z", 0.2), ("2z", 0.2), ("3z", 0.1)] for c in set(codes(HAND))}
    blocks = [[options[c] for c in codes(HAND)]]
    assert math.comb(14, 3) * 3**3 > MAX_CHECKS
    assert settled(blocks, UNSURE) == [[False] * 14]


def test_melds_are_searched_block_by_block() -> None:
    """Four unsure tiles, one per block, each with twelve alternatives: 1 + 48 +
    864 + 6 912 readings of the hand, more than most_likely's MAX_TRIES, but
    only a few readings of each block are sets or a winning hand."""
    others = ["1z", "2z", "3z", "4z", "5z", "6z", "7z", "1f", "2f", "3f", "1s", "2s", "9p"]

    def unsure(code: str) -> list[tuple[str, float]]:
        return [(code, 0.6), *[(c, 0.03) for c in others if c != code][:12]]

    blocks = [[*sure("1m 2m 3m"), unsure("5s"), *sure("5s")],
              [*sure("2p 3p"), unsure("4p")], [*sure("7s 8s"), unsure("9s")],
              [*sure("1z 1z"), unsure("1z")]]
    assert sum(math.comb(4, n) * 12**n for n in range(MAX_CHANGES + 1)) > MAX_TRIES
    flags = settled(blocks, UNSURE)
    # the pair's 5s has no other winning reading; the pung's east is read 1z
    # twice more, any other third tile breaks it; 4p and 9s end their chows
    assert flags == [[True] * 5, [True] * 3, [True] * 3, [True] * 3]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), wrong=st.lists(st.integers(0, 30), max_size=MAX_CHANGES))
def test_a_settled_tile_is_never_one_that_a_likely_misreading_hides(
        seed: int, wrong: list[int]) -> None:
    """Generated winning hands with up to three tiles read unsurely, the true face
    among their alternatives: no tile read wrong is ever settled."""
    truth, blocks = misread_hand(seed, wrong)
    flags = settled(blocks, UNSURE)
    for b, block in enumerate(blocks):
        for t, options in enumerate(block):
            if options[0][0] != truth[b][t]:
                assert not flags[b][t]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), unsure=st.lists(st.integers(0, 30), min_size=1, max_size=5),
       others=st.lists(st.sampled_from(["1m", "5p", "9s", "1z", "5z", "1f", "2g", "back"]),
                       min_size=1, max_size=3))
def test_the_block_search_finds_every_winning_reading(
        seed: int, unsure: list[int], others: list[str]) -> None:
    """The block-by-block search settles exactly the tiles that trying every
    reading of the whole hand, one by one, settles."""
    truth, blocks = misread_hand(seed, [])
    flat = [(b, t) for b, block in enumerate(truth) for t in range(len(block))]
    for u in unsure:
        b, t = flat[u % len(flat)]
        blocks[b][t] = [(truth[b][t], 0.6), *[(c, 0.05) for c in others if c != truth[b][t]]]
    options = [(b, t, code) for b, t in flat for code, _ in blocks[b][t][1:]]
    changed = set()
    for n in range(1, MAX_CHANGES + 1):
        for chosen in itertools.combinations(options, n):
            if len({(b, t) for b, t, _ in chosen}) < n:
                continue
            reading = [list(block) for block in truth]
            for b, t, code in chosen:
                reading[b][t] = code
            if is_winning(reading):
                changed.update((b, t) for b, t, _ in chosen)
    assert settled(blocks, UNSURE) == [[(b, t) not in changed for t in range(len(block))]
                                       for b, block in enumerate(truth)]
