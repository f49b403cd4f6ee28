"""Replay -> verdicts -> reports: what ``check``, ``explain`` and ``adjudicate`` do with a log.

``replay`` feeds a log's events to the engine and stops at the first violation; ``explain`` and
``adjudicate`` answer about one line or one dispute; ``timeline`` keeps the table after every line (the replay
page's data, with explain's and adjudicate's answers); ``batch`` runs many logs (one core, ``-j`` or Dask);
``report`` and ``ci_report`` render verdicts as text, JSON, JUnit, SARIF or GitHub annotations, at the edge.
"""
