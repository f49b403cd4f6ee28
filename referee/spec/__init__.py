"""Spec YAML -> the spec model: a rulebook as data in a closed vocabulary.

``loader`` reads YAML into a node tree that keeps every value's position (never constructing Python objects);
``vocabulary`` is the closed set of words a spec may use, which ``reader`` (the whole spec, its kinds of face and
their effects read by ``kinds``) and ``extends``
(house specs layered on a base) check every node against, and which ``schema`` turns into a JSON Schema for
editors; ``model`` and ``catalogue`` are the typed, immutable result (``Spec``, its faces and cards); ``paths``
says where a spec name resolves. Nothing here knows about games, logs or Z3.
"""
