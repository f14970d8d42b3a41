"""CPython side of the benchmark: the reference dataclasses of tests/conformance/ecmeta_ref.py,
timed on the same input bytes the C++ side reads."""

from __future__ import annotations

import dataclasses
import functools
import json

import msgpack
import statistics
import sys
import timeit
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "conformance"))
import ecmeta_ref as ref  # noqa: E402


def load_spec(d: dict) -> ref.ECMooncakeLoadSpec:
    return ref.ECMooncakeLoadSpec(**{**d, "shape": tuple(d["shape"])})


def push_spec(d: dict) -> ref.ECMooncakePushSpec:
    return ref.ECMooncakePushSpec(**{**d, "shape": tuple(d["shape"])})


def connector(text: Any) -> ref.ECMooncakeConnectorMetadata:
    d = json.loads(text) if isinstance(text, str) else text
    return ref.ECMooncakeConnectorMetadata(loads=[load_spec(x) for x in d.get("loads", [])],
                                           pushes=[push_spec(x) for x in d.get("pushes", [])],
                                           freed=d.get("freed"))


def worker(text_or_dict: Any) -> ref.ECMooncakeWorkerMetadata:
    d = json.loads(text_or_dict) if isinstance(text_or_dict, str) else text_or_dict
    return ref.ECMooncakeWorkerMetadata(loaded=set(d.get("loaded", [])), failed_loads=set(d.get("failed_loads", [])),
                                        reclaimed=set(d.get("reclaimed", [])),
                                        pending_saves=d.get("pending_saves", False),
                                        failed_saves=set(d.get("failed_saves", [])))


def encode(x: Any) -> str:
    d = dataclasses.asdict(x)
    d = {k: sorted(v) if isinstance(v, set) else v for k, v in d.items()}
    return json.dumps(d, ensure_ascii=False, separators=(",", ":"))


def median_ns(f: Callable[[], Any], repeat: int = 7) -> float:
    number, _ = timeit.Timer(f).autorange()
    number = max(1, number // 4)  # autorange aims at 0.2 s per run; a quarter keeps the suite short
    runs = timeit.Timer(f).repeat(repeat=repeat, number=number)
    return statistics.median(runs) / number * 1e9


def measure(inputs: Path) -> dict[str, float]:
    """Median ns per operation by scenario; keys with a "/comparator" suffix are other comparators
    than `cpython`."""
    out: dict[str, float] = {}
    for m in (16, 10000):
        ranks = [worker(d) for d in json.loads((inputs / f"aggregate_8x{m}.json").read_text())]
        out[f"aggregate_8x{m}"] = median_ns(lambda: functools.reduce(lambda a, b: a.aggregate(b), ranks))
    for kind, n, decode in (("connector", 8, connector), ("connector", 1000, connector),
                            ("worker", 16, worker), ("worker", 10000, worker)):
        text = (inputs / f"{kind}_{n}.json").read_text(encoding="utf-8")
        packed = (inputs / f"{kind}_{n}.msgpack").read_bytes()
        value = decode(text)
        assert encode(value) == text, f"{kind}_{n}: CPython's canonical form differs from ecmeta's"
        assert decode(msgpack.unpackb(packed)) == value, f"{kind}_{n}: the MessagePack form decodes differently"
        out[f"decode_{kind}_{n}"] = median_ns(lambda: decode(text))
        # Python's msgpack C extension, then the same dataclass construction.
        out[f"decode_{kind}_{n}/cpython_msgpack"] = median_ns(lambda: decode(msgpack.unpackb(packed)))
        out[f"encode_{kind}_{n}"] = median_ns(lambda: encode(value))
    return out
