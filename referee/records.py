"""Records: the standard ``@dataclass`` decorator, without compiling every method of every class at import.

Every immutable value of the referee (cards, events, moves, rules, verdicts) is a
dataclass, and ``referee check`` of a small log defines about sixty of them
before it reads a line. On Python 3.11 the standard decorator writes the source
of six methods of a frozen class and compiles each with ``exec`` (about half a
millisecond a class), which was a third of the command's start-up.

This decorator gives the same classes. ``__init__``, ``__eq__`` and
``__hash__`` are the standard library's source, compiled when each is first
looked up (a small check constructs, compares and hashes a few kinds of
record), after which the class holds a plain function, as fast as the
standard one; ``__repr__`` and the frozen ``__setattr__`` / ``__delattr__``
are closures over the field names (the same behaviour, nothing to compile). The fields, ``__dataclass_fields__``, ``__dataclass_params__``,
``__match_args__`` and the ``dataclasses`` functions (``fields``, ``replace``,
``asdict``) are the standard library's own. What it does not do (``order``,
``unsafe_hash``, ``kw_only``, ``weakref_slot``, ``__post_init__``, a dataclass
base class) it hands to the standard decorator whole.

Type checkers and mypyc see ``dataclasses.dataclass`` itself (the import under
``TYPE_CHECKING``), so mypyc still compiles these classes as native dataclasses
and calls this decorator where it would call the standard one. This module is
never compiled: mypyc would keep only the ``TYPE_CHECKING`` branch.
tests/test_records.py holds it to the standard decorator's behaviour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:
    import dataclasses
    import reprlib
    import sys
    from dataclasses import MISSING, FrozenInstanceError

    _STANDARD = dataclasses.dataclass
    _HANDED_OVER = ("order", "unsafe_hash", "kw_only", "weakref_slot")

    class _Factory:
        """The default of an ``__init__`` parameter whose field has a default factory."""

        __slots__ = ()

        def __repr__(self):
            return "<factory>"

    _FACTORY = _Factory()

    def dataclass(cls=None, /, **options):
        """``@dataclass`` or ``@dataclass(frozen=True, slots=True, ...)``, as the standard decorator."""

        def wrap(cls):
            return _record(cls, options)

        return wrap if cls is None else wrap(cls)

    def _handed_over(cls, options):
        """Whether ``cls`` or ``options`` ask for what only the standard decorator does."""
        if any(options.get(name) for name in _HANDED_OVER):
            return True
        if hasattr(cls, "__post_init__"):
            return True
        if any(hasattr(base, "__dataclass_fields__") for base in cls.__mro__[1:]):
            return True
        frozen = options.get("frozen", False)
        return frozen and ("__setattr__" in cls.__dict__ or "__delattr__" in cls.__dict__)

    def _record(cls, options):
        if _handed_over(cls, options):
            return _STANDARD(cls, **options)
        init = options.get("init", True)
        repr_ = options.get("repr", True)
        eq = options.get("eq", True)
        frozen = options.get("frozen", False)
        slots = options.get("slots", False)
        undocumented = not cls.__doc__
        explicit_hash = _explicit_hash(cls)
        _STANDARD(cls, init=False, repr=False, eq=False, match_args=options.get("match_args", True))
        params = cls.__dataclass_params__
        params.init, params.repr, params.eq, params.frozen = init, repr_, eq, frozen
        if hasattr(params, "slots"):
            params.slots = slots
        fields = dataclasses.fields(cls)
        if slots and "__mypyc_attrs__" not in cls.__dict__:
            cls = _with_slots(cls, fields, frozen)
        if init and "__init__" not in cls.__dict__:
            cls.__init__ = _init(cls, fields, frozen)
        if repr_ and "__repr__" not in cls.__dict__:
            cls.__repr__ = _repr(cls, fields)
        if eq:
            _add_eq_and_hash(cls, fields, frozen, explicit_hash)
        if frozen:
            _freeze(cls, fields)
        if undocumented:
            import inspect

            cls.__doc__ = cls.__name__ + str(inspect.signature(cls)).replace(" -> None", "")
        return cls

    def _explicit_hash(cls):
        """The standard library's test: a ``__hash__`` written in the class, not the None that ``__eq__`` implies."""
        written = cls.__dict__.get("__hash__", MISSING)
        return not (written is MISSING or (written is None and "__eq__" in cls.__dict__))

    def _init(cls, fields, frozen):
        """``__init__`` as the standard library writes it (generated source: its signature is the fields'), compiled
        when it is first looked up: a small ``check`` constructs only a few of its records."""
        namespace = {"__dataclass_builtins_object__": object, "__dataclass_factory__": _FACTORY}
        parameters, lines, annotations = [], [], {}
        seen_default = False
        for field in fields:
            value = _initial_value(field, namespace, parameters)
            if field.init:
                annotations[field.name] = field.type
                has_default = field.default is not MISSING or field.default_factory is not MISSING
                if seen_default and not has_default:
                    raise TypeError(f"non-default argument {field.name!r} follows default argument")
                seen_default = seen_default or has_default
            if value is None:
                continue
            if frozen:
                lines.append(f"  __dataclass_builtins_object__.__setattr__(self,{field.name!r},{value})")
            else:
                lines.append(f"  self.{field.name}={value}")
        source = f"def __init__(self, {', '.join(parameters)}):\n" + ("\n".join(lines) or "  pass")
        return _Lazy(cls, "__init__", source, namespace, {**annotations, "return": None})

    class _Lazy:
        """A generated method of a record until its first lookup, which compiles its source and puts the function in
        the class in its place: a small ``check`` constructs, compares and hashes only a few of its records."""

        __slots__ = ("owner", "name", "source", "namespace", "annotations")

        def __init__(self, owner, name, source, namespace, annotations=None):
            self.owner, self.name, self.source, self.namespace, self.annotations = owner, name, source, namespace, annotations

        def __get__(self, instance, owner=None):
            function = self.compile()
            return function if instance is None else function.__get__(instance, owner)

        def compile(self):
            """As the standard library does: the method made inside a function whose arguments are the values it
            refers to (closures), with the class's module as its globals (so its ``__module__`` and type hints)."""
            module = sys.modules.get(self.owner.__module__)
            indented = "\n".join(" " + line for line in self.source.split("\n"))
            source = f"def __create_fn__({', '.join(self.namespace)}):\n{indented}\n return {self.name}"
            made = {}
            exec(source, module.__dict__ if module is not None else {}, made)  # noqa: S102 - built from the field names
            function = made["__create_fn__"](**self.namespace)
            function.__qualname__ = f"{self.owner.__qualname__}.{self.name}"
            if self.annotations is not None:
                function.__annotations__ = self.annotations
            if self.owner.__dict__.get(self.name) is self:
                setattr(self.owner, self.name, function)
            return function

    def _initial_value(field, namespace, parameters):
        """The expression ``__init__`` assigns to ``field`` (None: nothing), adding its parameter if it has one."""
        default = f"__dataclass_dflt_{field.name}__"
        if field.default_factory is not MISSING:
            namespace[default] = field.default_factory
            if not field.init:
                return f"{default}()"
            parameters.append(f"{field.name}=__dataclass_factory__")
            return f"{default}() if {field.name} is __dataclass_factory__ else {field.name}"
        if field.default is not MISSING:
            namespace[default] = field.default
            if not field.init:
                return default
            parameters.append(f"{field.name}={default}")
            return field.name
        if not field.init:
            return None
        parameters.append(field.name)
        return field.name

    def _repr(cls, fields):
        names = tuple(field.name for field in fields if field.repr)

        @reprlib.recursive_repr()
        def __repr__(self):
            shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
            return f"{self.__class__.__qualname__}({shown})"

        __repr__.__qualname__ = f"{cls.__qualname__}.__repr__"
        return __repr__

    def _tuple(owner, names):
        """The source of the tuple of ``owner``'s named fields, as the standard library writes it."""
        return "(" + "".join(f"{owner}.{name}," for name in names) + ")"

    def _add_eq_and_hash(cls, fields, frozen, explicit_hash):
        """``__eq__`` and ``__hash__`` as the standard library writes them (as fast as its own on a hot path)."""
        if "__eq__" not in cls.__dict__:
            compared = [field.name for field in fields if field.compare]
            source = (
                "def __eq__(self, other):\n"
                "  if other.__class__ is self.__class__:\n"
                f"    return {_tuple('self', compared)}=={_tuple('other', compared)}\n"
                "  return NotImplemented"
            )
            cls.__eq__ = _Lazy(cls, "__eq__", source, {})
        if explicit_hash:
            return
        if not frozen:
            cls.__hash__ = None
            return
        hashed = [field.name for field in fields if (field.compare if field.hash is None else field.hash)]
        cls.__hash__ = _Lazy(cls, "__hash__", f"def __hash__(self):\n  return hash({_tuple('self', hashed)})", {})

    def _freeze(cls, fields):
        names = frozenset(field.name for field in fields)

        def __setattr__(self, name, value):
            if type(self) is cls or name in names:
                raise FrozenInstanceError(f"cannot assign to field {name!r}")
            super(cls, self).__setattr__(name, value)

        def __delattr__(self, name):
            if type(self) is cls or name in names:
                raise FrozenInstanceError(f"cannot delete field {name!r}")
            super(cls, self).__delattr__(name)

        __setattr__.__qualname__ = f"{cls.__qualname__}.__setattr__"
        __delattr__.__qualname__ = f"{cls.__qualname__}.__delattr__"
        cls.__setattr__ = __setattr__
        cls.__delattr__ = __delattr__

    def _slots_of(base):
        slots = base.__dict__.get("__slots__", ())
        return (slots,) if isinstance(slots, str) else slots

    def _with_slots(cls, fields, frozen):
        """The class again, with ``__slots__`` for its fields (a class's slots are fixed when it is made)."""
        names = tuple(field.name for field in fields)
        inherited = {slot for base in cls.__mro__[1:-1] for slot in _slots_of(base)}
        namespace = dict(cls.__dict__)
        namespace["__slots__"] = tuple(name for name in names if name not in inherited)
        for name in (*names, "__dict__", "__weakref__"):
            namespace.pop(name, None)
        qualname = cls.__qualname__
        cls = type(cls)(cls.__name__, cls.__bases__, namespace)
        cls.__qualname__ = qualname
        if frozen:
            if "__getstate__" not in namespace:
                cls.__getstate__ = lambda self: [getattr(self, name) for name in names]
            if "__setstate__" not in namespace:

                def __setstate__(self, state):
                    for name, value in zip(names, state, strict=True):
                        object.__setattr__(self, name, value)

                cls.__setstate__ = __setstate__
        return cls
