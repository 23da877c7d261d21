"""The other cuts a miscounted hand tries (vision.mend): each made from a first
segmentation, changing only what it says it changes."""

from __future__ import annotations

import numpy as np

from vision.mend import (
    beyond_runs,
    crosswise_pairs,
    face_gaps,
    with_face_between,
    with_faces,
    with_kong_backs,
    with_one_face,
    with_other_cut,
    without,
)
from vision.segment import OtherCut, Segmentation, TileQuad


def test_a_run_cut_the_other_way_replaces_that_runs_tiles_only() -> None:
    def quad(x: float, blob: int) -> TileQuad:
        return TileQuad(np.array([[x, 10], [x + 30, 10], [x + 30, 50], [x, 50]], float), blob, 0,
                        False)

    two = (quad(100, 1), quad(130, 1))
    seg = Segmentation((quad(0, 0), *two), (200, 100), (0,), 2.0,
                       (OtherCut(1, (quad(100, 1), quad(120, 1), quad(169, 1))),))
    other = with_other_cut(seg, seg.other_cuts[0])
    assert [q.blob for q in other.quads] == [0, 1, 1, 1]
    assert other.cut_by_edge == (0, 3)  # the first tile, and the new one at the right edge
    assert other.other_cuts == () and other.border == seg.border
    fewer = without(other, [3])
    assert [q.blob for q in fewer.quads] == [0, 1, 1] and fewer.cut_by_edge == (0,)


def test_a_kongs_lost_backs_are_added_a_pitch_beyond_its_faces() -> None:
    """The backs lie where the next tiles of the run would: each face moved by the
    step between the two faces, at the ends no back was found at; none off the
    picture."""
    def quad(x: float, down: bool = False) -> TileQuad:
        return TileQuad(np.array([[x, 10], [x + 30, 12], [x + 30, 52], [x, 50]], float), 4, 0,
                        False, face_down=down)

    seg = Segmentation((quad(0), quad(100), quad(130)), (400, 100), (0,), 2.0)
    both = with_kong_backs(seg, [1, 2])
    assert both is not None
    assert [q.face_down for q in both.quads] == [False, False, False, True, True]
    assert np.allclose(both.quads[3].corners, quad(70).corners)
    assert np.allclose(both.quads[4].corners, quad(160).corners)
    assert {q.blob for q in both.quads[3:]} == {4} and both.cut_by_edge == (0,)
    one = Segmentation((*seg.quads, quad(160, down=True)), (400, 100), (0,), 2.0)
    other = with_kong_backs(one, [1, 2], [3])
    assert other is not None and len(other.quads) == 5
    assert np.allclose(other.quads[4].corners, quad(70).corners)
    assert with_kong_backs(one, [1, 2], [3, 3]) is not None
    at_edge = Segmentation((quad(15), quad(45)), (400, 100), (), 2.0)
    assert with_kong_backs(at_edge, [0, 1]) is None  # its left back would be off the picture


def test_a_face_lost_in_a_row_is_looked_for_in_its_gap() -> None:
    """A gap one face wide between two faces of a row, with nothing found in it, is
    where a lost face may lie, even when the faces beside it took in part of it;
    its face is the size of the row's faces. Two faces' gap, a gap already
    holding a face, faces of another size or off the row are not gaps."""
    def quad(x: float, width: float = 30, blob: int = 0, y: float = 10,
             height: float = 40) -> TileQuad:
        return TileQuad(np.array([[x, y], [x + width, y], [x + width, y + height],
                                  [x, y + height]], float), blob, 0, False)

    row = [quad(0), quad(30), quad(60, 38), quad(122, 38, blob=1), quad(160, blob=1)]
    seg = Segmentation(tuple(row), (400, 100), (), 2.0)
    ((left, right, corners),) = face_gaps(seg)
    assert (left, right) == (2, 3)
    assert np.allclose(corners, quad(95).corners)  # (the gap: 98 to 122)
    joined = with_face_between(seg, left, right, corners)
    assert [q.blob for q in joined.quads] == [0, 0, 0, 0, 0, 0]
    assert np.allclose(joined.quads[-1].corners, corners) and not joined.quads[-1].sideways

    def gaps(*quads: TileQuad) -> list[tuple[int, int]]:
        return [(i, j) for i, j, _ in face_gaps(Segmentation(quads, (400, 100), (), 2.0))]

    assert gaps(quad(0), quad(60)) == [(0, 1)]
    assert gaps(quad(0), quad(90)) == []  # two faces' gap
    assert gaps(quad(0), quad(36)) == []  # a meld set a little apart
    assert gaps(quad(0), quad(60), quad(30)) == []  # the face is there
    assert gaps(quad(0), quad(60, y=25)) == []  # off the row
    assert gaps(quad(0), quad(60, height=55)) == []  # a nearer or farther row


def test_a_face_lost_at_a_rows_end_is_looked_for_one_step_beyond_it() -> None:
    """Each end of a run of two faces or more is looked beyond, one step (the step
    from its neighbour) along the row, and so is the face added there; not where a
    face was found, off the picture, or beside a lone face or a run holding a
    turned tile."""
    def quad(x: float, blob: int = 0, sideways: bool = False) -> TileQuad:
        width = 40 if sideways else 30
        return TileQuad(np.array([[x, 10], [x + width, 10], [x + width, 50], [x, 50]], float),
                        blob, 0, sideways)

    seg = Segmentation((quad(100), quad(131), quad(162)), (400, 100), (), 2.0)
    ends = beyond_runs(seg)
    assert [end for end, _ in ends] == [2, 0]
    assert np.allclose(ends[0][1], quad(193).corners)
    assert np.allclose(ends[1][1], quad(69).corners)
    grown = with_faces(seg, ends[:1])
    assert len(grown.quads) == 4 and grown.quads[3].blob == 0 and not grown.quads[3].sideways
    assert [end for end, _ in beyond_runs(grown)] == [3, 0]  # the row goes on from it
    assert np.allclose(beyond_runs(grown)[0][1], quad(224).corners)

    def ends_of(*quads: TileQuad) -> list[int]:
        return [end for end, _ in beyond_runs(Segmentation(quads, (400, 100), (), 2.0))]

    assert ends_of(quad(100), quad(131), quad(180, blob=1)) == [0]  # a meld lies beyond
    assert ends_of(quad(10), quad(40)) == [1]  # the left one would be off the picture
    assert ends_of(quad(100)) == []  # a lone face gives no step
    assert ends_of(quad(100), quad(131), quad(162, sideways=True)) == []


def test_a_tile_set_apart_cut_across_the_rows_is_made_one_face() -> None:
    """A run of two upright faces and nothing more, cut along a line across the
    photo's rows, may be one tile cut across its height; made one face, it is
    upright in the rows' frame. Two faces along the rows, a run of three, or a
    face and a back are not."""
    rows = np.array([1.0, 0.0])

    def half(y: float, blob: int, down: bool = False) -> TileQuad:
        # a row running down the picture: TL->TR points down, the face's height across
        return TileQuad(np.array([[240, y], [240, y + 25], [200, y + 25], [200, y]], float),
                        blob, 0, False, face_down=down)

    def face(x: float, blob: int) -> TileQuad:
        return TileQuad(np.array([[x, 10], [x + 30, 10], [x + 30, 50], [x, 50]], float),
                        blob, 0, False)

    row = [face(0, 0), face(30, 0), face(60, 0)]
    seg = Segmentation((*row, half(100, 1), half(125, 1)), (400, 300), (), 2.0)
    assert crosswise_pairs(seg, rows) == [1]
    one = with_one_face(seg, 1, rows)
    assert len(one.quads) == 4 and one.quads[-1].blob == 1 and not one.quads[-1].sideways
    assert np.allclose(one.quads[-1].corners, [[200, 100], [240, 100], [240, 150], [200, 150]])
    assert all(a is b for a, b in zip(one.quads[:3], seg.quads[:3], strict=True))

    def pairs(*quads: TileQuad) -> list[int]:
        return crosswise_pairs(Segmentation(quads, (400, 300), (), 2.0), rows)

    assert pairs(face(0, 0), face(30, 0)) == []  # along the rows
    assert pairs(half(100, 1), half(125, 1), half(150, 1)) == []  # a run of three
    assert pairs(half(100, 1), half(125, 1, down=True)) == []  # a face and a back
