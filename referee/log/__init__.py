"""Log text <-> events: the game-log format (docs/log-format.md), read and written.

``events`` are the immutable records of a log's lines; ``reader`` streams text into them with a position on
every error, ``writer`` writes them back in the format's words, and ``inputs`` is how every command names
its logs (files, folders, bounded reads) as ``LogSource`` values that can travel to worker processes.
"""
