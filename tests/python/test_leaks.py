"""No leak: conversions and folds, good and refused, many times over, leave the process's resident
memory and Python's traced memory flat, and every object's reference count as it was."""

from __future__ import annotations

import ctypes
import gc
import sys
import tracemalloc

import ecmeta
import ecmeta_casters as ext


def resident_kib() -> int:
    """After handing freed memory back (glibc keeps freed blocks, which is no leak)."""
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def small_step(i: int) -> ecmeta.ECMooncakeConnectorMetadata:
    return ecmeta.ECMooncakeConnectorMetadata(
        loads=[ecmeta.ECMooncakeLoadSpec(f"h{i}", 4, (2,), "bfloat16", "t")],
        pushes=[ecmeta.ECMooncakePushSpec("p", 2, (1,), "bfloat16", "tcp://h:1", "u", "r")], freed=["x"])


def big_step() -> ecmeta.ECMooncakeConnectorMetadata:
    loads = [ecmeta.ECMooncakeLoadSpec(f"{i:064x}", 7340032, (1024, 3584), "bfloat16", f"t{i}") for i in range(1000)]
    pushes = [ecmeta.ECMooncakePushSpec(f"{i:064x}", 7340032, (1024, 3584), "bfloat16", "tcp://10.0.0.2:19019",
                                        f"u{i}", f"r{i}") for i in range(1000)]
    return ecmeta.ECMooncakeConnectorMetadata(loads=loads, pushes=pushes, freed=[f"{i:064x}" for i in range(250)])


def parts(value, depth: int = 4) -> list:
    """value and, a few levels down, what it holds (the first element of each list or set), whose
    reference counts a leaked reference inside a conversion would raise."""
    found = [value]
    if depth == 0:
        return found
    if hasattr(value, "__dataclass_fields__"):
        inner = [getattr(value, name) for name in value.__dataclass_fields__]
    elif isinstance(value, dict):
        inner = list(value.values())
    elif isinstance(value, (list, tuple, set, frozenset)):
        inner = [next(iter(value))] if value else []
    else:
        inner = []
    for item in inner:
        found += parts(item, depth - 1)
    return found


def run(rounds: int, step, reports, bad) -> None:
    for i in range(rounds):
        ext.connector(step)
        ecmeta.aggregate(reports)
        ecmeta.encode_msgpack(step)
        try:
            ext.connector(bad)
        except (ecmeta.DecodeError, TypeError):
            pass


def check_flat(rounds: int, step, reports, bad) -> None:
    run(rounds // 10, step, reports, bad)  # warm: caches, interned names, the classes chosen
    gc.collect()
    # Objects shared with the rest of the process (small ints, interned strings) are left out.
    held = [o for o in parts(step) + parts(reports) + parts(bad) if sys.getrefcount(o) < 100]
    counts = [sys.getrefcount(o) for o in held]
    singletons = [sys.getrefcount(o) for o in (None, True, False)]
    rss = resident_kib()
    tracemalloc.start()
    traced = tracemalloc.get_traced_memory()[0]
    run(rounds, step, reports, bad)
    gc.collect()
    grown = tracemalloc.get_traced_memory()[0] - traced
    tracemalloc.stop()
    assert grown < 64 * 1024, f"Python's traced memory grew by {grown} bytes"
    assert resident_kib() - rss < 2048, f"resident memory grew by {resident_kib() - rss} KiB"
    assert [sys.getrefcount(o) for o in held] == counts
    # None, True and False are referred to from everywhere: a leak per round would show as thousands.
    assert all(abs(sys.getrefcount(o) - n) < 100 for o, n in zip((None, True, False), singletons))


def test_small_messages_100000_times():
    reports = [ecmeta.ECMooncakeWorkerMetadata(loaded={"a", "b"}), None,
               ecmeta.ECMooncakeWorkerMetadata(loaded={"b"}, pending_saves=True)]
    bad = {"loads": [{"mm_hash": "h", "nbytes": -1, "shape": [], "dtype": "x", "transfer_id": "t"}]}
    check_flat(100_000, small_step(0), reports, bad)


def test_a_1000_load_step_300_times():
    reports = [ecmeta.ECMooncakeWorkerMetadata(loaded={f"{i:064x}" for i in range(1000)}) for _ in range(8)]
    bad = {"loads": [{"mm_hash": "h", "nbytes": 1, "shape": [], "dtype": "x", "transfer_id": "t"}] * 999 + [5]}
    check_flat(300, big_step(), reports, bad)
