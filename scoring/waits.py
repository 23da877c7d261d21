"""Which tiles would complete a hand that is one tile short.

Players photograph hands before they win, too; telling them what they wait on
is the friendliest answer to "this is not a winning hand".
"""

from __future__ import annotations

from collections.abc import Sequence

from scoring.decompose import concealed_counts, is_complete
from scoring.hand import Hand, tile_counts
from scoring.tiles import PLAYING_TILES, Tile


def waits_for_counts(counts: Sequence[int], melds: int,
                     used: Sequence[int] | None = None) -> tuple[Tile, ...]:
    """Tiles that complete ``counts`` (34 concealed counts) with ``melds`` declared sets.

    ``used`` counts copies visible in the whole hand (melds included); a tile
    whose four copies are all in the hand cannot be waited on.
    """
    seen = used if used is not None else counts
    trial = list(counts)
    out: list[Tile] = []
    for i in range(34):
        if seen[i] >= 4:
            continue
        trial[i] += 1
        if is_complete(trial, melds):
            out.append(PLAYING_TILES[i])
        trial[i] -= 1
    return tuple(out)


def waits(hand: Hand) -> tuple[Tile, ...]:
    """Waits of a hand holding one tile fewer than a complete hand (empty if none)."""
    if len(hand.concealed) != hand.tiles_expected - 1:
        return ()
    return waits_for_counts(concealed_counts(hand.concealed), len(hand.melds), tile_counts(hand))
