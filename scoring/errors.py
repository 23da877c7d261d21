"""Errors of the scoring library, each with a stable ``code`` for JSON clients.

A malformed request or an unknown rule is an exception (the caller asked for
something we cannot even try); an illegal hand is not: :func:`scoring.score.score_request`
answers it with ``"valid": false`` and a reason, because telling a player *why*
a photographed hand does not win is part of the product.
"""

from __future__ import annotations

from collections.abc import Sequence


class ScoringError(ValueError):
    """Base class: a human message plus a machine ``code`` that never changes."""

    code = "scoring_error"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class RequestError(ScoringError):
    """The request itself is malformed: missing fields, wrong types, bad tile text."""

    code = "bad_request"


class RuleError(ScoringError):
    """An unknown preset (``unknown_rules``) or a bad rule option (``bad_rule_option``)."""

    code = "bad_rule_option"


class IllegalHand(ScoringError):
    """The tiles cannot be a winning hand; ``waits`` lists what a one-short hand needs.

    Raised inside the engine and turned into ``{"valid": false, ...}`` at the
    request level, so clients never see it as an error.
    """

    code = "illegal_hand"

    def __init__(self, message: str, *, waits: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.waits: tuple[str, ...] = tuple(waits)
