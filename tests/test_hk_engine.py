"""Guards on the engine's speed-ups: they must never change a score."""

from __future__ import annotations

import inspect
import re

from scoring import hongkong as hk
from scoring.decompose import split_suit
from scoring.presets import list_presets, load_preset


def test_reading_patterns_read_only_the_facts_in_the_shape_key() -> None:
    # Results of reading patterns are kept per shape: a pattern that looked at
    # anything else would be scored from a stale entry.
    for pid, fn in hk.PATTERNS.items():
        if pid in hk.HAND_LEVEL or pid in hk.MASK_LEVEL or pid in hk.FLOWER_WIN_PATTERNS:
            continue
        body = inspect.getsource(fn).split(":", 1)[1]
        read = set(re.findall(r"f\.(\w+)", body))
        if "_std(f)" in body:
            read.add("form")
        assert read, pid
        assert read <= set(hk.SHAPE_KEY_FIELDS), (pid, read - set(hk.SHAPE_KEY_FIELDS))


def test_hand_level_patterns_read_only_the_facts_in_the_hand_key() -> None:
    # Hand-level results are kept per hand-level key: same guard as above.
    fields = set(hk.HAND_KEY_FIELDS)
    for pid in hk.HAND_LEVEL:
        body = inspect.getsource(hk.PATTERNS[pid]).split(":", 1)[1]
        read = set(re.findall(r"f\.([\w.]+\w)", body))
        assert read and read <= fields, (pid, read - fields)


def test_every_preset_pattern_is_known_and_classified() -> None:
    for name in list_presets():
        preset = load_preset(name)
        if preset.model != "hk":
            continue
        for rule in preset.patterns:
            assert rule.id in hk.PATTERNS


def test_suit_tables_give_each_reading_once() -> None:
    # 1111234 in one suit: 111+1234? no; 11+11? no; 111+123+4? no: 1111 is pung + chow start
    splits = split_suit((4, 1, 1, 1, 0, 0, 0, 0, 0), 0)
    assert len(splits) == len(set(splits))
    assert split_suit((3, 3, 3, 0, 0, 0, 0, 0, 0), 0) == split_suit((3, 3, 3, 0, 0, 0, 0, 0, 0), 0)
    assert len(split_suit((3, 3, 3, 0, 0, 0, 0, 0, 0), 0)) == 2
