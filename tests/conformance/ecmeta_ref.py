"""A Python model of vLLM's Mooncake EC connector metadata (the reference ecmeta mirrors).

The dataclasses follow vllm.distributed.ec_transfer.ec_connector.mooncake.metadata: same names,
fields, order, defaults and aggregate. `canonical` is ecmeta's JSON form; `decode` applies
ecmeta's decoding rules and reports the first error's JSON Pointer, as a streaming reader
meets it (values in document order, missing keys at the end of their object).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass
class ECMooncakeLoadSpec:
    mm_hash: str
    nbytes: int
    shape: tuple[int, ...]
    dtype: str
    transfer_id: str
    local: bool = False


@dataclass
class ECMooncakePushSpec:
    mm_hash: str
    nbytes: int
    shape: tuple[int, ...]
    dtype: str
    consumer_zmq: str
    transfer_id: str
    request_id: str = ""


@dataclass
class ECMooncakeConnectorMetadata:
    loads: list[ECMooncakeLoadSpec] = field(default_factory=list)
    pushes: list[ECMooncakePushSpec] = field(default_factory=list)
    freed: Optional[list[str]] = None


@dataclass
class ECMooncakeWorkerMetadata:
    loaded: set[str] = field(default_factory=set)
    failed_loads: set[str] = field(default_factory=set)
    reclaimed: set[str] = field(default_factory=set)
    pending_saves: bool = False
    failed_saves: set[str] = field(default_factory=set)

    def aggregate(self, other: "ECMooncakeWorkerMetadata") -> "ECMooncakeWorkerMetadata":
        return ECMooncakeWorkerMetadata(
            loaded=self.loaded & other.loaded,
            failed_loads=self.failed_loads | other.failed_loads,
            reclaimed=self.reclaimed | other.reclaimed,
            pending_saves=self.pending_saves or other.pending_saves,
            failed_saves=self.failed_saves | other.failed_saves,
        )


def fold(reports: list[Optional[ECMooncakeWorkerMetadata]]) -> Optional[ECMooncakeWorkerMetadata]:
    """What the engine does: fold left in rank order, skipping ranks that reported nothing."""
    present = [r for r in reports if r is not None]
    return functools.reduce(lambda a, b: a.aggregate(b), present) if present else None


TYPES = {
    "load": ECMooncakeLoadSpec,
    "push": ECMooncakePushSpec,
    "connector": ECMooncakeConnectorMetadata,
    "worker": ECMooncakeWorkerMetadata,
}


def as_dict(obj: Any) -> Any:
    """The dataclass as a dict, sets sorted and tuples as lists."""
    if dataclasses.is_dataclass(obj):
        return {f.name: as_dict(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    if isinstance(obj, (list, tuple)):
        return [as_dict(x) for x in obj]
    return obj


def canonical(obj: Any) -> str:
    return json.dumps(as_dict(obj), ensure_ascii=False, separators=(",", ":"))


# ---- decoding by ecmeta's rules -------------------------------------------------------------

class DecodeError(Exception):
    def __init__(self, pointer: str, message: str):
        super().__init__(f"{pointer}: {message}")
        self.pointer = pointer


def _token(key: str) -> str:
    return "/" + key.replace("~", "~0").replace("/", "~1")


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _string(v: Any, at: str) -> str:
    if not isinstance(v, str):
        raise DecodeError(at, "expected string")
    return v


def _u64(v: Any, at: str) -> int:
    if not _is_int(v) or not 0 <= v < 2**64:
        raise DecodeError(at, "expected non-negative integer")
    return v


def _shape(v: Any, at: str) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise DecodeError(at, "expected array of non-negative integers")
    for i, e in enumerate(v):
        if not _is_int(e) or not 0 <= e < 2**63:
            raise DecodeError(f"{at}/{i}", "expected non-negative integer")
    return tuple(v)


def _bool(v: Any, at: str) -> bool:
    if not isinstance(v, bool):
        raise DecodeError(at, "expected true or false")
    return v


def _strings(v: Any, at: str) -> list[str]:
    if not isinstance(v, list):
        raise DecodeError(at, "expected array of strings")
    return [_string(e, f"{at}/{i}") for i, e in enumerate(v)]


def _ids(v: Any, at: str) -> set[str]:
    return set(_strings(v, at))


def _freed(v: Any, at: str) -> Optional[list[str]]:
    return None if v is None else _strings(v, at)


def _objects(cls: type) -> Any:
    def read(v: Any, at: str) -> list[Any]:
        if not isinstance(v, list):
            raise DecodeError(at, "expected array of objects")
        return [_object(cls, e, f"{at}/{i}") for i, e in enumerate(v)]

    return read


READERS: dict[type, dict[str, Any]] = {
    ECMooncakeLoadSpec: {"mm_hash": _string, "nbytes": _u64, "shape": _shape, "dtype": _string,
                         "transfer_id": _string, "local": _bool},
    ECMooncakePushSpec: {"mm_hash": _string, "nbytes": _u64, "shape": _shape, "dtype": _string,
                         "consumer_zmq": _string, "transfer_id": _string, "request_id": _string},
    ECMooncakeConnectorMetadata: {"loads": _objects(ECMooncakeLoadSpec), "pushes": _objects(ECMooncakePushSpec),
                                  "freed": _freed},
    ECMooncakeWorkerMetadata: {"loaded": _ids, "failed_loads": _ids, "reclaimed": _ids, "pending_saves": _bool,
                               "failed_saves": _ids},
}


def _object(cls: type, v: Any, at: str) -> Any:
    if not isinstance(v, dict):
        raise DecodeError(at, "expected object")
    readers = READERS[cls]
    values = {}
    for key, item in v.items():  # unknown keys are ignored
        if key in readers:
            values[key] = readers[key](item, at + _token(key))
    for f in dataclasses.fields(cls):
        no_default = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        if no_default and f.name not in values:
            raise DecodeError(at + _token(f.name), "required key missing")
    return cls(**values)


def decode(kind: str, text: str) -> Any:
    """Decodes `text` as TYPES[kind]; raises DecodeError with the pointer ecmeta reports."""
    return _object(TYPES[kind], json.loads(text, parse_float=lambda s: ("float", s)), "")


def decode_ranks(text: str) -> list[Optional[ECMooncakeWorkerMetadata]]:
    doc = json.loads(text)
    if not isinstance(doc, list):
        raise DecodeError("", "expected array")
    return [None if r is None else _object(ECMooncakeWorkerMetadata, r, f"/{i}") for i, r in enumerate(doc)]
