"""The Italian rule sheet as typed data, read from ``scoring/presets/italian.toml``.

Rules are data, patterns are code: the TOML file holds every number a club may
change (with its English and Italian name and its source), this module turns it
into one frozen :class:`ItalianRules` the scorer reads, and checks every value
so that a typo in a club's sheet is an error naming the key, not a wrong score.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

from scoring.errors import RuleError

SECTIONS: tuple[str, ...] = (
    "points", "closing_points", "doubles", "closing_doubles", "special_hands",
)
"""The tables of valued entries, in the order the rules document lists them."""

_INT_OPTIONS: dict[str, int] = {
    # option -> smallest allowed value
    "start_points": 0,
    "unit": 1,
    "max_doubles": 0,
    "limit": 1,
    "east_multiplier": 1,
    "rounds": 1,
}
_BOOL_OPTIONS: tuple[str, ...] = (
    "east_keeps_seat_after_win",
    "east_keeps_seat_after_draw",
    "bonus_tiles",
    "losers_settle",
)


@dataclass(frozen=True, slots=True)
class Entry:
    """One valued line of the sheet: base points, closing points, a double or a special hand."""

    key: str
    name: str
    name_it: str
    value: int
    source: str
    all_drawn_but_last: bool = False  # special hands only


@dataclass(frozen=True, slots=True, eq=False)
class ItalianRules:
    """Every setting of one Italian preset, after option overrides.

    Compared and hashed by identity, so the scorer can cache what it derives
    from one sheet (its mapping fields are not hashable anyway).
    """

    name: str
    name_it: str
    description: str
    description_it: str
    start_points: int
    unit: int
    max_doubles: int
    limit: int
    east_multiplier: int
    east_keeps_seat_after_win: bool
    east_keeps_seat_after_draw: bool
    bonus_tiles: bool
    losers_settle: bool
    rounds: int
    points: Mapping[str, Entry]
    closing_points: Mapping[str, Entry]
    doubles: Mapping[str, Entry]
    closing_doubles: Mapping[str, Entry]
    special_hands: Mapping[str, Entry]

    set_values: Mapping[tuple[bool, bool, bool], int]
    """Base points of the eight kinds of set, keyed (terminal or honour, kong, concealed)."""

    def set_points(self, *, terminal_or_honour: bool, kong: bool, concealed: bool) -> int:
        """A pung's or kong's base points, built from the seed's three proportions."""
        return self.set_values[terminal_or_honour, kong, concealed]

    def section(self, name: str) -> Mapping[str, Entry]:
        return {
            "points": self.points,
            "closing_points": self.closing_points,
            "doubles": self.doubles,
            "closing_doubles": self.closing_doubles,
            "special_hands": self.special_hands,
        }[name]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry(section: str, key: str, raw: object) -> Entry:
    where = f"{section}.{key}"
    if not isinstance(raw, Mapping):
        raise RuleError(f"rule {where} must be a table with name, name_it, value, source")
    for field in ("name", "name_it", "source"):
        if not isinstance(raw.get(field), str):
            raise RuleError(f"rule {where} needs a text field {field!r}")
    value = raw.get("value")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise RuleError(f"rule {where}: value must be a non-negative integer, got {value!r}")
    flag = raw.get("all_drawn_but_last", False)
    if not isinstance(flag, bool):
        raise RuleError(f"rule {where}: all_drawn_but_last must be true or false")
    return Entry(key, raw["name"], raw["name_it"], value, raw["source"], flag)


def allowed_overrides(data: Mapping[str, Any]) -> tuple[str, ...]:
    """Every option name a request may override: game settings and ``section.key`` values."""
    names = list(data.get("options", {}))
    for section in SECTIONS:
        names.extend(f"{section}.{key}" for key in data.get(section, {}))
    return tuple(names)


def _override(data: dict[str, Any], options: Mapping[str, object]) -> None:
    allowed = allowed_overrides(data)
    for name, value in options.items():
        if name not in allowed:
            raise RuleError(
                f"unknown rule option {name!r} for the Italian rules; allowed: "
                + ", ".join(allowed)
            )
        if "." in name:
            section, key = name.split(".", 1)
            if not _is_int(value):
                raise RuleError(f"rule option {name!r} must be an integer, got {value!r}")
            data[section][key] = {**data[section][key], "value": value}
        else:
            data["options"][name] = value


def rules_from_mapping(
    data: Mapping[str, Any], options: Mapping[str, object] | None = None
) -> ItalianRules:
    """Check a parsed preset and apply ``options`` (names as in :func:`allowed_overrides`)."""
    if data.get("model") != "italian":
        raise RuleError(f"not an Italian preset: model is {data.get('model')!r}")
    work: dict[str, Any] = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in data.items()}
    for section in ("options", *SECTIONS):
        if not isinstance(work.get(section), dict):
            raise RuleError(f"the Italian preset needs a [{section}] table")
    _override(work, options or {})
    opts = work["options"]
    settings: dict[str, Any] = {}  # int and bool options, checked below
    for name, smallest in _INT_OPTIONS.items():
        value = opts.get(name)
        if not _is_int(value) or value < smallest:
            raise RuleError(
                f"rule option {name!r} must be an integer of at least {smallest}, got {value!r}"
            )
        settings[name] = value
    for name in _BOOL_OPTIONS:
        value = opts.get(name)
        if not isinstance(value, bool):
            raise RuleError(f"rule option {name!r} must be true or false, got {value!r}")
        settings[name] = value
    if settings["rounds"] > 4:
        raise RuleError(
            f"rule option 'rounds' is at most 4 (one per wind), got {settings['rounds']}")
    unknown = set(opts) - set(_INT_OPTIONS) - set(_BOOL_OPTIONS)
    if unknown:
        raise RuleError(f"unknown settings in [options]: {', '.join(sorted(unknown))}")
    tables = {
        section: MappingProxyType(
            {key: _entry(section, key, raw) for key, raw in work[section].items()}
        )
        for section in SECTIONS
    }
    missing = [f"points.{k}" for k in _REQUIRED_POINTS if k not in tables["points"]]
    if missing:
        raise RuleError(f"the Italian preset lacks {', '.join(missing)}")
    return ItalianRules(
        name=str(work.get("name", "")),
        name_it=str(work.get("name_it", "")),
        description=str(work.get("description", "")),
        description_it=str(work.get("description_it", "")),
        points=tables["points"],
        closing_points=tables["closing_points"],
        doubles=tables["doubles"],
        closing_doubles=tables["closing_doubles"],
        special_hands=tables["special_hands"],
        set_values=MappingProxyType(_set_values(tables["points"])),
        **settings,
    )


def _set_values(points: Mapping[str, Entry]) -> dict[tuple[bool, bool, bool], int]:
    """Exposed pung of simples x the seed's factors for heads, kongs and concealment."""
    base = points["base"].value
    out: dict[tuple[bool, bool, bool], int] = {}
    for head in (False, True):
        for kong in (False, True):
            for concealed in (False, True):
                value = base
                if head:
                    value *= points["terminal_factor"].value
                if kong:
                    value *= points["kong_factor"].value
                if concealed:
                    value *= points["concealed_factor"].value
                out[head, kong, concealed] = value
    return out


_REQUIRED_POINTS = (
    "base", "terminal_factor", "kong_factor", "concealed_factor", "chow",
    "pair_dragon", "pair_seat_wind", "pair_round_wind", "bonus_tile",
)


def read_preset_file(name: str = "italian") -> dict[str, Any]:
    """The raw TOML of a bundled preset."""
    text = resources.files("scoring").joinpath("presets", f"{name}.toml").read_text("utf-8")
    return tomllib.loads(text)
