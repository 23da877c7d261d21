"""The load that the service's processes share (``api.workload``), and the idle test
that a closer read asks (``Recognizer.idle``)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from api.recognition import Recognizer
from api.settings import Settings, available_cpus
from api.workload import RECORD, STALE_S, Load, Workload

SIBLING = """
import sys
from pathlib import Path
from api.workload import Load, Workload
board = Workload(Path(sys.argv[1]))
board.publish(Load(2, 1))
print("published", flush=True)
sys.stdin.readline()
"""


def _write(folder: Path, pid: int, load: Load, age_s: float = 0.0) -> Path:
    path = folder / str(pid)
    path.write_bytes(RECORD.pack(load.waiting, load.running))
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


def test_another_process_load_is_read_and_its_file_removed_when_it_ends(tmp_path: Path) -> None:
    """A worker process publishes its counts; another reads them, not its own; the
    file goes when its process ends."""
    child = subprocess.Popen([sys.executable, "-c", SIBLING, str(tmp_path)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             cwd=Path(__file__).resolve().parents[1])
    assert child.stdout is not None and child.stdin is not None
    try:
        assert child.stdout.readline().strip() == "published"
        here = Workload(tmp_path)
        here.publish(Load(5, 5))  # its own: never counted as another's
        assert here.others() == Load(2, 1)
        assert (tmp_path / str(child.pid)).exists()
    finally:
        child.stdin.write("\n")
        child.stdin.close()
        child.wait(timeout=30)
    assert not (tmp_path / str(child.pid)).exists()
    assert here.others() == Load()
    here.close()
    assert not (tmp_path / str(os.getpid())).exists()


def test_old_counts_are_ignored_and_removed_once_their_process_is_gone(tmp_path: Path) -> None:
    """A killed process leaves its file: not written for :data:`STALE_S`, it is no load,
    and it is removed when no process has its id."""
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = _write(tmp_path, int(gone.stdout), Load(3, 3), age_s=STALE_S + 60)
    alive = _write(tmp_path, os.getppid(), Load(4, 4), age_s=STALE_S + 60)
    (tmp_path / "notes.txt").write_text("not a process's file")
    assert Workload(tmp_path).others() == Load()
    assert not dead.exists() and alive.exists()
    assert Workload(tmp_path / "not-made-yet").others() == Load()
    assert Workload(None).others() == Load()


def test_a_closer_read_waits_for_the_whole_machine_to_be_idle(tmp_path: Path) -> None:
    """``Recognizer.idle``: not while a photo waits in another worker, nor while more
    photos are read than there are CPUs; with no shared folder, only this process."""
    recognizer = Recognizer(Settings(workload_dir=str(tmp_path)))
    sibling = os.getppid()  # a live process: its file counts
    cpus = available_cpus()
    assert recognizer.idle()
    _write(tmp_path, sibling, Load(1, 0))
    assert not recognizer.idle()
    _write(tmp_path, sibling, Load(0, cpus))
    assert recognizer.idle()  # every CPU busy, none oversubscribed
    _write(tmp_path, sibling, Load(0, cpus + 1))
    assert not recognizer.idle()
    _write(tmp_path, sibling, Load(0, 0))
    assert recognizer.idle()
    _write(tmp_path, sibling, Load(1, cpus + 1))
    assert Recognizer(Settings(workload_dir="")).idle()


def test_a_folder_that_cannot_be_written_leaves_each_process_to_itself(tmp_path: Path) -> None:
    """A read-only or odd ``MJLENS_WORKLOAD_DIR`` is no error for uploads: the process
    then counts only its own photos."""
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    board = Workload(blocked / "workload")
    board.publish(Load(1, 1))
    assert board.folder is None and board.others() == Load()
