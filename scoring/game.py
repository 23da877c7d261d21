"""A game of Italian mahjong as a record: hands played, who sat East, the round wind, totals.

A game is four rounds ("giri"), one per wind starting with East. After each
hand the East seat passes to the player on East's right (who was South),
except that East keeps it after winning (the seed's rule; the tournament rule
passes it always) and, by the classical custom, after a drawn hand. A round
ends when the seat has gone once round the table.

The record keeps only facts (players, settings, and per hand: East, round
wind, winner, discarder, the four scores), so it saves to a small JSON file
and resumes from it; seats, nets and totals are recomputed by replaying it,
and a file whose hands contradict the rotation is refused.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from scoring.errors import ScoringError
from scoring.italian.rules import ItalianRules
from scoring.settlement import Settlement, running_totals, settle
from scoring.tiles import WINDS

FORMAT = "mjlens-italian-game"
VERSION = 1
PLAYERS = 4


class GameError(ScoringError):
    """A game record or a recorded hand that cannot be right (code ``bad_game``)."""

    code = "bad_game"


@dataclass(frozen=True, slots=True)
class GameSettings:
    """The settings of the Italian sheet that shape a whole game."""

    start_points: int = 2000
    east_multiplier: int = 2
    east_keeps_seat_after_win: bool = True
    east_keeps_seat_after_draw: bool = True
    losers_settle: bool = True
    rounds: int = 4

    @classmethod
    def from_rules(cls, rules: ItalianRules) -> GameSettings:
        return cls(rules.start_points, rules.east_multiplier, rules.east_keeps_seat_after_win,
                   rules.east_keeps_seat_after_draw, rules.losers_settle, rules.rounds)


@dataclass(frozen=True, slots=True)
class Position:
    """Where the game stands before the next hand."""

    east: int
    """The player (0-3) who sits East."""
    round_index: int
    """0 for the East round ... 3 for the North round; ``rounds`` once the game is over."""
    passes: int
    """How many times the East seat has passed so far."""
    finished: bool

    @property
    def round_wind(self) -> str:
        return WINDS[min(self.round_index, 3)]

    def seat_of(self, player: int) -> str:
        """The seat wind of ``player`` (0-3) in this hand."""
        return WINDS[(player - self.east) % PLAYERS]

    def player_at(self, seat: str) -> int:
        return (self.east + WINDS.index(seat)) % PLAYERS


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand as played: scores are the players' final scores, by player (not by seat)."""

    east: int
    round_wind: str
    winner: int | None
    discarder: int | None
    scores: tuple[int, ...]
    settlement: Settlement = field(compare=False)

    def to_json(self) -> dict[str, Any]:
        return {"round_wind": self.round_wind, "east": self.east, "winner": self.winner,
                "discarder": self.discarder, "scores": list(self.scores),
                "net": list(self.settlement.net)}


def _player(value: Any, what: str, *, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < PLAYERS:
        raise GameError(f"{what} must be a player number 0-3, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Game:
    """An Italian game in progress; every method returns a new record.

    ``players`` are names in seating order: player 0 is East in the first hand,
    player 1 South (East's right), then West and North.
    """

    players: tuple[str, ...]
    settings: GameSettings = GameSettings()
    hands: tuple[HandRecord, ...] = ()

    @classmethod
    def new(cls, players: Sequence[str], settings: GameSettings | None = None) -> Game:
        names = tuple(players)
        if len(names) != PLAYERS or not all(isinstance(n, str) and n.strip() for n in names):
            raise GameError(f"a game needs four player names, got {list(names)!r}")
        if len(set(names)) != PLAYERS:
            raise GameError(f"player names must differ, got {list(names)!r}")
        return cls(names, settings or GameSettings())

    # ------------------------------------------------------------------ state

    @property
    def position(self) -> Position:
        """Replay the rotation: who is East now, which round, whether the game is over."""
        east, passes = 0, 0
        for hand in self.hands:
            east, passes = self._after(hand, east, passes)
        round_index = passes // PLAYERS
        return Position(east, round_index, passes, round_index >= self.settings.rounds)

    def _after(self, hand: HandRecord, east: int, passes: int) -> tuple[int, int]:
        keep = (
            (hand.winner == east and self.settings.east_keeps_seat_after_win)
            or (hand.winner is None and self.settings.east_keeps_seat_after_draw)
        )
        return (east, passes) if keep else ((east + 1) % PLAYERS, passes + 1)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each player's points now (starting from the sheet's 2,000)."""
        return self.running_totals[-1]

    @property
    def running_totals(self) -> tuple[tuple[int, ...], ...]:
        """The totals before the first hand and after each hand."""
        return running_totals([h.settlement for h in self.hands],
                              start=self.settings.start_points)

    # ------------------------------------------------------------------ recording

    def record(self, scores: Sequence[int], *, winner: int | None,
               discarder: int | None = None) -> Game:
        """Add a hand: the four players' final scores by player, the winner (``None``: drawn)."""
        pos = self.position
        if pos.finished:
            raise GameError(f"the game is over: {self.settings.rounds} round(s) have been played")
        win = _player(winner, "winner", optional=True)
        disc = _player(discarder, "discarder", optional=True)
        if disc is not None and disc == win:
            raise GameError("the winner cannot have discarded the winning tile")
        if win is None and disc is not None:
            raise GameError("a drawn hand has no discarder")
        if len(scores) != PLAYERS:
            raise GameError(f"a hand needs the four players' scores, got {len(scores)}")
        for s in scores:
            if isinstance(s, bool) or not isinstance(s, int) or s < 0:
                raise GameError(f"scores must be whole numbers >= 0, got {s!r}")
        settlement = settle(scores, winner=win, east=pos.east,
                            east_multiplier=self.settings.east_multiplier,
                            losers_settle=self.settings.losers_settle)
        hand = HandRecord(pos.east, pos.round_wind, win, disc, tuple(scores), settlement)
        return replace(self, hands=(*self.hands, hand))

    def record_scored(self, response: Mapping[str, Any]) -> Game:
        """Add a hand from the answer of ``score_request`` (rules ``italian``, all players given).

        The answer names seats; the game knows who sits where. The round wind
        and the seat of the winner must match the game's position.
        """
        if not response.get("valid"):
            raise GameError("cannot record a hand that was not a valid win")
        if not response.get("settlement", {}).get("losers_settled"):
            raise GameError("record a hand only when every player's hand or score was given "
                            "(\"players\" in the request)")
        pos = self.position
        by_seat = response["players"]
        scores = [int(by_seat[pos.seat_of(p)]["score"]) for p in range(PLAYERS)]
        winner = pos.player_at(response["winner"])
        return self.record(scores, winner=winner)

    def seats(self) -> dict[str, str]:
        """Who sits where in the next hand: {seat wind: player name}."""
        pos = self.position
        return {pos.seat_of(p): name for p, name in enumerate(self.players)}

    # ------------------------------------------------------------------ JSON

    def to_json(self) -> dict[str, Any]:
        pos = self.position
        return {
            "format": FORMAT,
            "version": VERSION,
            "players": list(self.players),
            "settings": {
                "start_points": self.settings.start_points,
                "east_multiplier": self.settings.east_multiplier,
                "east_keeps_seat_after_win": self.settings.east_keeps_seat_after_win,
                "east_keeps_seat_after_draw": self.settings.east_keeps_seat_after_draw,
                "losers_settle": self.settings.losers_settle,
                "rounds": self.settings.rounds,
            },
            "hands": [h.to_json() for h in self.hands],
            "next": {"east": pos.east, "round_wind": pos.round_wind,
                     "finished": pos.finished},
            "totals": list(self.totals),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=2)

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """Resume a saved game; the hands are replayed and checked against the rotation."""
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise GameError(f"not a saved game: expected an object with \"format\": {FORMAT!r}")
        if data.get("version") != VERSION:
            raise GameError(f"unsupported game version {data.get('version')!r}; "
                            f"this program reads version {VERSION}")
        raw = data.get("settings", {})
        if not isinstance(raw, Mapping):
            raise GameError("\"settings\" must be an object")
        defaults = GameSettings()
        known = {f: getattr(defaults, f) for f in GameSettings.__dataclass_fields__}
        unknown = set(raw) - set(known)
        if unknown:
            raise GameError(f"unknown game setting(s) {', '.join(sorted(unknown))}; "
                            f"allowed: {', '.join(known)}")
        values: dict[str, Any] = {}
        for name, default in known.items():
            value = raw.get(name, default)
            if type(value) is not type(default):
                raise GameError(f"setting {name!r} must be {type(default).__name__}, "
                                f"got {value!r}")
            values[name] = value
        players = data.get("players")
        if not isinstance(players, list):
            raise GameError("\"players\" must be a list of four names")
        game = cls.new(players, GameSettings(**values))
        hands = data.get("hands", [])
        if not isinstance(hands, list):
            raise GameError("\"hands\" must be a list")
        for i, hand in enumerate(hands):
            if not isinstance(hand, Mapping):
                raise GameError(f"hands[{i}] must be an object")
            pos = game.position
            if hand.get("east", pos.east) != pos.east or (
                    hand.get("round_wind", pos.round_wind) != pos.round_wind):
                raise GameError(
                    f"hands[{i}] says East was player {hand.get('east')!r} in the "
                    f"{hand.get('round_wind')!r} round, but the rotation gives player "
                    f"{pos.east} in the {pos.round_wind} round")
            try:
                game = game.record(hand.get("scores", []), winner=hand.get("winner"),
                                   discarder=hand.get("discarder"))
            except GameError as exc:
                raise GameError(f"hands[{i}]: {exc.message}") from exc
        return game

    @classmethod
    def loads(cls, text: str) -> Game:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise GameError(f"the saved game is not valid JSON: {exc}") from exc
        return cls.from_json(data)
