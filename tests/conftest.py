"""Suite-wide test settings.

Property tests run without Hypothesis' per-example deadline: CI machines are
small and shared, and speed is measured by the scripts in ``bench/``, never by
tests.
"""

from hypothesis import settings

settings.register_profile("mjlens", deadline=None)
settings.load_profile("mjlens")
