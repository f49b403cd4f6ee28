"""referee: a formal rules checker and referee for UNO Flip.

The data flows one way, and the module names follow it:
spec YAML -> ``spec_loader`` (node tree with positions) -> ``spec_model`` (``Spec``)
-> ``compiler`` (``Rules``: the engine's tables) -> ``engine`` (``GameState``);
log text -> ``log_reader`` (events) -> ``replay`` -> ``verdicts`` -> ``report`` -> ``cli``.
"""

__version__ = "0.1.0"
