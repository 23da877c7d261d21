"""Hong Kong fan scoring: rules are data (the preset files), patterns are code (here).

Each pattern is one small pure function from the facts of a reading to how
many times the pattern occurs (0 when absent). The preset says which patterns
exist and what each is worth, and which patterns replace others because their
definition contains them. The engine reads the hand every possible way, scores
each reading and keeps the best for the winner: limit first, then fan, then
payment. Speed matters (the API scores every photo), so the facts of a reading
are gathered in one pass over at most five groups, the per-hand facts (suits,
terminals, bonus tiles, win conditions) once per hand, and pattern results are
kept per reading shape and per hand-level key (a few hundred of each), never
per hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from itertools import compress
from operator import attrgetter
from typing import Any, NamedTuple

from scoring.decompose import Reading, decompose, placements
from scoring.errors import IllegalHand, RuleError
from scoring.hand import (
    Context,
    Hand,
    check_context,
    check_winning_hand,
    flower_win_possible,
)
from scoring.payments import Payments, base_amount, payment_table, plain, settle
from scoring.presets import PatternRule, Preset
from scoring.tiles import WINDS, Tile, format_tiles
from scoring.waits import waits

_SEAT_NUMBER = {w: i + 1 for i, w in enumerate(WINDS)}
_TERMINAL_OR_HONOUR = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))
_TERMINAL = frozenset((0, 8, 9, 17, 18, 26))
_NINE_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)
_INDICES = range(34)
WHITE, GREEN, RED = 31, 32, 33


class Facts:
    """What the patterns look at, gathered once per reading (hand-wide parts once per hand).

    A plain slotted class rather than a frozen dataclass: it is filled field by
    field in the hot loop and never escapes this module.
    """

    __slots__ = (
        "all_honours", "all_simples", "all_terminals", "bonus", "chows", "complete_bonus_sets",
        "concealed", "concealed_pungs", "ctx", "dragon_pair", "dragon_pungs",
        "flower_season_pairs", "form", "honours", "kongs", "nine_gates", "no_bonus",
        "own_flower", "own_season", "pair", "pair_258", "pungs", "round_pung", "round_tile",
        "seat_number", "seat_pung", "seat_tile", "suit", "suits", "tiles_mask", "wind_pair",
        "wind_pungs",
    )

    form: str
    ctx: Context
    concealed: bool
    suits: int
    suit: int
    honours: bool
    all_honours: bool
    all_simples: bool
    all_terminals: bool
    nine_gates: bool
    tiles_mask: frozenset[int]
    bonus: int
    no_bonus: bool
    own_flower: bool
    own_season: bool
    flower_season_pairs: int
    complete_bonus_sets: int
    seat_number: int
    seat_tile: int
    round_tile: int
    chows: int
    pungs: int
    kongs: int
    concealed_pungs: int
    dragon_pungs: int
    dragon_pair: bool
    wind_pungs: int
    wind_pair: bool
    seat_pung: bool
    round_pung: bool
    pair: int
    pair_258: bool


def _std(f: Facts) -> bool:
    return f.form == "standard"


def _suit_dragon(suit: int, dragon: int) -> Callable[[Facts], int]:
    """All pungs of one suit plus the pung of its dragon (hk-b's three jade-like limits)."""
    allowed = frozenset((*range(suit * 9, suit * 9 + 9), dragon))

    def check(f: Facts) -> int:
        return int(_std(f) and f.pungs == 4 and f.tiles_mask <= allowed
                   and dragon in f.tiles_mask and f.pair != dragon)
    return check


PATTERNS: Mapping[str, Callable[[Facts], int]] = {
    # sets
    "dragon_pung": lambda f: f.dragon_pungs,
    "seat_wind_pung": lambda f: int(f.seat_pung),
    "round_wind_pung": lambda f: int(f.round_pung),
    # whole hand
    "all_chows": lambda f: int(_std(f) and f.chows == 4),
    "all_pungs": lambda f: int(_std(f) and f.pungs == 4),
    "seven_pairs": lambda f: int(f.form == "seven_pairs"),
    "half_flush": lambda f: int(f.suits == 1 and f.honours),
    "full_flush": lambda f: int(f.suits == 1 and not f.honours),
    "all_honours": lambda f: int(f.all_honours),
    "all_simples": lambda f: int(f.all_simples),
    "all_terminals": lambda f: int(f.all_terminals),
    "thirteen_orphans": lambda f: int(f.form == "thirteen_orphans"),
    "nine_gates": lambda f: int(f.nine_gates),
    "ruby_dragon": _suit_dragon(0, RED),
    "jade_dragon": _suit_dragon(2, GREEN),
    "pearl_dragon": _suit_dragon(1, WHITE),
    "all_pungs_half_flush": lambda f: int(_std(f) and f.pungs == 4 and f.suits == 1
                                          and f.honours),
    "all_pungs_full_flush": lambda f: int(_std(f) and f.pungs == 4 and f.suits == 1
                                          and not f.honours),
    "big_three_dragons": lambda f: int(f.dragon_pungs == 3),
    "small_three_dragons": lambda f: int(f.dragon_pungs == 2 and f.dragon_pair),
    "big_four_winds": lambda f: int(f.wind_pungs == 4),
    "small_four_winds": lambda f: int(f.wind_pungs == 3 and f.wind_pair),
    "four_kongs": lambda f: int(f.kongs == 4),
    "four_concealed_pungs": lambda f: int(f.concealed_pungs == 4),
    "pair_258": lambda f: int(f.pair_258),
    # how the hand was won
    "concealed_hand": lambda f: int(f.concealed),
    "concealed_self_drawn": lambda f: int(f.concealed and f.ctx.self_drawn),
    "self_drawn": lambda f: int(f.ctx.self_drawn),
    "kong_replacement": lambda f: int(f.ctx.kong_replacement),
    "robbing_kong": lambda f: int(f.ctx.robbing_kong),
    "last_tile": lambda f: int(f.ctx.last_tile),
    "heavenly": lambda f: int(f.ctx.heavenly),
    "earthly": lambda f: int(f.ctx.earthly),
    # bonus tiles
    "no_bonus": lambda f: int(f.no_bonus),
    "own_flower": lambda f: int(f.own_flower),
    "own_season": lambda f: int(f.own_season),
    "bouquet": lambda f: f.complete_bonus_sets,
    "flower_season_pair": lambda f: f.flower_season_pairs,
    "seven_bonus": lambda f: int(f.form == "flowers" and f.bonus == 7),
    "eight_bonus": lambda f: int(f.form == "flowers" and f.bonus == 8),
}
"""Every pattern a fan preset may use, by the id the preset files name it with."""

FLOWER_WIN_PATTERNS = frozenset(("seven_bonus", "eight_bonus"))


def check_patterns(patterns: Iterable[PatternRule], where: str) -> None:
    """Refuse preset files that name patterns this engine does not know."""
    for p in patterns:
        if p.id not in PATTERNS:
            raise RuleError(f"{where}: unknown pattern {p.id!r}; known: {', '.join(PATTERNS)}",
                            code="bad_preset")
        bad = [r for r in p.replaces if r not in PATTERNS]
        if bad:
            raise RuleError(f"{where}: pattern {p.id!r} replaces unknown {', '.join(bad)}",
                            code="bad_preset")


# --------------------------------------------------------------------------- facts


def _hand_facts(hand: Hand, ctx: Context, counts: list[int]) -> Facts:
    """The parts of the facts that do not depend on the reading."""
    f = Facts()
    f.ctx = ctx
    f.concealed = not any(m.exposed for m in hand.melds)
    present = frozenset(compress(_INDICES, counts))
    f.tiles_mask = present
    suits = 0
    f.suit = -1
    if any(counts[0:9]):
        suits = 1
        f.suit = 0
    if any(counts[9:18]):
        suits += 1
        f.suit = 1
    if any(counts[18:27]):
        suits += 1
        f.suit = 2
    f.suits = suits
    f.honours = any(counts[27:34])
    f.all_honours = suits == 0
    f.all_simples = present.isdisjoint(_TERMINAL_OR_HONOUR)
    f.all_terminals = present <= _TERMINAL
    f.nine_gates = False
    if suits == 1 and not f.honours and not hand.melds:
        base = f.suit * 9
        f.nine_gates = all(counts[base + i] >= n for i, n in enumerate(_NINE_GATES))
    bonus = hand.bonus
    f.bonus = len(bonus)
    f.seat_number = _SEAT_NUMBER[ctx.seat_wind]
    if bonus:
        flowers = {t.rank for t in bonus if t.index < 38}
        seasons = {t.rank for t in bonus if t.index >= 38}
        f.no_bonus = False
        f.own_flower = f.seat_number in flowers
        f.own_season = f.seat_number in seasons
        f.flower_season_pairs = len(flowers & seasons)
        f.complete_bonus_sets = (len(flowers) == 4) + (len(seasons) == 4)
    else:
        f.no_bonus = True
        f.own_flower = f.own_season = False
        f.flower_season_pairs = f.complete_bonus_sets = 0
    f.seat_tile = 26 + f.seat_number
    f.round_tile = 26 + _SEAT_NUMBER[ctx.round_wind]
    return f


def _reading_facts(f: Facts, reading: Reading, win: Tile | None) -> None:
    """Fill in the reading-dependent facts (sets, pair, winds and dragons)."""
    f.form = reading.form
    chows = pungs = kongs = concealed_pungs = dragons = winds = 0
    pair = -1
    seat = f.seat_tile
    rnd = f.round_tile
    f.seat_pung = f.round_pung = False
    for g in reading.groups:
        kind = g.kind
        t = g.tile
        if kind == "chow":
            chows += 1
            continue
        if kind == "pair":
            pair = t
            continue
        if kind == "orphans":
            continue
        pungs += 1
        if kind == "kong":
            kongs += 1
        if g.concealed:
            concealed_pungs += 1
        if t >= 31:
            dragons += 1
        elif t >= 27:
            winds += 1
            if t == seat:
                f.seat_pung = True
            if t == rnd:
                f.round_pung = True
    if reading.form != "standard":
        pair = -1
    elif win is not None and not f.ctx.self_drawn and concealed_pungs:
        # A pung completed by a discard is exposed, unless the winning tile can sit
        # in a chow or the pair instead (the reading most favourable to the winner).
        spots = placements(reading, win)
        if spots and all(reading.groups[i].kind in ("pung", "kong") for i in spots):
            concealed_pungs -= 1
    f.chows = chows
    f.pungs = pungs
    f.kongs = kongs
    f.concealed_pungs = concealed_pungs
    f.dragon_pungs = dragons
    f.wind_pungs = winds
    f.pair = pair
    f.dragon_pair = pair >= 31
    f.wind_pair = 27 <= pair < 31
    f.pair_258 = 0 <= pair < 27 and pair % 9 in (1, 4, 7)


# --------------------------------------------------------------------------- scoring


class FoundPattern(NamedTuple):
    """A pattern found in the scored reading: how often, and the fan it adds in total."""

    rule: PatternRule
    times: int
    fan: int

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.rule.id, "name": self.rule.name,
                               "name_it": self.rule.name_it, "fan": self.fan,
                               "count": self.times}
        if self.rule.limit:
            out["limit"] = True
        return out


class HKScore(NamedTuple):
    """The best reading of a hand under a fan preset, with its payments."""

    reading: Reading
    patterns: tuple[FoundPattern, ...]
    fan: int
    """Total fan, capped at the limit (a limit hand counts as ``limit_fan``)."""
    fan_uncapped: int
    limit: bool
    min_fan_counted: int
    """Fan that count toward the minimum (bonus tiles may not)."""
    payments: Payments
    winning_tile: Tile | None
    readings: int = 1
    """How many readings of the hand were scored to pick this one."""


_Check = tuple[PatternRule, Callable[[Facts], int]]


_Found = list[tuple[PatternRule, int]]


def _run(f: Facts, checks: tuple[_Check, ...]) -> tuple[_Found, set[str]]:
    """Patterns present (with their counts) and the ids they replace."""
    found: _Found = []
    replaced: set[str] = set()
    for rule, check in checks:
        n = check(f)
        if n:
            found.append((rule, n))
            if rule.replaces:
                replaced.update(rule.replaces)
    return found, replaced


def _total(found: _Found, replaced: set[str], limit_fan: int, bonus_ids: frozenset[str]
           ) -> tuple[tuple[tuple[PatternRule, int], ...], int, int, bool, int]:
    """Apply replacement and limits: (found, fan, uncapped, limit, bonus fan)."""
    if replaced:
        found = [(r, n) for r, n in found if r.id not in replaced]
    total = 0
    bonus = 0
    limited = False
    for r, n in found:
        if r.limit:
            limited = True
        total += r.fan * n
        if r.id in bonus_ids:
            bonus += r.fan * n
    if limited:
        return tuple((r, n) for r, n in found if r.limit), limit_fan, limit_fan, True, 0
    return tuple(found), min(total, limit_fan), total, total >= limit_fan, bonus


HAND_LEVEL = frozenset((
    "half_flush", "full_flush", "all_honours", "all_simples", "all_terminals", "nine_gates",
    "concealed_hand", "concealed_self_drawn", "self_drawn", "kong_replacement", "robbing_kong",
    "last_tile", "heavenly", "earthly", "no_bonus", "own_flower", "own_season", "bouquet",
    "flower_season_pair"))
"""Patterns that depend on the tiles and the win, not on how the tiles are grouped:
checked once per hand, however many readings it has."""


HAND_KEY_FIELDS: tuple[str, ...] = (
    "suits", "honours", "all_honours", "all_simples", "all_terminals", "nine_gates", "concealed",
    "ctx.self_drawn", "ctx.kong_replacement", "ctx.robbing_kong", "ctx.last_tile",
    "ctx.heavenly", "ctx.earthly", "no_bonus", "own_flower", "own_season",
    "flower_season_pairs", "complete_bonus_sets")
"""The facts hand-level pattern results are kept by; a test checks that the hand-level
patterns read nothing else, so equal keys always score alike."""

SHAPE_KEY_FIELDS: tuple[str, ...] = (
    "form", "chows", "pungs", "kongs", "concealed_pungs", "dragon_pungs", "wind_pungs",
    "dragon_pair", "wind_pair", "pair_258", "seat_pung", "round_pung", "suits", "honours")
"""The facts reading-pattern results are kept by (the reading's shape, plus the hand's suit
count and honours that the "all pungs and one suit" patterns combine with it)."""

_HAND_KEY = attrgetter(*HAND_KEY_FIELDS)
_SHAPE_KEY = attrgetter(*SHAPE_KEY_FIELDS)

MASK_LEVEL = frozenset(("ruby_dragon", "jade_dragon", "pearl_dragon"))
"""Reading patterns that also look at which tiles the hand holds."""


class _Scorer:
    """Scores readings of one hand under one preset; keeps the per-preset lookups."""

    def __init__(self, preset: Preset) -> None:
        opts = preset.options
        self.preset = preset
        self.rules = preset.patterns
        checks = tuple((r, PATTERNS[r.id]) for r in self.rules)
        self.hand_checks = tuple(c for c in checks if c[0].id in HAND_LEVEL)
        reading_checks = tuple(c for c in checks if c[0].id not in HAND_LEVEL
                               and c[0].id not in FLOWER_WIN_PATTERNS)
        # Most reading patterns depend only on the reading's shape (how many chows,
        # pungs, dragon and wind pungs, the pair...): their results are kept per shape,
        # a few hundred shapes in all. The suit-and-dragon limits also look at the tiles.
        self.shape_checks = tuple(c for c in reading_checks if c[0].id not in MASK_LEVEL)
        self.mask_checks = tuple(c for c in reading_checks if c[0].id in MASK_LEVEL)
        self.shapes: dict[tuple[object, ...], tuple[_Found, set[str]]] = {}
        # Likewise the hand-level patterns, per hand-level key (see facts()).
        self.hands: dict[tuple[object, ...], tuple[_Found, set[str]]] = {}
        self.flower_checks = tuple(c for c in checks if c[0].id in FLOWER_WIN_PATTERNS)
        self.flower_ids = frozenset(c[0].id for c in self.flower_checks)
        self.bonus_ids = frozenset(r.id for r in self.rules if r.category == "bonus"
                                   and r.id not in FLOWER_WIN_PATTERNS)
        self.limit_fan = int(opts["limit_fan"])
        self.min_fan = int(opts["min_fan"])
        self.table = payment_table(opts["payment_table"])
        self.stake = float(opts["base_stake"])
        self.liability = bool(opts.get("liability", True))
        self.bonus_counts = bool(opts.get("bonus_counts_for_minimum", True))

    def flower_win(self, hand: Hand) -> bool:
        """Whether the bonus tiles win on their own under this preset (hk-b has no flower win)."""
        if not flower_win_possible(hand):
            return False
        return (("eight_bonus" if len(hand.bonus) == 8 else "seven_bonus")
                in self.flower_ids)

    def facts(self, hand: Hand, ctx: Context, counts: list[int]
              ) -> tuple[Facts, _Found, set[str]]:
        """Hand-wide facts (``counts``: the whole hand's) and the hand-level patterns found."""
        f = _hand_facts(hand, ctx, counts)
        key = _HAND_KEY(f)
        memo = self.hands.get(key)
        if memo is None:
            if len(self.hands) > 8192:
                self.hands.clear()
            memo = self.hands[key] = _run(f, self.hand_checks)
        return f, memo[0], memo[1]

    def evaluate(self, f: Facts, reading: Reading, win: Tile | None, hand_found: _Found,
                 hand_replaced: set[str]
                 ) -> tuple[tuple[tuple[PatternRule, int], ...], int, int, bool, int]:
        """Score one reading: its own patterns plus the hand-level ones."""
        if reading.form == "flowers":
            f.form = "flowers"
            found, replaced = _run(f, self.flower_checks)
        else:
            _reading_facts(f, reading, win)
            shape = _SHAPE_KEY(f)
            memo = self.shapes.get(shape)
            if memo is None:
                if len(self.shapes) > 8192:
                    self.shapes.clear()
                memo = self.shapes[shape] = _run(f, self.shape_checks)
            found, replaced = memo
            if self.mask_checks:
                more, more_replaced = _run(f, self.mask_checks)
                found = found + more
                replaced = replaced | more_replaced
            found = found + hand_found
            replaced = replaced | hand_replaced
        return _total(found, replaced, self.limit_fan, self.bonus_ids)

    def best(self, hand: Hand, ctx: Context, win: Tile | None, concealed: list[int],
             counts: list[int]) -> HKScore | None:
        readings = decompose(hand, concealed)
        if not readings:
            return None
        f, hand_found, hand_replaced = self.facts(hand, ctx, counts)
        best_key: tuple[bool, bool, int, int] | None = None
        best: tuple[Reading, tuple[tuple[PatternRule, int], ...], int, int, bool, int] | None = None
        for reading in readings:
            if reading.form == "flowers" and not self.flower_win(hand):
                continue
            found, fan, uncapped, limit, bonus = self.evaluate(f, reading, win, hand_found,
                                                               hand_replaced)
            counted = fan if self.bonus_counts or limit else fan - bonus
            key = (counted >= self.min_fan, limit, fan, uncapped)
            if best_key is None or key > best_key:
                best_key = key
                best = (reading, found, fan, uncapped, limit, counted)
        if best is None:
            return None
        reading, found, fan, uncapped, limit, counted = best
        self_drawn = ctx.self_drawn or (reading.form == "flowers" and len(hand.bonus) == 8)
        discarder = None if self_drawn else ctx.discarder
        liable, reason = (self._liable(hand, ctx, reading, win, self_drawn)
                          if self.liability else (None, None))
        payments = settle(base_amount(fan, limit, self.limit_fan, self.table, self.stake),
                          ctx.seat_wind, self_drawn, discarder, WINDS, liable, reason)
        # Reading patterns first, then those of the whole hand (each in preset order).
        patterns = tuple(FoundPattern(r, n, r.fan if r.limit else r.fan * n) for r, n in found)
        return HKScore(reading, patterns, fan, uncapped, limit, counted, payments, win,
                       len(readings))

    def _liable(self, hand: Hand, ctx: Context, reading: Reading,
                win: Tile | None, self_drawn: bool) -> tuple[str | None, str | None]:
        """The seed's "the discarder pays for all" rules (documented in the preset notes).

        * one suit only with three exposed sets of that suit, won on a discard: the
          discarder; won self-drawn after a fourth exposed set: whoever discarded it;
        * three exposed wind pungs (two dragon pungs): whoever discarded the tile
          that completed the fourth wind (third dragon) set, as the winning tile or
          as the claimed fourth (third) exposed set;
        * a never-seen tile discarded with 5 or fewer tiles left in the wall.
        """
        exposed = [m for m in hand.melds if m.exposed]
        if len(exposed) < 2 and not ctx.winning_tile_unseen:
            return None, None  # every rule needs two exposed sets or a never-seen tile
        discard = None if self_drawn else ctx.discarder
        if reading.form == "standard":
            suits = {t.suit for t in hand.concealed} | {m.first.suit for m in hand.melds}
            if len(suits) == 1 and next(iter(suits)).value in "mps":
                same = exposed  # every set is of the one suit
                if len(same) >= 3 and discard is not None:
                    return discard, ("one suit only with three exposed sets of it, "
                                     f"won on {discard}'s discard")
                giver = same[3].claimed_from if len(same) >= 4 else None
                if self_drawn and giver is not None:
                    who = giver
                    return who, ("one suit only with three exposed sets of it: "
                                 f"{who}'s discard gave the fourth set")
            for kind, lo, hi, need, what in (("wind", 27, 31, 4, "fourth wind"),
                                             ("dragon", 31, 34, 3, "third dragon")):
                sets = [g for g in reading.groups
                        if g.kind in ("pung", "kong") and lo <= g.tile < hi]
                if len(sets) != need:
                    continue
                shown = [m for m in exposed if m.is_pung_or_kong and lo <= m.first.index < hi]
                claimer = shown[need - 1].claimed_from if len(shown) == need else None
                if claimer is not None:
                    who = claimer
                    return who, (f"{need - 1} exposed {kind} pungs: {who} discarded the "
                                 f"{what}")
                if (len(shown) >= need - 1 and discard is not None and win is not None
                        and lo <= win.index < hi):
                    return discard, (f"{need - 1} exposed {kind} pungs: {discard} discarded "
                                     f"the {what}")
        if (discard is not None and ctx.winning_tile_unseen and ctx.wall_tiles_left is not None
                and ctx.wall_tiles_left <= 5):
            return discard, (f"{discard} discarded a tile never seen before with "
                             f"{ctx.wall_tiles_left} tiles left in the wall")
        return None, None


_SCORERS: dict[int, tuple[Preset, _Scorer]] = {}


def _scorer(preset: Preset) -> _Scorer:
    """One scorer per preset object (presets are cached, so this is per rule set)."""
    hit = _SCORERS.get(id(preset))
    if hit is not None and hit[0] is preset:
        return hit[1]
    if len(_SCORERS) > 512:
        _SCORERS.clear()
    scorer = _Scorer(preset)
    _SCORERS[id(preset)] = (preset, scorer)
    return scorer


def _candidates(hand: Hand) -> list[Tile]:
    """Winning tiles to try when the request does not say which tile won."""
    seen: list[Tile] = []
    for t in hand.concealed:
        if t not in seen:
            seen.append(t)
    return seen


class ReadingScore(NamedTuple):
    """The fan of one reading on its own (to explain, and to check, the engine's choice)."""

    reading: Reading
    fan: int
    limit: bool
    patterns: tuple[tuple[str, int], ...]


def reading_scores(hand: Hand, ctx: Context, preset: Preset) -> tuple[ReadingScore, ...]:
    """Every reading of a hand with a known winning tile, each scored alone."""
    concealed, counts = check_winning_hand(hand)
    scorer = _scorer(preset)
    readings = decompose(hand, concealed)
    f, hand_found, hand_replaced = scorer.facts(hand, ctx, counts)
    out: list[ReadingScore] = []
    for reading in readings:
        if reading.form == "flowers" and not scorer.flower_win(hand):
            continue
        found, fan, _, limit, _ = scorer.evaluate(f, reading, hand.winning_tile, hand_found,
                                                  hand_replaced)
        out.append(ReadingScore(reading, fan, limit, tuple((r.id, r.fan * n) for r, n in found)))
    return tuple(out)


def score_hk(hand: Hand, ctx: Context, preset: Preset) -> HKScore:
    """Score a winning hand; raises :class:`IllegalHand` when it cannot win.

    With no winning tile given, every distinct concealed tile is tried and the
    best result for the winner is kept (the caller reports the assumption).
    """
    concealed, counts = check_winning_hand(hand)
    scorer = _scorer(preset)
    if len(hand.concealed) == hand.tiles_expected - 1 and not scorer.flower_win(hand):
        w = waits(hand)
        if w:
            raise IllegalHand(
                f"the hand is one tile short of winning; it waits on {format_tiles(w)}",
                waits=[t.code for t in w])
        raise IllegalHand(f"the hand is one tile short and no tile completes it "
                          f"({len(hand.concealed)} concealed tiles with "
                          f"{len(hand.melds)} declared sets)")
    if hand.winning_tile is not None or len(hand.concealed) != hand.tiles_expected:
        # A known winning tile, or a flower win on a hand that is not complete
        # (the eighth bonus tile won; no concealed tile did).
        check_context(hand, ctx)
        result = scorer.best(hand, ctx, hand.winning_tile, concealed, counts)
    else:
        result = None
        first_error: IllegalHand | None = None
        for cand in _candidates(hand):
            trial = Hand(hand.concealed, hand.melds, hand.bonus, cand)
            try:
                check_context(trial, ctx)
            except IllegalHand as exc:
                first_error = first_error or exc
                continue
            got = scorer.best(trial, ctx, cand, concealed, counts)
            if got is not None and (result is None or _rank(got) > _rank(result)):
                result = got
        if result is None and first_error is not None and decompose(hand):
            raise first_error
    if result is None:
        raise _incomplete(hand)
    if result.min_fan_counted < scorer.min_fan:
        raise IllegalHand(
            f"the hand scores {result.min_fan_counted} fan toward the minimum; "
            f"{preset.name} needs at least {scorer.min_fan} to win")
    return result


def _rank(s: HKScore) -> tuple[bool, int, int, float]:
    return (s.limit, s.fan, s.fan_uncapped, s.payments.total)


def _incomplete(hand: Hand) -> IllegalHand:
    """Say why a full-size hand does not win, with the waits of the hand before the last tile."""
    win = hand.winning_tile
    msg = "the tiles do not form a winning hand (four sets and a pair, seven pairs or " \
          "thirteen orphans)"
    if win is not None and win in hand.concealed:
        rest = list(hand.concealed)
        rest.remove(win)
        before = Hand(tuple(rest), hand.melds, hand.bonus, None)
        w = waits(before)
        if w:
            return IllegalHand(f"{msg}; without the winning tile {win.code} the hand waits on "
                               f"{format_tiles(w)}", waits=[t.code for t in w])
    return IllegalHand(msg)


def score_to_json(result: HKScore, hand: Hand, ctx: Context, preset: Preset,
                  assumed: bool) -> dict[str, Any]:
    """The JSON response of a winning hand (see :func:`scoring.score.score_request`)."""
    decomposition = result.reading.to_json()
    if result.reading.form == "flowers":
        decomposition = [{"kind": "bonus", "tiles": format_tiles(hand.bonus),
                          "concealed": False, "declared": True}]
    pay = result.payments
    out: dict[str, Any] = {
        "valid": True,
        "rules": preset.name,
        "model": "hk",
        "fan": result.fan,
        "limit": result.limit,
        "patterns": [p.to_json() for p in result.patterns],
        "payments": {s: plain(v) for s, v in pay.by_seat.items()},
        "total": plain(pay.total),
        "winner": ctx.seat_wind,
        "self_drawn": ctx.self_drawn or (result.reading.form == "flowers"
                                         and len(hand.bonus) == 8),
        "form": result.reading.form,
        "decomposition": decomposition,
        "readings": result.readings,
        "winning_tile": result.winning_tile.code if result.winning_tile else None,
        "winning_tile_assumed": assumed,
        "bonus": [t.code for t in hand.bonus],
        "liable": pay.liable,
        "min_fan": int(preset.options["min_fan"]),
        "limit_fan": int(preset.options["limit_fan"]),
        "payment_table": preset.options["payment_table"],
    }
    if pay.liability_reason:
        out["liability_reason"] = pay.liability_reason
    if result.fan_uncapped != result.fan:
        out["fan_uncapped"] = result.fan_uncapped
    if preset.overrides:
        out["options"] = dict(preset.overrides)
    return out


__all__ = ["PATTERNS", "FoundPattern", "HKScore", "ReadingScore", "check_patterns",
           "reading_scores", "score_hk", "score_to_json"]
