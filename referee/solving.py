"""What the two users of Z3, the prover (``referee.proof``) and the public-round solver (``referee.public``), share:
reading why a solve stopped without an answer. Below both, so that neither imports the other; it imports no z3."""

from __future__ import annotations


def stopped_by_interrupt(reason: str, early: bool = True) -> bool:
    """Whether Z3's reason for unknown is an interrupt: ``interrupted ...``, or ``canceled`` when ``early`` (a solve
    that ended well before its timeout; the prover, whose timeouts say ``timeout``, leaves it True)."""
    reason = reason.lower()
    return "interrupt" in reason or ("cancel" in reason and early)
