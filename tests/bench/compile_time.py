#!/usr/bin/env python3
"""The compile-time comparison: one translation unit that round-trips the four types through JSON
and MessagePack, written with ecmeta, with nlohmann's NLOHMANN_DEFINE_TYPE_* macros and with glaze,
and each library's header included alone; each compiled --runs times, interleaved, with g++ -O2
(ecmeta and nlohmann as C++20, glaze as C++23, which glaze 7 needs). Prints the median wall time and
peak compiler memory of each, and the ratios the adoption issue sets targets for.

usage: compile_time.py [--runs N] [--cxx g++] [--glaze DIR] [--nlohmann DIR]
  --glaze: glaze 7.2.2's include directory (from its release archive); without it, no glaze row
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent / "compile_time"
INCLUDE = Path(__file__).resolve().parents[2] / "include"


def compile_once(cxx: str, std: str, source: Path, includes: list[str], out: Path) -> tuple[float, float]:
    """Wall seconds and peak resident MiB of one compile (the compiler's own, from wait4)."""
    cmd = [cxx, f"-std={std}", "-O2", "-c", str(source), "-o", str(out)] + [f"-I{i}" for i in includes]
    start = time.perf_counter()
    proc = subprocess.Popen(cmd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if status != 0:
        sys.exit(f"compile failed: {' '.join(cmd)}")
    return wall, usage.ru_maxrss / 1024


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--glaze", help="glaze's include directory")
    args = ap.parse_args()
    units = {
        "ecmeta round trip": ("c++20", HERE / "ecmeta_round_trip.cpp", [str(INCLUDE)]),
        "nlohmann round trip": ("c++20", HERE / "nlohmann_round_trip.cpp", []),
        "ecmeta.hpp alone": ("c++20", HERE / "ecmeta_include.cpp", [str(INCLUDE)]),
        "nlohmann/json.hpp alone": ("c++20", HERE / "nlohmann_include.cpp", []),
    }
    if args.glaze:
        units["glaze round trip"] = ("c++23", HERE / "glaze_round_trip.cpp", [args.glaze])
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in units}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.runs):
            for name, (std, source, includes) in units.items():  # interleaved: load hits all alike
                results[name].append(compile_once(args.cxx, std, source, includes, Path(tmp) / "unit.o"))
    medians = {n: (statistics.median(w for w, _ in r), statistics.median(m for _, m in r)) for n, r in results.items()}
    print(f"{'unit':<26}{'seconds':>10}{'MiB':>10}   (median of {args.runs}, {args.cxx} -O2)")
    for name, (wall, mib) in medians.items():
        print(f"{name:<26}{wall:>10.2f}{mib:>10.0f}")
    ratio = lambda a, b, i: medians[a][i] / medians[b][i]  # noqa: E731
    print(f"ecmeta / nlohmann round trip, time:    {ratio('ecmeta round trip', 'nlohmann round trip', 0):.2f}  (target <= 0.7)")
    if args.glaze:
        print(f"ecmeta / glaze round trip, time:       {ratio('ecmeta round trip', 'glaze round trip', 0):.2f}  (target <= 0.8)")
    print(f"ecmeta.hpp / nlohmann/json.hpp alone:  {ratio('ecmeta.hpp alone', 'nlohmann/json.hpp alone', 0):.2f}  (target <= 0.6)")
    print(f"ecmeta / nlohmann round trip, memory:  {ratio('ecmeta round trip', 'nlohmann round trip', 1):.2f}  (target <= 1.0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
