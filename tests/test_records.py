"""referee.records.dataclass makes the classes the standard decorator makes, only faster at import."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import pickle
import pkgutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import referee
from referee.records import dataclass as record

OPTIONS = [
    {},
    {"frozen": True},
    {"frozen": True, "slots": True},
    {"slots": True},
    {"frozen": True, "eq": False},
    {"frozen": True, "slots": True, "eq": False},
    {"eq": False},
    {"repr": False, "frozen": True},
]


def _point(decorator: Callable[..., Any], options: dict[str, bool]) -> type:
    @decorator(**options)
    class Point:
        """A point, with every kind of field."""

        x: int
        y: str = "a"
        z: list[int] = dataclasses.field(default_factory=list)
        w: int = dataclasses.field(default=3, compare=False, repr=False)
        v: int = dataclasses.field(default=0, init=False)
        u: list[int] = dataclasses.field(default_factory=list, init=False, hash=False)

    return Point


@pytest.mark.parametrize("options", OPTIONS, ids=lambda options: ",".join(options) or "plain")
def test_the_same_class_as_the_standard_decorator(options: dict[str, bool]) -> None:
    standard, fast = _point(dataclasses.dataclass, options), _point(record, options)
    assert str(inspect.signature(fast)) == str(inspect.signature(standard))
    assert fast.__match_args__ == standard.__match_args__
    assert fast.__doc__ == standard.__doc__
    assert [field.name for field in dataclasses.fields(fast)] == [field.name for field in dataclasses.fields(standard)]
    for name in ("init", "repr", "eq", "frozen"):
        assert getattr(fast.__dataclass_params__, name) == getattr(standard.__dataclass_params__, name)
    assert hasattr(fast, "__slots__") == hasattr(standard, "__slots__")
    assert ("__dict__" in dir(fast("x"))) == ("__dict__" in dir(standard("x")))
    ours, theirs = fast(1, "q", [1], 7), standard(1, "q", [1], 7)
    if options.get("repr", True):
        assert repr(ours).replace(fast.__qualname__, "") == repr(theirs).replace(standard.__qualname__, "")
    else:
        assert repr(ours).startswith(f"<{fast.__module__}.") and " object at " in repr(ours)
    assert (ours == fast(1, "q", [1], 9)) == (theirs == standard(1, "q", [1], 9))
    assert (ours == fast(2, "q", [1])) == (theirs == standard(2, "q", [1]))
    assert ours.__eq__(theirs) is NotImplemented or not options.get("eq", True)
    assert (fast.__hash__ is None) == (standard.__hash__ is None)
    if standard.__hash__ is not None and options.get("eq", True):
        assert hash(fast(1, "q", ())) == hash(standard(1, "q", ()))  # type: ignore[arg-type]
    assert dataclasses.asdict(dataclasses.replace(ours, x=5)) == dataclasses.asdict(dataclasses.replace(theirs, x=5))


@pytest.mark.parametrize("options", [{"frozen": True}, {"frozen": True, "slots": True}], ids=["frozen", "slots"])
def test_frozen_records_refuse_assignment_and_deletion(options: dict[str, bool]) -> None:
    point = _point(record, options)(1)
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
        point.x = 2
    with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'y'"):
        del point.y
    assert point.x == 1


@record(frozen=True, slots=True)
class Pickled:
    """A module-level frozen record with slots, as the rules cache pickles them."""

    name: str
    items: tuple[int, ...] = ()


def test_frozen_records_with_slots_pickle() -> None:
    value = Pickled("deck", (1, 2))
    again = pickle.loads(pickle.dumps(value))
    assert again == value and hash(again) == hash(value) and again is not value


def test_undocumented_records_get_the_standard_docstring() -> None:
    def bare(decorator: Callable[..., Any]) -> type:
        @decorator(frozen=True)
        class Bare:
            a: int
            b: int = 2

        return Bare

    assert bare(record).__doc__ == bare(dataclasses.dataclass).__doc__ == "Bare(a: 'int', b: 'int' = 2)"


def test_a_required_field_after_a_default_is_refused_as_the_standard_decorator_does() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

        @record
        class Wrong:
            a: int = 1
            b: int


def test_what_it_does_not_do_goes_to_the_standard_decorator() -> None:
    @record(order=True, frozen=True)
    class Ordered:
        a: int

    assert Ordered(1) < Ordered(2)

    @record
    class Checked:
        a: int

        def __post_init__(self) -> None:
            self.a = abs(self.a)

    assert Checked(-3).a == 3


def test_methods_written_in_the_class_are_kept() -> None:
    @record(frozen=True)
    class Named:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Named) and other.name.lower() == self.name.lower()

        def __hash__(self) -> int:
            return hash(self.name.lower())

    assert repr(Named("Ann")) == "<Ann>"
    assert Named("Ann") == Named("ANN") and hash(Named("Ann")) == hash(Named("ann"))


def _record_classes() -> list[type]:
    found: dict[str, type] = {}
    for module_info in pkgutil.walk_packages(referee.__path__, "referee."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        for value in vars(module).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == module.__name__:
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


class _FactoryShown:
    def __repr__(self) -> str:
        return "<factory>"


def _expected_signature(cls: type) -> str:
    parameters = []
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        default: object = inspect.Parameter.empty
        if field.default is not dataclasses.MISSING:
            default = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = _FactoryShown()
        parameters.append((field.name, default))
    return ", ".join(name if default is inspect.Parameter.empty else f"{name}={default!r}" for name, default in parameters)


def test_every_record_in_the_package_is_made_with_the_records_decorator() -> None:
    source = Path(referee.__file__).parent
    standard = [
        path.relative_to(source).as_posix()
        for path in source.rglob("*.py")
        if path.name != "records.py" and "from dataclasses import dataclass" in path.read_text(encoding="utf-8")
    ]
    assert standard == []
    classes = _record_classes()
    assert len(classes) > 80
    for cls in classes:
        signature = inspect.signature(cls)
        shown = ", ".join(
            name if parameter.default is inspect.Parameter.empty else f"{name}={parameter.default!r}"
            for name, parameter in signature.parameters.items()
        )
        assert shown == _expected_signature(cls), cls
        frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
        assert (cls.__setattr__ is not object.__setattr__) == frozen, cls
        assert ("__hash__" in vars(cls) and vars(cls)["__hash__"] is None) == (
            cls.__dataclass_params__.eq and not frozen  # type: ignore[attr-defined]
        ), cls


def test_the_records_module_is_not_compiled() -> None:
    import referee.records

    assert referee.records.__file__ is not None and referee.records.__file__.endswith(".py")
    assert "referee.records" in sys.modules


def test_eq_and_hash_are_compiled_at_their_first_use_and_hash_as_the_standard_ones() -> None:
    @record(frozen=True, slots=True)
    class Pair:
        """Two numbers."""

        a: int
        b: int

    assert not inspect.isfunction(vars(Pair)["__eq__"]) and not inspect.isfunction(vars(Pair)["__hash__"])
    assert {Pair(1, 2), Pair(1, 2), Pair(2, 1)} == {Pair(2, 1), Pair(1, 2)}
    assert inspect.isfunction(vars(Pair)["__eq__"]) and inspect.isfunction(vars(Pair)["__hash__"])
    assert hash(Pair(1, 2)) == hash((1, 2)) and Pair(1, 2) != (1, 2)
    assert Pair.__eq__.__globals__ is globals() and Pair.__hash__.__module__ == __name__


def test_init_is_compiled_at_its_first_use_and_then_is_a_plain_function() -> None:
    @record(frozen=True, slots=True)
    class Late:
        """Constructed first, looked at after."""

        a: int
        b: tuple[int, ...] = ()

    assert not inspect.isfunction(vars(Late)["__init__"])
    assert Late(1) == Late(1, ())
    assert inspect.isfunction(vars(Late)["__init__"])
    assert Late.__init__.__qualname__.endswith("Late.__init__") and Late.__init__.__module__ == __name__
    assert Late.__init__.__annotations__ == {"a": "int", "b": "tuple[int, ...]", "return": None}
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'a'"):
        Late()  # type: ignore[call-arg]
