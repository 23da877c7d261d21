"""The page's tile table (``api/static/tiles.js``) is generated from ``scoring/tiles.py``.

The web page has no build step, so it cannot import the Python vocabulary; instead
the table is committed as an ES module and this test keeps it equal to the source
of truth. Regenerate with ``python tests/test_web_tiles.py --write``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from scoring.tiles import ALL_TILES

TILES_JS = Path(__file__).resolve().parents[1] / "api" / "static" / "tiles.js"


def render_tiles_js() -> str:
    """The exact text ``tiles.js`` must hold (ASCII only, one tile a line)."""
    rows = [
        json.dumps(
            {"index": t.index, "code": t.code, "suit": t.suit.value, "rank": t.rank,
             "name": t.name, "name_it": t.name_it, "glyph": t.glyph},
        )
        for t in ALL_TILES
    ]
    body = ",\n  ".join(rows)
    return (
        "// Generated from scoring/tiles.py by `python tests/test_web_tiles.py --write`;"
        " do not edit.\n"
        f"export const TILES = [\n  {body},\n];\n"
    )


def test_tiles_js_matches_the_vocabulary() -> None:
    assert TILES_JS.read_text(encoding="utf-8") == render_tiles_js(), (
        "api/static/tiles.js is stale: run `python tests/test_web_tiles.py --write`"
    )


def test_tiles_js_lists_every_tile_once() -> None:
    text = TILES_JS.read_text(encoding="utf-8")
    start = text.index("[")
    table = json.loads(text[start : text.rindex("]") + 1].replace(",\n]", "\n]"))
    assert [row["code"] for row in table] == [t.code for t in ALL_TILES]
    assert len({row["glyph"] for row in table}) == len(ALL_TILES)


if __name__ == "__main__":
    if "--write" in sys.argv[1:]:
        TILES_JS.write_text(render_tiles_js(), encoding="utf-8")
        print(f"wrote {TILES_JS}")
    else:
        print(render_tiles_js(), end="")
