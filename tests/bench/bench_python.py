#!/usr/bin/env python3
"""The Python package's costs against what vLLM pays today, in one run (ratios; the machine is
shared and noisy, so each figure is the best of several repeats, comparators interleaved):

  step:   a connector step of 1000 loads and 1000 pushes, converted to C++ and back, against
          pickle.dumps + pickle.loads of the same object (what a hop through vLLM's executor costs)
  fold:   8 ranks x 1,000 and x 10,000 ids, as vLLM's executor hands them over (each rank's report
          unpickled, so no two ranks share a string object): ecmeta.aggregate on the Python
          objects (their sets folded with CPython's set API), and the fold of reports held in
          C++, against the Python fold loop
  decode: ecmeta.decode of the step's JSON into dataclasses, against json.loads plus construction

usage: bench_python.py [--quick] [--strict]    (PYTHONPATH: the package and ecmeta_bench_py)
  --quick: fewer repeats (CI's short form); --strict: exit 1 when a target is missed
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import sys
import timeit

import ecmeta
import ecmeta_bench_py as ext
from ecmeta import ECMooncakeConnectorMetadata, ECMooncakeLoadSpec, ECMooncakePushSpec, ECMooncakeWorkerMetadata


def step() -> ECMooncakeConnectorMetadata:
    rng = random.Random(7)
    hexid = lambda: f"{rng.getrandbits(256):064x}"  # noqa: E731
    loads = [ECMooncakeLoadSpec(hexid(), 7340032, (1024, 3584), "bfloat16", hexid(), local=i % 4 == 0)
             for i in range(1000)]
    pushes = [ECMooncakePushSpec(hexid(), 7340032, (1024, 3584), "bfloat16", "tcp://10.0.0.2:19019", hexid(),
                                 f"req-{i}") for i in range(1000)]
    return ECMooncakeConnectorMetadata(loads=loads, pushes=pushes, freed=[hexid() for _ in range(250)])


def ranks(count: int, ids: int) -> list:
    rng = random.Random(42)
    pool = [f"{rng.getrandbits(256):064x}" for _ in range(ids + ids // 8)]
    return [pickle.loads(pickle.dumps(ECMooncakeWorkerMetadata(loaded=set(rng.sample(pool, ids)),
                                                               pending_saves=rng.random() < 0.5)))
            for _ in range(count)]


def python_fold(reports: list):
    present = [r for r in reports if r is not None]
    folded = present[0]
    for r in present[1:]:
        folded = folded.aggregate(r)
    return folded


def from_json(text: str) -> ECMooncakeConnectorMetadata:
    d = json.loads(text)
    return ECMooncakeConnectorMetadata(
        loads=[ECMooncakeLoadSpec(l["mm_hash"], l["nbytes"], tuple(l["shape"]), l["dtype"], l["transfer_id"],
                                  l["local"]) for l in d["loads"]],
        pushes=[ECMooncakePushSpec(p["mm_hash"], p["nbytes"], tuple(p["shape"]), p["dtype"], p["consumer_zmq"],
                                   p["transfer_id"], p["request_id"]) for p in d["pushes"]],
        freed=d["freed"])


def best(functions: dict, number: int, repeat: int) -> dict:
    """Seconds per call of each function: the best of `repeat` rounds, the functions interleaved."""
    times = {name: float("inf") for name in functions}
    for _ in range(repeat):
        for name, f in functions.items():
            times[name] = min(times[name], timeit.timeit(f, number=number) / number)
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--strict", action="store_true")
    args = parser.parse_args()
    repeat = 3 if args.quick else 9

    s = step()
    assert ext.round_trip(s) == s and from_json(ecmeta.encode(s)) == s
    reports = ranks(8, 10_000)
    small = ranks(8, 1_000)
    held = ext.hold(reports)
    assert ecmeta.aggregate(reports) == python_fold(reports) and ecmeta.aggregate(small) == python_fold(small)
    text = ecmeta.encode(s)

    t = best({
        "pickle": lambda: pickle.loads(pickle.dumps(s, protocol=pickle.HIGHEST_PROTOCOL)),
        "convert": lambda: ext.round_trip(s),
    }, 5, repeat)
    t |= best({
        "python_fold": lambda: python_fold(reports),
        "held_fold": lambda: held.fold(),
        "aggregate": lambda: ecmeta.aggregate(reports),
        "convert_in": lambda: ext.convert_in(reports),
    }, 3, repeat)
    t |= best({
        "python_fold_1000": lambda: python_fold(small),
        "aggregate_1000": lambda: ecmeta.aggregate(small),
    }, 30, repeat)
    t |= best({
        "json_loads": lambda: from_json(text),
        "decode": lambda: ecmeta.decode(text, ECMooncakeConnectorMetadata),
    }, 5, repeat)

    ids = 8 * 10_000
    rows = [
        ("step 1000+1000: convert to C++ and back / pickle round trip", t["convert"] / t["pickle"], "<=", 0.5),
        ("fold 8x10000: Python loop / fold held in C++", t["python_fold"] / t["held_fold"], ">=", 3.0),
        ("fold 8x1000: Python loop / ecmeta.aggregate on Python objects", t["python_fold_1000"] / t["aggregate_1000"],
         ">=", 2.0),
        ("fold 8x10000: Python loop / ecmeta.aggregate on Python objects", t["python_fold"] / t["aggregate"], ">=", 2.0),
        ("decode step: json.loads + construction / ecmeta.decode", t["json_loads"] / t["decode"], ">=", 1.0),
    ]
    print(f"{'':64} {'ratio':>7}  target")
    missed = 0
    for name, ratio, op, target in rows:
        ok = ratio <= target if op == "<=" else ratio >= target
        missed += not ok
        print(f"{name:64} {ratio:7.2f}  {op} {target}{'' if ok else '  (missed)'}")
    print()
    for name in t:
        print(f"  {name:12} {t[name] * 1e3:9.3f} ms")
    print(f"  per id (8x10000): ecmeta.aggregate {t['aggregate'] / ids * 1e9:.0f} ns, Python loop "
          f"{t['python_fold'] / ids * 1e9:.0f} ns; conversion to C++ {t['convert_in'] / ids * 1e9:.0f} ns, "
          f"the fold in C++ {t['held_fold'] / ids * 1e9:.0f} ns")
    return 1 if args.strict and missed else 0


if __name__ == "__main__":
    sys.exit(main())
