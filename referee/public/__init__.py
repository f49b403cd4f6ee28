"""Public records: rounds in which nobody wrote down the hidden cards.

``projection`` turns a fully known game into what the table saw; ``rounds`` replays a public round along
every way the hidden cards can go, and ``consistency`` asks Z3 whether some deal of physical cards makes the
record legal. Imported only when a log has a public round (and by the prover).
"""
