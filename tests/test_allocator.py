"""The allocator keeps what a photo frees for the next one (glibc only)."""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from vision.allocator import keep_freed_memory

GLIBC = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"

# Resident memory after a 48 MB array is filled and freed, in a fresh process. (48 MB: over
# the 32 MiB that glibc's own threshold can rise to, so its default always gives it back;
# under the 64 MiB of ours.)
_KEPT_AFTER_FREE = """
import resource
import sys
import numpy as np
from vision.allocator import keep_freed_memory
tuned = keep_freed_memory() if sys.argv[1] == "tuned" else False
def resident_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 1e6
before = resident_mb()
block = np.ones(48_000_000, np.uint8)
del block
print(tuned, resident_mb() - before)
"""


def _kept_after_free(mode: str) -> tuple[bool, float]:
    out = subprocess.run([sys.executable, "-c", _KEPT_AFTER_FREE, mode], capture_output=True,
                         text=True, check=True).stdout.split()
    return out[0] == "True", float(out[1])


@pytest.mark.skipif(not GLIBC, reason="the tuning is glibc's mallopt")
def test_freed_arrays_stay_in_the_process_for_the_next_photo() -> None:
    tuned, kept = _kept_after_free("tuned")
    assert tuned
    assert kept > 45  # the 48 MB are still the process's, to be reused
    untuned, given_back = _kept_after_free("default")
    assert not untuned
    assert given_back < 5  # glibc's default hands them back at once


def test_an_operators_own_malloc_settings_are_left_alone(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "131072")
    assert keep_freed_memory.__wrapped__() is False
