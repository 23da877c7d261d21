"""Suite-wide test settings.

Property tests run without Hypothesis' per-example deadline: CI machines are
small and shared, and speed is measured by the scripts in ``bench/``, never by
tests.

The services that tests start share their load in a folder of their own
(``MJLENS_WORKLOAD_DIR``), not the machine's: a server running beside the
tests must not make them busy.
"""

import atexit
import os
import shutil
import tempfile

import numpy as np
import pytest
from hypothesis import settings

settings.register_profile("mjlens", deadline=None)
settings.load_profile("mjlens")
os.environ["MJLENS_WORKLOAD_DIR"] = tempfile.mkdtemp(prefix="mjlens-test-workload-")
atexit.register(shutil.rmtree, os.environ["MJLENS_WORKLOAD_DIR"], ignore_errors=True)


@pytest.fixture(scope="session")
def stripes() -> np.ndarray:
    """An 800x600 RGB picture of black and white stripes 10 pixels wide: a pattern that
    the segmenter cuts into thousands of faces (``vision.recognize.MAX_FACES``)."""
    light = ((np.arange(800) // 10) % 2 * 255).astype(np.uint8)
    return np.repeat(np.tile(light, (600, 1))[..., None], 3, axis=2)
