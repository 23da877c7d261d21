"""The Italian sheet as data: the seed's figures, every entry named and sourced, overrides."""

from __future__ import annotations

from typing import Any

import pytest
from test_italian_support import PRESET, rules

from scoring.errors import RuleError
from scoring.italian import describe
from scoring.italian.doubles import CLOSING, FUNDAMENTAL
from scoring.italian.points import CLOSING_POINTS
from scoring.italian.rules import SECTIONS, allowed_overrides, rules_from_mapping
from scoring.italian.scorer import check_rules, finish
from scoring.italian.special import SPECIAL
from scoring.presets import list_presets, load_preset


def test_seed_figures_hold() -> None:
    r = rules()
    assert r.start_points == 2000
    assert r.unit == 10
    assert r.max_doubles == 12
    assert r.east_multiplier == 2
    # 737,280 from each player for East, 2,211,840 in one hand: the limit is 90 x 2^12.
    assert r.limit * r.east_multiplier == 737_280
    assert r.limit * r.east_multiplier * 3 == 2_211_840
    assert r.limit == 90 * 2**12


def test_classical_defaults() -> None:
    r = rules()
    assert {k: e.value for k, e in r.closing_points.items()} == {
        "mahjong": 20, "self_drawn": 2, "only_possible_tile": 2, "completing_pair": 2}
    assert {k: e.value for k, e in r.closing_doubles.items()} == {
        "no_chows": 1, "concealed": 1, "one_suit_with_honours": 1, "one_suit": 3,
        "terminals_and_honours": 1, "last_tile": 1, "kong_replacement": 1, "robbing_kong": 1,
        "all_drawn": 1}
    assert r.doubles["big_three_dragons"].value == 2
    assert {k: e.value for k, e in r.special_hands.items()} == {
        "seven_pairs_terminals_honours": 2000, "seven_pairs_one_suit": 2000,
        "little_snake": 1000, "dragons_gathering": 2000, "four_blessings": 2000,
        "thirteen_orphans": 2000, "all_kongs": 3000, "nine_gates": 2000}
    assert r.special_hands["seven_pairs_one_suit"].all_drawn_but_last
    assert r.special_hands["thirteen_orphans"].all_drawn_but_last
    assert not r.special_hands["all_kongs"].all_drawn_but_last


def test_every_entry_is_named_in_both_languages_and_sourced() -> None:
    r = rules()
    for section in SECTIONS:
        for entry in r.section(section).values():
            assert entry.name and entry.name_it
            assert entry.source in ("seed", "classical", "derived")


def test_the_sheet_and_the_scorer_know_the_same_rules() -> None:
    r = rules()
    assert set(r.doubles) == set(FUNDAMENTAL)
    assert set(r.closing_doubles) == set(CLOSING)
    assert set(r.closing_points) == set(CLOSING_POINTS)
    assert set(r.special_hands) == set(SPECIAL)
    check_rules(r)


def test_an_unknown_double_in_a_club_sheet_is_refused() -> None:
    data = {**PRESET, "doubles": {**PRESET["doubles"], "lucky_seven": {
        "name": "x", "name_it": "x", "value": 1, "source": "club"}}}
    with pytest.raises(RuleError, match="lucky_seven"):
        check_rules(rules_from_mapping(data))


def test_the_preset_loads_through_the_shared_loader() -> None:
    assert "italian" in list_presets()
    preset = load_preset("italian", {"unit": 1})
    assert preset.model == "italian"
    with pytest.raises(RuleError, match="allowed"):
        load_preset("italian", {"nonsense": 1})


@pytest.mark.parametrize(
    ("options", "check"),
    [
        ({"unit": 1}, lambda r: r.unit == 1),
        ({"doubles.dragon_pung": 2}, lambda r: r.doubles["dragon_pung"].value == 2),
        ({"points.base": 3}, lambda r: r.set_points(
            terminal_or_honour=False, kong=False, concealed=False) == 3),
        ({"east_keeps_seat_after_win": False}, lambda r: not r.east_keeps_seat_after_win),
        ({"special_hands.little_snake": 2000},
         lambda r: r.special_hands["little_snake"].value == 2000),
    ],
)
def test_overrides(options: dict[str, Any], check: Any) -> None:
    assert check(rules_from_mapping(PRESET, options))


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"speed": 1}, r"unknown rule option 'speed'.*allowed: start_points"),
        ({"doubles.nope": 1}, "unknown rule option 'doubles.nope'"),
        ({"unit": 0}, "'unit' must be an integer of at least 1"),
        ({"unit": "10"}, "'unit' must be an integer"),
        ({"max_doubles": True}, "'max_doubles' must be an integer"),
        ({"bonus_tiles": 1}, "'bonus_tiles' must be true or false"),
        ({"doubles.dragon_pung": 1.5}, "must be an integer"),
        ({"rounds": 5}, "at most 4"),
    ],
)
def test_bad_overrides_are_named(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        rules_from_mapping(PRESET, options)


def test_allowed_overrides_list_every_value() -> None:
    allowed = allowed_overrides(PRESET)
    assert "limit" in allowed and "closing_doubles.one_suit" in allowed
    assert "points.concealed_factor" in allowed


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({**PRESET, "model": "hk"}, "not an Italian preset"),
        ({k: v for k, v in PRESET.items() if k != "doubles"}, r"needs a \[doubles\] table"),
        ({**PRESET, "doubles": {**PRESET["doubles"], "dragon_pung": {"value": 1}}},
         "needs a text field 'name'"),
        ({**PRESET, "doubles": {**PRESET["doubles"], "dragon_pung": {
            **PRESET["doubles"]["dragon_pung"], "value": -1}}}, "non-negative integer"),
        ({**PRESET, "points": {k: v for k, v in PRESET["points"].items() if k != "base"}},
         "lacks points.base"),
    ],
)
def test_broken_sheets_are_named(data: dict[str, Any], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        rules_from_mapping(data)


def test_twelve_double_cap_and_rounding_in_finish() -> None:
    from scoring.italian.points import Line

    r = rules()
    doubles = [Line("dragon_pung", "d", "d", 1)] * 15
    capped = finish("east", False, [Line("base", "p", "p", 7)], doubles, r)
    assert (capped.doubles_uncapped, capped.doubles) == (15, 12)
    assert capped.raw == 7 * 2**12
    assert capped.score == 28_670  # 28,672 rounded down to 10
    limited = finish("east", False, [Line("base", "p", "p", 91)], doubles, r)
    assert limited.limit and limited.score == 368_640
    plain = finish("east", False, [Line("base", "p", "p", 39)], [], rules(unit=1))
    assert plain.score == 39


def test_rules_document_section_lists_the_sheet() -> None:
    text = describe(PRESET)
    assert text.startswith("## Italian")
    assert "368,640 = 90 points x 2^12" in text
    assert "2,211,840 in one hand" in text
    for entry in rules().doubles.values():
        assert entry.name in text
    assert "| pung of terminals and honours | 4 | 8 |" in text
    assert "| kong of simples (2-8) | 8 | 16 |" in text
