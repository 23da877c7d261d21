"""Presets are data files: listing, loading, overrides and clear refusals."""

from __future__ import annotations

import pytest

from scoring.errors import RuleError
from scoring.presets import list_presets, load_preset


def test_shipped_presets() -> None:
    names = list_presets()
    assert {"hk-a", "hk-b", "hkos"} <= set(names)
    for name in names:
        preset = load_preset(name)
        assert preset.model in ("hk", "italian")
        assert preset.title and preset.title_it


@pytest.mark.parametrize("name", ["hk-a", "hk-b", "hkos"])
def test_fan_presets_have_english_and_italian_names_and_sources(name: str) -> None:
    preset = load_preset(name)
    assert preset.sources and preset.notes
    for rule in preset.patterns:
        assert rule.name and rule.name_it and rule.description
        for replaced in rule.replaces:
            assert replaced != rule.id


def test_seed_options() -> None:
    for name in ("hk-a", "hk-b"):
        opts = load_preset(name).options
        assert opts["min_fan"] == 0 and opts["limit_fan"] == 10
        assert opts["payment_table"] == "seed"
    hkos = load_preset("hkos").options
    assert hkos["min_fan"] == 3 and hkos["payment_table"] == "half-spicy"
    assert hkos["bonus_counts_for_minimum"] is False


def test_overrides_apply_and_are_cached() -> None:
    preset = load_preset("hk-a", {"min_fan": 3, "fan.all_chows": 2})
    assert preset.options["min_fan"] == 3
    rule = preset.pattern("all_chows")
    assert rule is not None and rule.fan == 2
    assert load_preset("hk-a", {"fan.all_chows": 2, "min_fan": 3}) is preset
    assert load_preset("hk-a").options["min_fan"] == 0  # the file itself is untouched


def test_unknown_option_names_the_allowed_ones() -> None:
    with pytest.raises(RuleError) as err:
        load_preset("hk-a", {"minimum": 3})
    assert err.value.code == "bad_rule_option"
    assert "minimum" in err.value.message and "min_fan" in err.value.message


def test_unknown_pattern_override_names_the_allowed_ones() -> None:
    with pytest.raises(RuleError, match=r"fan\.all_chows"):
        load_preset("hk-b", {"fan.pair_258": 1})


def test_unknown_rules() -> None:
    with pytest.raises(RuleError) as err:
        load_preset("mcr")
    assert err.value.code == "unknown_rules" and "hk-a" in err.value.message


def test_rule_names_are_case_insensitive() -> None:
    assert load_preset("HK-A").name == "hk-a"
