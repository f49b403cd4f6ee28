"""Z3 proofs of the rules' invariants and the rulebook's claims. Imported only by ``referee prove``, ``rules --claims``
and ``diff`` (z3 is heavy; ``check`` never loads it, and reading claims, ``referee.proof.claims``, does not either).

``model`` is the transition relation and the deal as Z3 constraints (each effect's meaning from
``referee.rules.effects``); ``queries`` asks it, ``answers`` reads what it says; ``invariants`` and ``gaps`` hold each
invariant's question with its concrete check; ``claims`` is a package with a module per claim form; ``prove``,
``counterexamples``, ``declare`` and ``report`` are the run and its results.
"""
