"""The spec model -> compiled rules, read by both the engine and the Z3 model.

``compiler`` turns a ``Spec`` into ``Rules`` (the tables the engine looks faces and options up in), ``cache``
keeps compiled rules on disk so that a small ``check`` starts fast, and ``effects`` writes each card effect's
meaning once: the engine applies it and ``referee.proof.model`` states it to Z3 from the same definitions.
"""
