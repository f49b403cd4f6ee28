"""Z3 proofs of the rules' invariants. Imported only by ``referee prove`` (z3 is heavy; ``check`` never loads it)."""
