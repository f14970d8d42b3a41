"""ecmeta for Python: vLLM's Mooncake encoder-cache connector metadata, converted, folded,
encoded and validated by ecmeta's C++.

The four dataclasses have the names, fields, order, defaults and ``aggregate`` of vLLM's
(``vllm.distributed.ec_transfer.ec_connector.mooncake.metadata``); the functions take vLLM's
objects, these, any object with the same attributes, or dicts with the wire form's keys, and
return instances of vLLM's classes when vLLM is loaded, else of these (``use_classes`` chooses
others).

    >>> import ecmeta
    >>> r = ecmeta.ECMooncakeWorkerMetadata(loaded={"a", "b"})
    >>> ecmeta.aggregate([r, None, ecmeta.ECMooncakeWorkerMetadata(loaded={"b"})]).loaded
    {'b'}
    >>> ecmeta.encode(ecmeta.ECMooncakeWorkerMetadata(loaded={"b", "a"}))
    '{"loaded":["a","b"],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":[]}'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional


class DecodeError(ValueError):
    """Input that is not one of the types: ``pointer`` is the JSON Pointer of the place (also at
    the start of the message), ``offset`` the byte offset in encoded input, or None."""

    pointer: str = ""
    offset: Optional[int] = None


class EncodeError(ValueError):
    """A value with no wire form (a string that is not UTF-8): ``pointer`` names it."""

    pointer: str = ""
    offset: Optional[int] = None


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


def get_include() -> str:
    """The folder that holds ``ecmeta/*.hpp`` in an installed wheel: the include path of an extension
    built against ecmeta's pybind11 casters (``#include <ecmeta/pybind11.hpp>``)."""
    return _installed("include")


def get_cmake_dir() -> str:
    """The folder of ecmeta's CMake package in an installed wheel, for ``-Decmeta_DIR=...``:
    ``find_package(ecmeta CONFIG COMPONENTS pybind11)`` then gives ``ecmeta::pybind11``."""
    return _installed("share/cmake/ecmeta")


def _installed(folder: str) -> str:
    path = Path(__file__).resolve().parent / folder
    if not path.is_dir():
        raise FileNotFoundError(f"{path}: this ecmeta was not installed from a wheel; CMake installs the headers and "
                                "the CMake package under its own prefix")
    return str(path)


from ._ecmeta import (  # noqa: E402  (the extension builds the classes above)
    __version__,
    aggregate,
    decode,
    decode_msgpack,
    encode,
    encode_msgpack,
    json_schema,
    use_classes,
    use_default_classes,
    validate,
)

__all__ = [
    "DecodeError",
    "EncodeError",
    "ECMooncakeLoadSpec",
    "ECMooncakePushSpec",
    "ECMooncakeConnectorMetadata",
    "ECMooncakeWorkerMetadata",
    "__version__",
    "aggregate",
    "decode",
    "decode_msgpack",
    "encode",
    "encode_msgpack",
    "get_cmake_dir",
    "get_include",
    "json_schema",
    "use_classes",
    "use_default_classes",
    "validate",
]
