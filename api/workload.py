"""How many photos the service's processes on this machine are reading, and how many wait.

Why: a photo that leaves tiles hard to read is read again, closer, only when
the machine has the time (``MJLENS_READ_AGAIN_UNSURE=when_idle``). One process
knows only its own queue, but ``mjlens serve --workers N`` starts N processes,
and a client's connection stays with the worker that accepted it: one worker
read its photos again while another's waited (fifty-eighth session: two
workers on two CPUs, four clients, 5.95 photos a second against 7.50 when
never read again). So each process publishes its counts in a small file of a
folder that all of them read: its process id for a name, two integers inside.

A process that ends removes its file; one that was killed leaves it, and a
file not written for :data:`STALE_S` is ignored (no photo waits or is read for
so long: the queue gives up after ``queue_timeout_s``, and a photo is read in
seconds) and removed once its process is gone.
"""

from __future__ import annotations

import atexit
import logging
import os
import struct
import time
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

RECORD = struct.Struct("<qq")
"""A process's file: photos waiting for a recognition slot, photos being read."""
STALE_S = 300.0
"""A file not written for this many seconds is an old count, not a load."""


@dataclass(frozen=True)
class Load:
    """Photos waiting for a recognition slot and photos being read."""

    waiting: int = 0
    running: int = 0


class Workload:
    """This process's load, published in ``folder`` for the service's other processes,
    and theirs read back. With no folder, nothing is shared (one process alone)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder if hasattr(os, "pwrite") else None  # (not on Windows)
        self._fd: int | None = None
        self._pid = os.getpid()

    def publish(self, load: Load) -> None:
        """Write this process's load (from the event loop, at every change: a 16-byte
        write to a file that usually lies in memory, ``/tmp`` or ``/dev/shm``)."""
        if self.folder is None:
            return
        try:
            if self._fd is None or self._pid != os.getpid():  # first use, or a forked child
                self.folder.mkdir(parents=True, exist_ok=True)
                self._pid = os.getpid()
                self._fd = os.open(self.folder / str(self._pid), os.O_RDWR | os.O_CREAT, 0o600)
                atexit.register(self.close)
            os.pwrite(self._fd, RECORD.pack(load.waiting, load.running), 0)
        except OSError as exc:  # a read-only or full disk: count this process alone
            log.warning("not sharing the service's load in %s (%s): each process "
                        "counts only its own", self.folder, exc)
            self.folder = None

    def others(self) -> Load:
        """The load of the other processes that publish in the folder."""
        if self.folder is None:
            return Load()
        waiting = running = 0
        now = time.time()
        try:
            entries = list(os.scandir(self.folder))
        except OSError:  # not made yet: nobody published
            return Load()
        for entry in entries:
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                if now - entry.stat().st_mtime > STALE_S:
                    _remove_if_gone(Path(entry.path), int(entry.name))
                    continue
                data = Path(entry.path).read_bytes()
            except OSError:  # removed meanwhile
                continue
            if len(data) == RECORD.size:
                w, r = RECORD.unpack(data)
                waiting, running = waiting + max(0, w), running + max(0, r)
        return Load(waiting, running)

    def close(self) -> None:
        """Remove this process's file (at exit)."""
        if self._fd is None or self.folder is None:
            return
        os.close(self._fd)
        self._fd = None
        (self.folder / str(self._pid)).unlink(missing_ok=True)


def _remove_if_gone(path: Path, pid: int) -> None:
    """Remove a stale file whose process has ended."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        path.unlink(missing_ok=True)
    except PermissionError:  # alive, another user's
        pass
