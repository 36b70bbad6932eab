"""One generic codec between plain-data dataclasses and JSON-ready Python values.

Actions, chance outcomes, views and outcomes are frozen dataclasses of ``str``, ``int``,
``bool``, ``None``, tuples and nested dataclasses. ``to_data`` turns one into dicts, lists and
scalars, each dataclass tagged with ``"type"``; ``from_data`` reverses it, checking every field
against the type hints and refusing anything else with ``CodecError``. There are no per-game
mirror classes: a game only lists the dataclasses it accepts.

This module owns the tag naming rule (``TAG`` class attribute, else the class name in
snake_case). It must never import anything outside the standard library.
"""

from __future__ import annotations

import dataclasses
import operator
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from engine.errors import CodecError

T = TypeVar("T")

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def tag_of(cls: type) -> str:
    """The ``"type"`` tag of a dataclass: its ``TAG`` attribute, else snake_case of its name."""
    tag = cls.__dict__.get("TAG")
    if isinstance(tag, str):
        return tag
    return _CAMEL.sub("_", cls.__name__).lower()


@cache
def _fields(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        has_default = (
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        )
        out.append((f.name, hints[f.name], has_default))
    return tuple(out)


_SCALARS = (str, int, bool, float, type(None))
# Per-class (tag, field names), computed once: a host renders a view and the legal actions for
# every seat on every move, so this walk is on the hot path.
_SPECS: dict[type, tuple[str, tuple[str, ...]]] = {}


def to_data(obj: Any) -> Any:
    """Encode plain data into JSON-ready values; dataclasses get a ``"type"`` tag."""
    t = type(obj)
    if t in _SCALARS:
        return obj
    spec = _SPECS.get(t)
    if spec is not None:
        out: dict[str, Any] = {"type": spec[0]}
        for name in spec[1]:
            value = getattr(obj, name)
            out[name] = value if type(value) in _SCALARS else to_data(value)
        return out
    if t is tuple or t is list:
        return [x if type(x) in _SCALARS else to_data(x) for x in obj]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        _SPECS[t] = (tag_of(t), tuple(f.name for f in dataclasses.fields(obj)))
        return to_data(obj)
    if isinstance(obj, _SCALARS):  # subclasses of int or str (an IntEnum)
        return obj
    if isinstance(obj, (tuple, list)):
        return [to_data(x) for x in obj]
    if isinstance(obj, Mapping):
        return {str(k): to_data(v) for k, v in obj.items()}
    raise CodecError(f"cannot encode {t.__name__}")


def plain_hint(hint: Any) -> bool:
    """True when, by its type hints, a value can never hold a dataclass (nor a mapping), so a
    JSON encoder that takes tuples and lists may be handed it as it is."""
    if hint in _SCALARS or hint is None:
        return True
    if isinstance(hint, type):
        # An IntEnum or a str subclass encodes as its value; a dataclass must be walked.
        return issubclass(hint, (int, str)) and not dataclasses.is_dataclass(hint)
    origin = get_origin(hint)
    if origin is Literal:
        return True
    if origin is Union or origin is types.UnionType or origin is tuple:
        return all(a is Ellipsis or plain_hint(a) for a in get_args(hint))
    return False  # Any, mappings, lists, anything unknown: walked


# Per class, for ``to_wire``: (tag, field names, one getter of every field, the names of the
# fields that may hold a dataclass and so are walked).
_WIRE: dict[type, tuple[str, tuple[str, ...], Callable[[Any], tuple[Any, ...]],
                        tuple[str, ...]]] = {}


def _wire_spec(cls: type) -> tuple[str, tuple[str, ...], Callable[[Any], tuple[Any, ...]],
                                   tuple[str, ...]]:
    names = tuple(f.name for f in dataclasses.fields(cls))
    try:
        hints = typing.get_type_hints(cls)
    except (NameError, TypeError):  # unresolvable hints: walk every field
        hints = {}
    walk = tuple(n for n in names if n not in hints or not plain_hint(hints[n]))
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        get: Callable[[Any], tuple[Any, ...]] = lambda obj: (one(obj),)  # noqa: E731
    elif names:
        get = operator.attrgetter(*names)
    else:
        get = lambda obj: ()  # noqa: E731
    spec = _WIRE[cls] = (tag_of(cls), names, get, walk)
    return spec


def make_frozen(cls: type[T], /, **fields: Any) -> T:
    """``cls(**fields)`` for a frozen dataclass given every one of its fields in the class's
    order, built without the generated ``__init__``, which stores each field through
    ``object.__setattr__``: for a view of twenty-odd fields, built for every seat on every
    move, that cost as much as the rest of the view. The instance is the same (the fields
    live in its ``__dict__``, in that order, which ``to_wire`` relies on); the games' view
    tests compare the two ways."""
    obj = object.__new__(cls)
    object.__setattr__(obj, "__dict__", fields)
    return obj


Memo = dict[int, tuple[Any, Any]]  # id(value) -> (value, its to_wire), for one render


def to_wire(obj: Any, memo: Memo | None = None) -> Any:
    """``to_data`` for a JSON encoder that takes tuples (msgspec): the same JSON, faster.

    The host renders a view and the legal actions for every seat on every move. Here a
    dataclass field whose type hints say it cannot hold a dataclass (a board of ints, a tuple
    of card codes) is handed to the encoder as it is instead of being walked item by item;
    the result may hold tuples, so it is only for encoding, never for comparing with decoded
    JSON. Encoding it gives byte for byte what encoding ``to_data`` gives (a test checks).

    ``memo``, shared by the views of one state, walks a field's value once when the game
    hands every seat the same object (the board's sequences, the tricks played): the memo
    holds the value too, so its id cannot be reused while the memo lives. Values are never
    changed (they are frozen), which is what makes sharing their encoding sound.
    """
    t = type(obj)
    spec = _WIRE.get(t)
    if spec is None:
        if t in _SCALARS:
            return obj
        if t is tuple or t is list:
            return _wire_items(obj, memo)
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            spec = _wire_spec(t)
        else:
            return to_data(obj)
    tag, names, get, walk = spec
    fields = getattr(obj, "__dict__", None)
    if fields is not None and len(fields) == len(names):
        # A dataclass's __init__ sets its fields in order, so its __dict__ is the fields
        # (one C-level copy; a game that fills a view in without __init__ must keep that
        # order, which the conformance tests check); anything else (slots, extra
        # attributes) is read field by field.
        out: dict[str, Any] = {"type": tag, **fields}
    else:
        out = {"type": tag}
        out.update(zip(names, get(obj), strict=True))
    for name in walk:
        value = out[name]
        if type(value) in _SCALARS:
            continue
        if memo is None:
            out[name] = to_wire(value)
            continue
        hit = memo.get(id(value))
        if hit is None or hit[0] is not value:
            hit = memo[id(value)] = (value, to_wire(value, memo))
        out[name] = hit[1]
    return out


def _wire_items(items: Iterable[Any], memo: Memo | None = None) -> list[Any]:
    """A tuple's items, a dataclass with no field to walk (a card, a bid) done in line: the
    hands, tricks and legal actions of every view are lists of those."""
    out: list[Any] = []
    for x in items:
        t = type(x)
        if t in _SCALARS:
            out.append(x)
            continue
        spec = _WIRE.get(t)
        fields = getattr(x, "__dict__", None)
        if spec is not None and not spec[3] and fields is not None and \
                len(fields) == len(spec[1]):
            out.append({"type": spec[0], **fields})
        else:
            out.append(to_wire(x, memo))
    return out


class Registry:
    """The dataclasses one decoder accepts at the top level, by tag."""

    def __init__(self, classes: Iterable[type]) -> None:
        self.by_tag: dict[str, type] = {}
        for cls in classes:
            tag = tag_of(cls)
            if tag in self.by_tag:
                raise ValueError(f"duplicate tag {tag!r}")
            self.by_tag[tag] = cls

    def decode(self, data: Any) -> Any:
        """Decode a tagged dict into one of the registered classes, or raise CodecError."""
        if not isinstance(data, Mapping):
            raise CodecError("expected an object with a 'type'")
        tag = data.get("type")
        if not isinstance(tag, str) or tag not in self.by_tag:
            raise CodecError(f"unknown type {tag!r}" if isinstance(tag, str) else "missing 'type'")
        return _decode_dataclass(self.by_tag[tag], data, "")


def from_data(cls: type[T], data: Any) -> T:
    """Decode ``data`` as an instance of dataclass ``cls`` (its tag must match if present)."""
    return typing.cast(T, _decode(cls, data, ""))


def _decode_dataclass(cls: type, data: Any, path: str) -> Any:
    if not isinstance(data, Mapping):
        raise CodecError(f"{path or 'value'}: expected an object")
    tag = data.get("type", tag_of(cls))
    if tag != tag_of(cls):
        raise CodecError(f"{path or 'value'}: expected type {tag_of(cls)!r}, got {tag!r}")
    known = _fields(cls)
    names = {n for n, _, _ in known}
    extra = [k for k in data if k != "type" and k not in names]
    if extra:
        raise CodecError(f"{path or tag}: unknown field {sorted(map(str, extra))[0]!r}")
    kwargs = {}
    for name, hint, has_default in known:
        if name in data:
            kwargs[name] = _decode(hint, data[name], f"{path}.{name}" if path else name)
        elif not has_default:
            raise CodecError(f"{path or tag}: missing field {name!r}")
    return cls(**kwargs)


def _decode(hint: Any, data: Any, path: str) -> Any:
    where = path or "value"
    if hint is Any:
        return data
    if hint is None or hint is type(None):
        if data is not None:
            raise CodecError(f"{where}: expected null")
        return None
    if hint is bool:
        if not isinstance(data, bool):
            raise CodecError(f"{where}: expected a boolean")
        return data
    if hint is int:
        if not isinstance(data, int) or isinstance(data, bool):
            raise CodecError(f"{where}: expected an integer")
        return data
    if hint is float:
        if not isinstance(data, (int, float)) or isinstance(data, bool):
            raise CodecError(f"{where}: expected a number")
        return float(data)
    if hint is str:
        if not isinstance(data, str):
            raise CodecError(f"{where}: expected a string")
        return data
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _decode_dataclass(hint, data, path)
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is Literal:
        if data not in args or type(data) not in {type(a) for a in args}:
            raise CodecError(f"{where}: expected one of {', '.join(map(repr, args))}")
        return data
    if origin is Union or origin is types.UnionType:
        return _decode_union(args, data, path)
    if origin is tuple:
        if not isinstance(data, (list, tuple)):
            raise CodecError(f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], x, f"{where}[{i}]") for i, x in enumerate(data))
        if len(args) != len(data):
            raise CodecError(f"{where}: expected {len(args)} items")
        return tuple(_decode(a, x, f"{where}[{i}]") for i, (a, x) in enumerate(zip(args, data, strict=False)))
    if origin in (dict, Mapping):
        if not isinstance(data, Mapping):
            raise CodecError(f"{where}: expected an object")
        kt, vt = args
        return {_decode(kt, k, where): _decode(vt, v, f"{where}.{k}") for k, v in data.items()}
    raise CodecError(f"{where}: unsupported type {hint!r}")


def _decode_union(args: tuple[Any, ...], data: Any, path: str) -> Any:
    if data is None and type(None) in args:
        return None
    classes = [a for a in args if isinstance(a, type) and dataclasses.is_dataclass(a)]
    if classes and isinstance(data, Mapping) and "type" in data:
        for cls in classes:
            if tag_of(cls) == data["type"]:
                return _decode_dataclass(cls, data, path)
        raise CodecError(f"{path or 'value'}: unknown type {data['type']!r}")
    errors = []
    for a in args:
        if a is type(None):
            continue
        try:
            return _decode(a, data, path)
        except CodecError as e:
            errors.append(str(e))
    raise CodecError(errors[0] if errors else f"{path or 'value'}: no type matches")
