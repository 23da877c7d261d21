"""One player's Italian score: base points, doubles, the 12-double cap, the limit, rounding.

The winner's hand is read by the shared engine (:mod:`scoring.decompose`); every
reading and every place the winning tile may sit is scored, and the best for
the winner is kept, as the players themselves would count it. A loser's hand is
not complete, so it is read the classical way: the declared sets as laid out,
plus the pungs he can show among his concealed tiles, plus at most one scoring
pair, choosing the pair that scores most (see :func:`loser_view`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from scoring.decompose import (
    ORPHANS,
    Reading,
    concealed_counts,
    decompose,
    is_seven_pairs,
    orphans_duplicate,
    placements,
    split_suit,
)
from scoring.errors import IllegalHand, RuleError
from scoring.hand import Context, Hand, check_tiles, check_winning_hand, tile_counts
from scoring.italian.doubles import CLOSING, FUNDAMENTAL, Rule
from scoring.italian.points import CLOSING_POINTS, Line, base_lines, closing_lines
from scoring.italian.rules import Entry, ItalianRules
from scoring.italian.special import SPECIAL, WholeHand
from scoring.italian.view import Group, HandView
from scoring.settlement import round_down
from scoring.tiles import ALL_TILES, WINDS, Tile, format_tiles, wind_tile
from scoring.waits import waits


@dataclass(frozen=True, slots=True)
class PlayerScore:
    """What one player scored, line by line, and the score that goes to settlement.

    ``raw`` is points doubled ``doubles`` times (doubles already capped);
    ``score`` is ``raw`` capped at the limit and rounded down to the unit.
    """

    seat: str
    winner: bool
    points: int
    point_lines: tuple[Line, ...]
    doubles: int
    double_lines: tuple[Line, ...]
    doubles_uncapped: int
    raw: int
    limit: bool
    score: int
    special: Line | None = None
    groups: tuple[Group, ...] = ()
    given: bool = False  # the player gave a score, not a hand

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "seat": self.seat,
            "winner": self.winner,
            "given": "score" if self.given else "hand",
            "points": self.points,
            "doubles": self.doubles,
            "raw": self.raw,
            "limit": self.limit,
            "score": self.score,
        }
        if not self.given:
            out["point_lines"] = [line.to_dict() for line in self.point_lines]
            out["double_lines"] = [line.to_dict() for line in self.double_lines]
            out["doubles_uncapped"] = self.doubles_uncapped
            out["special_hand"] = self.special.to_dict() if self.special else None
            out["groups"] = [
                {"kind": g.kind, "tiles": g.code, "concealed": g.concealed}
                for g in self.groups
            ]
        return out


def check_rules(rules: ItalianRules) -> None:
    """Every entry of the sheet must be one the scorer knows, and vice versa for doubles."""
    known = {
        "doubles": set(FUNDAMENTAL),
        "closing_doubles": set(CLOSING),
        "closing_points": set(CLOSING_POINTS),
        "special_hands": set(SPECIAL),
    }
    for section, names in known.items():
        unknown = set(rules.section(section)) - names
        if unknown:
            raise RuleError(
                f"the Italian preset has unknown {section}: {', '.join(sorted(unknown))}; "
                f"the scorer knows: {', '.join(sorted(names))}"
            )


_Plan = tuple[tuple[Rule, Entry], ...]


@lru_cache(maxsize=64)
def _plans(rules: ItalianRules) -> tuple[_Plan, _Plan]:
    """The doubles worth anything under a sheet, with their functions: fundamental, closing."""
    fundamental = tuple((FUNDAMENTAL[k], e) for k, e in rules.doubles.items() if e.value)
    closing = tuple((CLOSING[k], e) for k, e in rules.closing_doubles.items() if e.value)
    return fundamental, closing


def _doubles(view: HandView, rules: ItalianRules) -> list[Line]:
    fundamental, closing = _plans(rules)
    if not view.pungs and not view.bonus:
        fundamental = ()  # every fundamental double needs a pung, a kong or a bonus tile
    lines: list[Line] = []
    for function, entry in fundamental + closing if view.winner else fundamental:
        times = function(view)
        if times:
            lines.append(Line(entry.key, entry.name, entry.name_it, entry.value * times))
    if view.winner and any(line.key == "one_suit" for line in lines):
        lines = [line for line in lines if line.key != "one_suit_with_honours"]
    return lines


def finish(
    seat: str,
    winner: bool,
    point_lines: Sequence[Line],
    double_lines: Sequence[Line],
    rules: ItalianRules,
    groups: tuple[Group, ...] = (),
) -> PlayerScore:
    """Apply the cap on doubles, the limit and the rounding (the seed's three rules)."""
    points = sum(line.value for line in point_lines)
    uncapped = sum(line.value for line in double_lines)
    doubles = min(uncapped, rules.max_doubles)
    raw = points << doubles
    limit = raw >= rules.limit
    score = round_down(min(raw, rules.limit), rules.unit)
    return PlayerScore(seat, winner, points, tuple(point_lines), doubles, tuple(double_lines),
                       uncapped, raw, limit, score, groups=groups)


def score_view(seat: str, view: HandView, rules: ItalianRules) -> PlayerScore:
    """Score one reading of one player's hand."""
    lines = base_lines(view, rules)
    if view.winner:
        lines += closing_lines(view, rules)
    return finish(seat, view.winner, lines, _doubles(view, rules), rules, view.groups)


def score_given(seat: str, score: int, rules: ItalianRules) -> PlayerScore:
    """A loser who gave his score as a number: capped at the limit, rounded down to the unit."""
    value = round_down(min(score, rules.limit), rules.unit)
    return PlayerScore(seat, False, score, (), 0, (), 0, score, False, value, given=True)


# --------------------------------------------------------------------------- losers

_WIND: dict[str, Tile] = {w: wind_tile(w) for w in WINDS}


def _group(kind: str, tile: Tile, concealed: bool) -> Group:
    return Group(kind, tile, concealed)  # type: ignore[arg-type]


def _declared(hand: Hand) -> list[Group]:
    return [_group(m.kind, m.first, not m.exposed) for m in hand.melds]


def _check_bonus(hand: Hand, rules: ItalianRules, who: str) -> None:
    if hand.bonus and not rules.bonus_tiles:
        raise IllegalHand(f"{who}: flowers and seasons are not in play with these rules "
                          f"(option bonus_tiles = false), got {format_tiles(hand.bonus)}")


def loser_views(hand: Hand, seat: str, round_wind: str) -> list[HandView]:
    """The ways to show a loser's hand: declared sets, concealed pungs, at most one pair.

    Every concealed triple is shown as a concealed pung (four undeclared copies
    are a pung and a loose tile: a kong scores only once declared). Which pair
    to show is left open: one view per candidate pair, and one with none.
    """
    groups = _declared(hand)
    counts = concealed_counts(hand.concealed)
    seat_tile, round_tile = _WIND[seat], _WIND[round_wind]
    pairs: list[Tile] = []
    for i, c in enumerate(counts):
        if c >= 3:
            groups.append(_group("pung", ALL_TILES[i], True))
        elif c == 2 and (i >= 31 or ALL_TILES[i] in (seat_tile, round_tile)):
            # Only a pair of dragons or of a scoring wind can score (or make a double).
            pairs.append(ALL_TILES[i])
    base = tuple(groups)
    return [HandView(base + extra, hand.bonus, seat_tile, round_tile)
            for extra in [(), *((_group("pair", t, True),) for t in pairs)]]


def score_loser(hand: Hand, seat: str, round_wind: str, rules: ItalianRules) -> PlayerScore:
    """A non-winning player's score: the best way to show his hand (see :func:`loser_views`)."""
    check_tiles(hand)
    _check_bonus(hand, rules, f"the {seat} player's hand")
    if len(hand.concealed) > hand.tiles_expected:
        raise IllegalHand(
            f"the {seat} player's hand has too many tiles: with {len(hand.melds)} declared "
            f"set(s) at most {hand.tiles_expected} concealed tiles, got {len(hand.concealed)}")
    return _best(score_view(seat, v, rules) for v in loser_views(hand, seat, round_wind))


def _rank(s: PlayerScore) -> tuple[int, int, int]:
    """Best for the player: highest score, then before the limit and rounding, then points."""
    return (s.score, s.raw, s.points)


def _best(scores: Iterable[PlayerScore]) -> PlayerScore:
    return max(scores, key=_rank)


# --------------------------------------------------------------------------- the winner


def _convert(reading: Reading) -> tuple[Group, ...]:
    return tuple(_group(g.kind, ALL_TILES[g.tile], g.concealed) for g in reading.groups)


def _near(i: int) -> tuple[int, ...]:
    if i >= 27:
        return (i,)
    base = i - i % 9
    return tuple(range(max(base, i - 2), min(base + 9, i + 3)))


_NEAR: tuple[tuple[int, ...], ...] = tuple(_near(i) for i in range(34))
"""Each tile with its suit neighbours within two: the tiles it can help complete."""


def _candidates(counts: Sequence[int]) -> list[int]:
    """Tiles that could complete a hand: those held and their suit neighbours within two.

    Thirteen orphans may wait on an orphan not held, so a hand of orphans only
    adds them all. Everything else a hand can wait on touches a held tile.
    """
    near: set[int] = set()
    only_orphans = True
    for i, c in enumerate(counts):
        if c:
            near.update(_NEAR[i])
            if only_orphans and i not in ORPHANS:
                only_orphans = False
    if only_orphans:
        near.update(ORPHANS)
    return sorted(near)


_SUITS = ((0, 9), (9, 18), (18, 27), (27, 34))


def single_wait(counts: Sequence[int], melds: int, used: Sequence[int]) -> bool:
    """Whether exactly one tile completes the hand (``counts``: concealed, less the winner).

    The same answer as counting :func:`scoring.waits.waits_for_counts`, but it
    tries only the tiles that can matter, re-splits only the suit a candidate
    falls in (the other suits do not change), and stops at the second wait.
    """
    segments = [tuple(counts[base:end]) for base, end in _SUITS]
    valid: list[bool] = []
    pairs: list[int] = []
    for (base, _), seg in zip(_SUITS, segments, strict=True):
        n = sum(seg)
        valid.append(n % 3 != 1 and (n == 0 or bool(split_suit(seg, base))))
        pairs.append(1 if n % 3 == 2 else 0)
    total_pairs = sum(pairs)
    trial = list(counts)
    found = 0
    for i in _candidates(counts):
        if used[i] >= 4:
            continue
        k = i // 9 if i < 27 else 3
        base = _SUITS[k][0]
        grown = list(segments[k])
        grown[i - base] += 1
        n = sum(grown)
        complete = (
            all(valid[j] for j in range(4) if j != k)
            and n % 3 != 1
            and total_pairs - pairs[k] + (n % 3 == 2) == 1
            and bool(split_suit(tuple(grown), base))
        )
        if not complete and melds == 0:
            trial[i] += 1
            complete = is_seven_pairs(trial) or orphans_duplicate(trial) is not None
            trial[i] -= 1
        if complete:
            found += 1
            if found > 1:
                return False
    return found == 1


def winner_views(hand: Hand, ctx: Context, win: Tile) -> list[HandView]:
    """Every standard reading of the winner's hand with every place of the winning tile.

    On a discard (or a robbed kong) a pung completed by the winning tile counts
    as exposed, as it was claimed; the hand still counts as concealed.
    """
    claimed = any(m.exposed for m in hand.melds)
    counts = concealed_counts(hand.concealed)
    counts[win.index] -= 1
    single = single_wait(counts, len(hand.melds), tile_counts(hand))
    views: list[HandView] = []
    for reading in decompose(hand):
        if reading.form != "standard":
            continue
        groups = _convert(reading)
        for place in placements(reading, win) or (None,):
            placed = groups
            if place is not None and not ctx.self_drawn and groups[place].is_pung:
                claimed_set = Group(groups[place].kind, groups[place].tile, False)
                placed = (*groups[:place], claimed_set, *groups[place + 1:])
            views.append(HandView(
                placed, hand.bonus, _WIND[ctx.seat_wind], _WIND[ctx.round_wind],
                winner=True, self_drawn=ctx.self_drawn, claimed=claimed,
                winning_group=place, single_wait=single, last_tile=ctx.last_tile,
                kong_replacement=ctx.kong_replacement, robbing_kong=ctx.robbing_kong,
            ))
    return views


def _special_scores(hand: Hand, ctx: Context, views: list[HandView],
                    rules: ItalianRules) -> list[PlayerScore]:
    whole = WholeHand(tuple(tile_counts(hand)), bool(hand.melds),
                      any(m.exposed for m in hand.melds), tuple(views))
    out: list[PlayerScore] = []
    for key, entry in rules.special_hands.items():
        if entry.all_drawn_but_last and whole.claimed:
            continue
        if SPECIAL[key](whole):
            line = Line(key, entry.name, entry.name_it, entry.value)
            score = round_down(min(entry.value, rules.limit), rules.unit)
            out.append(PlayerScore(ctx.seat_wind, True, entry.value, (), 0, (), 0,
                                   entry.value, True, score, special=line,
                                   groups=views[0].groups if views else ()))
    return out


def score_winner_with(hand: Hand, ctx: Context, win: Tile, rules: ItalianRules) -> PlayerScore:
    """The winner's best score with ``win`` as the winning tile."""
    views = winner_views(hand, ctx, win)
    candidates = [score_view(ctx.seat_wind, v, rules) for v in views]
    candidates += _special_scores(hand, ctx, views, rules)
    if not candidates:
        raise IllegalHand(
            "not a winning hand under the Italian rules: the tiles form neither four sets "
            "and a pair nor one of the special hands (seven pairs count only as "
            "'seven pairs of terminals and honours' or 'of one suit')")
    return _best(candidates)


def score_winner(hand: Hand, ctx: Context, rules: ItalianRules) -> tuple[PlayerScore, Tile, bool]:
    """The winner's score, the winning tile and whether it was assumed.

    Without a winning tile, each distinct concealed tile is tried and the best
    kept (the contract shared with the Hong Kong model).
    """
    check_winning_hand(hand)
    _check_bonus(hand, rules, "the winner's hand")
    if len(hand.concealed) == hand.tiles_expected - 1:
        short = waits(hand)
        raise IllegalHand(
            "the hand is one tile short of mahjong"
            + (f": it waits on {' '.join(t.code for t in short)}" if short else
               " and no tile completes it"),
            waits=[t.code for t in short])
    if hand.winning_tile is not None:
        if not hand.winning_tile.is_playing:
            raise IllegalHand("under the Italian rules the winning tile is a playing tile, "
                              f"not {hand.winning_tile.code}")
        return score_winner_with(hand, ctx, hand.winning_tile, rules), hand.winning_tile, False
    best: tuple[PlayerScore, Tile] | None = None
    error: IllegalHand | None = None
    for tile in sorted(set(hand.concealed)):
        try:
            result = score_winner_with(hand, ctx, tile, rules)
        except IllegalHand as exc:
            error = exc
            continue
        if best is None or _rank(result) > _rank(best[0]):
            best = (result, tile)
    if best is None:
        assert error is not None
        raise error
    return best[0], best[1], True
