"""The package `ecmeta` as vLLM's code uses it, for `mypy --strict` (ctest python_stubs): vLLM's own
dataclasses go in, and what comes back is typed so that vLLM's code takes it where it expects its
own classes. Each `type: ignore` pins a type the stubs must keep (--strict warns of an unused one)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

import ecmeta


@dataclass
class ECMooncakeLoadSpec:  # as vllm.distributed.ec_transfer.ec_connector.mooncake.metadata declares it
    mm_hash: str
    nbytes: int
    shape: tuple[int, ...]
    dtype: str
    transfer_id: str
    local: bool = False


@dataclass
class ECMooncakeWorkerMetadata:
    loaded: set[str] = field(default_factory=set)
    failed_loads: set[str] = field(default_factory=set)
    reclaimed: set[str] = field(default_factory=set)
    pending_saves: bool = False
    failed_saves: set[str] = field(default_factory=set)

    def aggregate(self, other: ECMooncakeWorkerMetadata) -> ECMooncakeWorkerMetadata:
        return ECMooncakeWorkerMetadata(self.loaded & other.loaded)


def update_connector_output(meta: ECMooncakeWorkerMetadata) -> set[str]:
    return meta.loaded - meta.failed_loads


def scheduler_step(reports: list[Optional[ECMooncakeWorkerMetadata]]) -> set[str]:
    folded = ecmeta.aggregate(reports)
    if folded is None:
        return set()
    return update_connector_output(folded)


def from_dicts(reports: list[Optional[dict[str, list[str]]]]) -> bool:
    folded = ecmeta.aggregate(reports)
    update_connector_output(folded)  # type: ignore[arg-type]  # not known to be vLLM's class
    return folded is not None and folded.pending_saves


def loads_of(text: str, packed: bytes) -> int:
    step = ecmeta.decode(text, "ECMooncakeConnectorMetadata")
    again = ecmeta.decode_msgpack(packed, ecmeta.ECMooncakeConnectorMetadata)
    nbytes: int = sum(load.nbytes for load in step.loads) + len(again.pushes)
    freed: Optional[int] = None if step.freed is None else len(step.freed)
    ranks = ecmeta.decode(text, "ranks")
    loaded = [r.loaded for r in ranks if r is not None]
    wrong: str = step.loads  # type: ignore[assignment]
    return nbytes + (freed or 0) + len(loaded) + len(wrong)


def wire(load: ECMooncakeLoadSpec) -> tuple[str, bytes, list[tuple[str, str]], str, str]:
    text: str = ecmeta.encode(load)
    packed: bytes = ecmeta.encode_msgpack(load)
    not_bytes: bytes = ecmeta.encode(load)  # type: ignore[assignment]
    problems = ecmeta.validate(load)
    return text, packed + not_bytes, problems, ecmeta.get_include(), ecmeta.get_cmake_dir()


ecmeta.use_classes(ECMooncakeLoadSpec, ecmeta.ECMooncakePushSpec, ecmeta.ECMooncakeConnectorMetadata,
                   ECMooncakeWorkerMetadata)
ecmeta.use_default_classes()
