"""The players' rules document is generated from the preset files and committed up to date."""

from __future__ import annotations

from scoring.presets import list_presets, load_preset
from scoring.rules_doc import DOC_PATH, generate, main


def test_committed_document_equals_the_generated_one() -> None:
    assert DOC_PATH.read_text(encoding="utf-8") == generate(), (
        "docs/rules.md is out of date: run python3 -m scoring.rules_doc")


def test_check_mode_agrees() -> None:
    assert main(["--check"]) == 0


def test_document_states_every_fan_pattern_with_both_names() -> None:
    text = generate()
    for name in list_presets():
        preset = load_preset(name)
        assert f"`{name}`" in text
        for rule in preset.patterns:
            assert f"| {rule.name} | {rule.name_it} |" in text
        for note in preset.notes:
            assert note in text


def test_check_mode_fails_on_a_stale_copy(tmp_path: object) -> None:
    from pathlib import Path
    stale = Path(str(tmp_path)) / "rules.md"
    stale.write_text("old\n", encoding="utf-8")
    assert main(["--check", "--output", str(stale)]) == 1
    assert main(["--output", str(stale)]) == 0
    assert stale.read_text(encoding="utf-8") == generate()
