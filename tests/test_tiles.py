"""The tile vocabulary: every code, every alias and bad input."""

from __future__ import annotations

import unicodedata

import pytest

from scoring.tiles import (
    ALIASES,
    ALL_TILES,
    BACK,
    BONUS_TILES,
    BY_CODE,
    PLAYING_TILES,
    TileParseError,
    format_tiles,
    glyphs,
    parse_tiles,
    tile,
    wind_tile,
)

CODES = (
    [f"{r}{s}" for s in "mps" for r in range(1, 10)]
    + [f"{r}z" for r in range(1, 8)]
    + [f"{r}f" for r in range(1, 5)]
    + [f"{r}g" for r in range(1, 5)]
    + ["back"]
)


def test_vocabulary_size_and_order() -> None:
    assert [t.code for t in ALL_TILES] == CODES
    assert len(PLAYING_TILES) == 34 and len(BONUS_TILES) == 8
    assert all(t.index == i for i, t in enumerate(ALL_TILES))


@pytest.mark.parametrize("code", CODES)
def test_every_code_round_trips(code: str) -> None:
    t = tile(code)
    assert t.code == code
    assert parse_tiles(code) == (t,)
    assert parse_tiles(code.upper()) == (t,)
    assert format_tiles([t]) == code
    assert t.name and t.name_it
    assert len(t.glyph) == 1 and 0x1F000 <= ord(t.glyph) <= 0x1F02B


NUMBERS = ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")
UNICODE_NAMES = (
    [f"{n} OF CHARACTERS" for n in NUMBERS]
    + [f"{n} OF CIRCLES" for n in NUMBERS]
    + [f"{n} OF BAMBOOS" for n in NUMBERS]
    + ["EAST WIND", "SOUTH WIND", "WEST WIND", "NORTH WIND",
       "WHITE DRAGON", "GREEN DRAGON", "RED DRAGON"]
    + ["PLUM", "ORCHID", "CHRYSANTHEMUM", "BAMBOO", "SPRING", "SUMMER", "AUTUMN", "WINTER"]
    + ["BACK"]
)


@pytest.mark.parametrize(("code", "uname"), zip(CODES, UNICODE_NAMES, strict=True))
def test_glyph_is_the_unicode_character_of_that_tile(code: str, uname: str) -> None:
    assert unicodedata.name(tile(code).glyph) == f"MAHJONG TILE {uname}"


@pytest.mark.parametrize(("alias", "code"), sorted(ALIASES.items()))
def test_every_alias(alias: str, code: str) -> None:
    assert tile(alias).code == code
    assert parse_tiles([alias]) == (BY_CODE[code],)
    assert parse_tiles(alias.upper()) == (BY_CODE[code],)


def test_named_aliases_required_by_the_product() -> None:
    expected = {
        "east": "1z", "south": "2z", "west": "3z", "north": "4z",
        "white": "5z", "green": "6z", "red": "7z",
        "plum": "1f", "orchid": "2f", "chrysanthemum": "3f", "bamboo": "4f",
        "spring": "1g", "summer": "2g", "autumn": "3g", "winter": "4g",
        "red dragon": "7z", "East-Wind": "1z", "back": "back",
    }
    for name, code in expected.items():
        assert tile(name).code == code


def test_compact_string() -> None:
    hand = parse_tiles("123m456p789s11z")
    assert [t.code for t in hand] == ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s",
                                      "1z", "1z"]


def test_mixed_tokens_lists_and_tiles() -> None:
    assert parse_tiles("123m east, red plum") == parse_tiles("123m17z1f")
    assert parse_tiles(["1m", "east", BY_CODE["5p"]]) == parse_tiles("1m1z5p")
    assert parse_tiles(BY_CODE["9s"]) == (BY_CODE["9s"],)
    assert parse_tiles("") == ()
    assert parse_tiles(["123m", "back", "back"]) == (*parse_tiles("123m"), BACK, BACK)


def test_red_five_is_a_five() -> None:
    assert parse_tiles("0m0p0s") == parse_tiles("5m5p5s")
    assert tile("0p").code == "5p"


def test_format_groups_runs() -> None:
    assert format_tiles(parse_tiles("123m 456p 789s 11z")) == "123m456p789s11z"
    assert format_tiles(parse_tiles("1m back back 1m")) == "1m back back 1m"
    assert glyphs(parse_tiles("1z7z")) == "\U0001f000\U0001f004"


@pytest.mark.parametrize(
    ("text", "bad"),
    [
        ("123m8z", "8z"),        # honours stop at 7
        ("5f", "5f"),            # four flowers
        ("0z", "0z"),            # no red honour
        ("123q", "123q"),        # unknown suit letter
        ("123m dragon", "dragon"),
        ("m123", "m123"),        # suit letter first
        ("123", "123"),          # no suit letter
        ("123m 45", "45"),
        ("12m!", "!"),
    ],
)
def test_bad_input_names_the_bad_token(text: str, bad: str) -> None:
    with pytest.raises(TileParseError) as err:
        parse_tiles(text)
    assert bad in str(err.value)
    assert err.value.token == bad


def test_bad_types_and_single_tile_lookup() -> None:
    with pytest.raises(TileParseError):
        parse_tiles([5])  # type: ignore[list-item]
    with pytest.raises(TileParseError, match="one tile"):
        tile("123m")
    with pytest.raises(TileParseError):
        tile("nothing")


def test_tile_properties() -> None:
    assert tile("1m").is_terminal and not tile("1m").is_honour
    assert tile("5z").is_dragon and tile("5z").is_honour and not tile("5z").is_terminal
    assert tile("4z").is_wind and tile("4z").is_terminal_or_honour
    assert tile("3g").is_bonus and not tile("3g").is_playing
    assert not BACK.is_playing and not BACK.is_bonus
    assert sorted(parse_tiles("9s1m5z")) == list(parse_tiles("1m9s5z"))


def test_winds() -> None:
    assert [wind_tile(w).code for w in ("east", "South", "west", "north")] == [
        "1z", "2z", "3z", "4z"]
    with pytest.raises(ValueError, match="unknown wind"):
        wind_tile("up")
