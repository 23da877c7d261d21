"""Rule presets: the data files players read, and the overrides clubs apply to them.

Every club plays a variant, so every value lives in ``scoring/presets/<name>.toml``
rather than in code: pattern values with English and Italian names, the
interpretation notes, the options (minimum fan, limit, payment table, stake...).
A request may override any option, and any pattern's value, by name; unknown
names are refused with the list of allowed ones, because a silently ignored
typo would give a wrong score.

Every preset file has ``model = "hk"`` or ``model = "italian"``; the model
decides which engine scores it (:mod:`scoring.score`). Keys a model does not
know stay available in :attr:`Preset.data` for that model's own use.
"""

from __future__ import annotations

import importlib
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from scoring.errors import RuleError

MODELS: tuple[str, ...] = ("hk", "italian")
LIMIT = "limit"
"""The fan value of a limit pattern in the files: the hand pays the top row."""

PATTERN_CATEGORIES: tuple[str, ...] = ("sets", "hand", "win", "bonus")
"""Where a pattern comes from: single sets, the whole hand, how it was won, bonus tiles."""


@dataclass(frozen=True, slots=True)
class PatternRule:
    """One scoring pattern of a fan preset, as the data file states it."""

    id: str
    fan: int
    """Fan per occurrence; for a limit pattern, the preset's ``limit_fan``."""
    limit: bool
    name: str
    name_it: str
    category: str
    description: str = ""
    description_it: str = ""
    replaces: tuple[str, ...] = ()
    """Patterns whose fan this one replaces, because its definition contains theirs."""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "name_it": self.name_it,
                "fan": LIMIT if self.limit else self.fan, "category": self.category,
                "replaces": list(self.replaces)}


@dataclass(frozen=True, slots=True)
class Preset:
    """A loaded preset with its overrides applied.

    ``options`` maps option names to values; ``patterns`` (fan models only)
    keeps the file's order, which is also the order results list patterns in.
    """

    name: str
    model: str
    title: str
    title_it: str
    summary: str
    summary_it: str
    options: Mapping[str, Any]
    patterns: tuple[PatternRule, ...]
    notes: tuple[str, ...]
    sources: tuple[str, ...]
    data: Mapping[str, Any]
    """The whole file as read, for models with sections of their own."""
    overrides: Mapping[str, Any]

    def pattern(self, pattern_id: str) -> PatternRule | None:
        for p in self.patterns:
            if p.id == pattern_id:
                return p
        return None

    def option(self, key: str) -> Any:
        return self.options[key]


def _files() -> dict[str, Any]:
    folder = resources.files("scoring") / "presets"
    return {entry.name[:-5]: entry for entry in folder.iterdir()
            if entry.name.endswith(".toml") and not entry.name.startswith("_")}


def list_presets() -> tuple[str, ...]:
    """Names of the shipped presets (the files' names), sorted."""
    return tuple(sorted(_files()))


def _str(data: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise RuleError(f"{where}: {key!r} must be text", code="bad_preset")
    return value


def _pattern(pid: str, raw: Any, limit_fan: int, where: str) -> PatternRule:
    if not isinstance(raw, Mapping):
        raise RuleError(f"{where}: pattern {pid!r} must be a table", code="bad_preset")
    fan = raw.get("fan")
    limit = fan == LIMIT
    if not limit and (isinstance(fan, bool) or not isinstance(fan, int) or fan < 0):
        raise RuleError(f"{where}: pattern {pid!r} needs fan = a whole number or \"limit\"",
                        code="bad_preset")
    category = _str(raw, "category", f"{where} pattern {pid!r}", "hand")
    if category not in PATTERN_CATEGORIES:
        raise RuleError(f"{where}: pattern {pid!r} has category {category!r}; "
                        f"allowed: {', '.join(PATTERN_CATEGORIES)}", code="bad_preset")
    replaces = raw.get("replaces", [])
    if not isinstance(replaces, list) or not all(isinstance(r, str) for r in replaces):
        raise RuleError(f"{where}: pattern {pid!r}: replaces must be a list of pattern ids",
                        code="bad_preset")
    return PatternRule(
        id=pid, fan=limit_fan if limit else int(fan or 0), limit=limit,
        name=_str(raw, "name", f"{where} pattern {pid!r}"),
        name_it=_str(raw, "name_it", f"{where} pattern {pid!r}"),
        category=category,
        description=_str(raw, "description", f"{where} pattern {pid!r}", ""),
        description_it=_str(raw, "description_it", f"{where} pattern {pid!r}", ""),
        replaces=tuple(replaces),
    )


def read_preset_data(name: str) -> Mapping[str, Any]:
    """The preset file as parsed TOML, before any override (read-only, cached)."""
    return _read(name.strip().lower() if isinstance(name, str) else name)


@cache
def _read(name: str) -> Mapping[str, Any]:
    files = _files()
    if name not in files:
        raise RuleError(f"unknown rules {name!r}; available: {', '.join(sorted(files))}",
                        code="unknown_rules")
    with files[name].open("rb") as fh:
        try:
            data = tomllib.load(fh)
        except tomllib.TOMLDecodeError as exc:
            raise RuleError(f"preset file {name}.toml is not valid TOML: {exc}",
                            code="bad_preset") from exc
    return MappingProxyType(data)


def _same_type(default: Any, value: Any) -> bool:
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, int) and not isinstance(default, bool):
        return isinstance(value, int)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return isinstance(value, type(default))


def _check_option(key: str, default: Any, value: Any, model: str) -> Any:
    """Type-check one override against the file's default; fan models check meanings too."""
    if model == "hk":
        from scoring.payments import check_payment_option
        return check_payment_option(key, value)
    if not _same_type(default, value):
        raise RuleError(f"option {key!r} must be {type(default).__name__}, got {value!r}")
    return value


def load_preset(name: str, options: Mapping[str, Any] | None = None) -> Preset:
    """Load ``scoring/presets/<name>.toml`` and apply ``options`` overrides (cached).

    See :func:`build_preset`; the same name and options give the same object,
    so the API pays for reading and checking a preset once.
    """
    if not isinstance(name, str):
        raise RuleError(f"\"rules\" must be a preset name, got {name!r}", code="unknown_rules")
    if not options:
        return _cached(name.strip().lower(), "")
    try:
        key = json.dumps(options, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise RuleError(f"\"options\" must be a JSON object, got {options!r}") from exc
    return _cached(name.strip().lower(), key)


@lru_cache(maxsize=256)
def _cached(name: str, options_json: str) -> Preset:
    return build_preset(name, json.loads(options_json) if options_json else None)


def build_preset(name: str, options: Mapping[str, Any] | None = None) -> Preset:
    """Load ``scoring/presets/<name>.toml`` and apply ``options`` overrides.

    ``options`` keys are the file's ``[options]`` names, or ``fan.<pattern>``
    to change (a whole number, ``"limit"``) or drop (``0``) one pattern's value.
    Raises :class:`~scoring.errors.RuleError` (code ``unknown_rules`` or
    ``bad_rule_option``) naming the bad key and the allowed ones.
    """
    if not isinstance(name, str):
        raise RuleError(f"\"rules\" must be a preset name, got {name!r}", code="unknown_rules")
    data = _read(name.strip().lower())
    where = f"{name}.toml"
    model = _str(data, "model", where)
    if model not in MODELS:
        raise RuleError(f"{where}: model {model!r} unknown; allowed: {', '.join(MODELS)}",
                        code="bad_preset")
    opts: dict[str, Any] = dict(data.get("options", {}))
    overrides: dict[str, Any] = {}
    fan_overrides: dict[str, Any] = {}
    if options is not None and model == "italian":
        # The Italian model owns its option syntax (dotted keys into its tables).
        if not isinstance(options, Mapping):
            raise RuleError(f"\"options\" must be an object, got {options!r}")
        rules = importlib.import_module("scoring.italian.rules")
        rules.rules_from_mapping(data, options)
        overrides.update(options)
    elif options is not None:
        if not isinstance(options, Mapping):
            raise RuleError(f"\"options\" must be an object, got {options!r}")
        raw_patterns = data.get("patterns", {})
        for key, value in options.items():
            if isinstance(key, str) and key.startswith("fan.") and model == "hk":
                pid = key[4:]
                if pid not in raw_patterns:
                    raise RuleError(f"option {key!r}: {name} has no pattern {pid!r}; allowed: "
                                    + ", ".join(f"fan.{p}" for p in raw_patterns))
                if value != LIMIT and (isinstance(value, bool) or not isinstance(value, int)
                                       or value < 0):
                    raise RuleError(f"option {key!r} must be a whole number >= 0 or \"limit\", "
                                    f"got {value!r}")
                fan_overrides[pid] = value
            elif key in opts:
                opts[key] = _check_option(key, opts[key], value, model)
            else:
                allowed = sorted(opts) + (["fan.<pattern>"] if model == "hk" else [])
                raise RuleError(f"unknown option {key!r} for {name}; allowed: "
                                + ", ".join(allowed))
            overrides[key] = value
    patterns: tuple[PatternRule, ...] = ()
    if model == "hk":
        from scoring.payments import check_payment_option
        for key in ("min_fan", "limit_fan", "payment_table", "base_stake"):
            if key not in opts:
                raise RuleError(f"{where}: [options] needs {key!r}", code="bad_preset")
            check_payment_option(key, opts[key])
        limit_fan = int(opts["limit_fan"])
        raw_patterns = dict(data.get("patterns", {}))
        for pid, value in fan_overrides.items():
            raw_patterns[pid] = {**raw_patterns[pid], "fan": value}
        built = [_pattern(pid, raw, limit_fan, where) for pid, raw in raw_patterns.items()]
        patterns = tuple(p for p in built if p.limit or p.fan > 0)
        from scoring.hongkong import check_patterns
        check_patterns(patterns, where)
    notes = data.get("notes", [])
    sources = data.get("sources", [])
    title = _str(data, "title", where, data.get("name", name))
    summary = _str(data, "summary", where, data.get("description", ""))
    return Preset(
        name=name.strip().lower(), model=model,
        title=title, title_it=_str(data, "title_it", where, data.get("name_it", title)),
        summary=summary,
        summary_it=_str(data, "summary_it", where, data.get("description_it", summary)),
        options=MappingProxyType(opts), patterns=patterns,
        notes=tuple(str(n) for n in notes), sources=tuple(str(s) for s in sources),
        data=data, overrides=MappingProxyType(overrides),
    )
