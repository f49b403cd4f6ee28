"""A rule broken: raised inside the engine at the check that fails, turned into a ``Diagnostic`` by ``Engine.apply``."""

from __future__ import annotations

from referee.spec.vocabulary import Check
from referee.verdicts import Code


class Reject(Exception):
    """Internal: raised inside the engine, turned into a ``Diagnostic`` by ``Engine.apply``.

    ``check`` names the rule-table entry (``Rules.check_rules``) whose rule id the diagnostic cites.
    """

    def __init__(
        self, code: Code, check: Check, message: str, allowed: tuple[str, ...] = (), reasons: tuple[tuple[int, str], ...] = ()
    ) -> None:
        super().__init__(message)
        self.code = code
        self.check = check
        self.message = message
        self.allowed = allowed
        self.reasons = reasons
