"""Italian (classical Chinese) scoring: every player scores, settlement at the table.

Entry points: :func:`score_italian` (the model behind ``score_request`` for
presets with ``model = "italian"``), :func:`describe` (the rules document's
section) and :func:`format_text` (the CLI's text output).
"""

from scoring.italian.describe import describe
from scoring.italian.request import score_italian
from scoring.italian.text import format_text

__all__ = ["describe", "format_text", "score_italian"]
