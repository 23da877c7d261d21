"""The game record: dealer rotation, round wind, running totals, save and resume."""

from __future__ import annotations

import json

import pytest
from test_italian_support import rules

from scoring.game import Game, GameError, GameSettings
from scoring.score import score_request

NAMES = ("Anna", "Bruno", "Carla", "Dario")
NOTHING = [0, 0, 0, 0]


def new(**settings: object) -> Game:
    return Game.new(NAMES, GameSettings(**settings))  # type: ignore[arg-type]


def test_a_new_game_starts_in_the_east_round_with_player_0_east() -> None:
    game = new()
    pos = game.position
    assert (pos.east, pos.round_wind, pos.finished) == (0, "east", False)
    assert game.seats() == {"east": "Anna", "south": "Bruno", "west": "Carla", "north": "Dario"}
    assert game.totals == (2000, 2000, 2000, 2000)


def test_east_passes_to_south_after_a_hand_east_did_not_win() -> None:
    game = new().record([10, 40, 0, 0], winner=1, discarder=0)
    assert game.position.east == 1
    assert game.seats()["east"] == "Bruno"
    assert game.seats()["north"] == "Anna"


def test_east_keeps_the_seat_after_winning() -> None:
    game = new().record([40, 0, 10, 0], winner=0, discarder=2)
    assert game.position.east == 0
    assert game.position.passes == 0


def test_tournament_rule_east_always_passes() -> None:
    game = new(east_keeps_seat_after_win=False).record([40, 0, 10, 0], winner=0)
    assert game.position.east == 1


def test_a_drawn_hand_keeps_east_by_default_and_settles_nothing() -> None:
    game = new().record(NOTHING, winner=None)
    assert game.position.east == 0
    assert game.totals == (2000, 2000, 2000, 2000)
    assert new(east_keeps_seat_after_draw=False).record(NOTHING, winner=None).position.east == 1


def test_round_wind_advances_after_the_seat_goes_round_the_table() -> None:
    game = new()
    for _ in range(4):
        assert game.position.round_wind == "east"
        game = game.record([0, 0, 0, 0], winner=(game.position.east + 1) % 4)
    assert game.position.round_wind == "south"
    assert game.position.east == 0


def test_a_game_is_four_rounds_of_four_hands() -> None:
    game = new()
    played = 0
    while not game.position.finished:
        game = game.record([0, 0, 0, 0], winner=(game.position.east + 1) % 4)
        played += 1
    assert played == 16
    with pytest.raises(GameError, match="game is over"):
        game.record(NOTHING, winner=0)


def test_shorter_game_from_the_rules() -> None:
    settings = GameSettings.from_rules(rules(rounds=1))
    game = Game.new(NAMES, settings)
    for _ in range(4):
        game = game.record(NOTHING, winner=(game.position.east + 1) % 4)
    assert game.position.finished


def test_totals_follow_each_settlement_and_sum_to_the_stakes() -> None:
    game = new().record([20, 48, 256, 4], winner=1, discarder=2)
    first = game.hands[0].settlement
    assert first.net == (-536, 192, 676, -332)
    game = game.record([30, 0, 100, 10], winner=2, discarder=3)  # East is now player 1
    assert game.hands[1].east == 1
    assert game.running_totals[1] == tuple(2000 + n for n in first.net)
    assert sum(game.totals) == 8000


def test_save_and_resume() -> None:
    game = new().record([20, 48, 256, 4], winner=1, discarder=2).record(NOTHING, winner=None)
    text = game.dumps()
    data = json.loads(text)
    assert data["format"] == "mjlens-italian-game"
    assert data["next"] == {"east": 1, "round_wind": "east", "finished": False}
    resumed = Game.loads(text)
    assert resumed == game
    assert resumed.totals == game.totals
    assert resumed.position == game.position


def test_a_record_that_contradicts_the_rotation_is_refused() -> None:
    data = new().record([20, 48, 0, 0], winner=1).to_json()
    data["hands"][0]["east"] = 2
    with pytest.raises(GameError, match=r"hands\[0\] says East was player 2"):
        Game.from_json(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a saved game"),
        ({"version": 9}, "unsupported game version"),
        ({"players": ["a", "b", "c"]}, "four player names"),
        ({"players": ["a", "a", "b", "c"]}, "must differ"),
        ({"settings": {"start_points": "2000"}}, "start_points"),
        ({"settings": {"speed": 1}}, "unknown game setting"),
        ({"hands": [{"scores": [1, 2, 3], "winner": 0}]}, r"hands\[0\]: .*four players"),
        ({"hands": [{"scores": [0, 0, 0, 0], "winner": 7}]}, "winner"),
        ({"hands": "x"}, "must be a list"),
    ],
)
def test_bad_saved_games_are_named(change: dict[str, object], message: str) -> None:
    data = {**new().to_json(), **change}
    with pytest.raises(GameError, match=message):
        Game.from_json(data)


def test_not_json() -> None:
    with pytest.raises(GameError, match="not valid JSON"):
        Game.loads("{oops")


def test_bad_hands_are_named() -> None:
    with pytest.raises(GameError, match="winner cannot have discarded"):
        new().record([0, 10, 0, 0], winner=1, discarder=1)
    with pytest.raises(GameError, match="drawn hand has no discarder"):
        new().record(NOTHING, winner=None, discarder=1)
    with pytest.raises(GameError, match="whole numbers"):
        new().record([0, -1, 0, 0], winner=0)


def test_record_a_scored_request() -> None:
    # Hand 2 of the game: Bruno (player 1) sits East; Carla (South) wins on Anna's discard.
    game = new().record([0, 40, 0, 0], winner=1)
    assert game.seats()["south"] == "Carla"
    response = score_request({
        "rules": "italian", "options": {"unit": 1},
        "hand": {"concealed": "123m456m789p22s", "winning_tile": "9p",
                 "melds": [{"kind": "pung", "tiles": "777z", "exposed": True}]},
        "context": {"seat_wind": "south", "round_wind": game.position.round_wind,
                    "discarder": "north"},
        "players": {"east": 20, "west": 256, "north": 4},
    })
    game = game.record_scored(response)
    last = game.hands[-1]
    assert last.winner == 2 and last.east == 1
    assert last.scores == (4, 20, 48, 256)  # by player: Anna (North), Bruno (East), ...
    assert last.settlement.matrix[1][2] == 96  # East (Bruno) pays the winner double


def test_record_scored_needs_every_player() -> None:
    response = score_request({
        "rules": "italian",
        "hand": {"concealed": "123m456m789p234s55p", "winning_tile": "4s"},
        "context": {"seat_wind": "south", "discarder": "east"},
    })
    with pytest.raises(GameError, match="every player"):
        new().record_scored(response)
