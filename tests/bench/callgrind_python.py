#!/usr/bin/env python3
"""Instructions per operation of the Python package's conversions under callgrind, which do not move
with the machine's noise: each operation is run N and 2N times in one interpreter under
valgrind --tool=callgrind, and the difference of the two totals, divided by N, is its cost (the
interpreter's start and the setup cancel out). Use it to hold a path steady while changing it, or
to compare two builds (run it once with each build's PYTHONPATH).

usage: callgrind_python.py [-n N] [OPERATION ...]    (PYTHONPATH: the package and ecmeta_bench_py,
                                                     as for bench_python.py; valgrind on PATH)
operations: step_round_trip (a 1000-load, 1000-push step converted to C++ and back, the default),
            step_in, aggregate_8x1000 (ecmeta.aggregate on Python report objects)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SETUP = """
import sys
sys.path.insert(0, {here!r})
import bench_python as b
import ecmeta, ecmeta_bench_py as ext
s = b.step()
reports = b.ranks(8, 1000)
ops = {{
    "step_round_trip": lambda: ext.round_trip(s),
    "step_in": lambda: ext.step_in(s),
    "aggregate_8x1000": lambda: ecmeta.aggregate(reports),
}}
op = ops[sys.argv[1]]
op()  # warm: the classes chosen, the caches filled
for _ in range(int(sys.argv[2])):
    op()
"""


def instructions(operation: str, count: int, workdir: Path) -> int:
    script = workdir / "run.py"
    script.write_text(SETUP.format(here=str(Path(__file__).resolve().parent)))
    out = workdir / f"callgrind.{operation}.{count}"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, str(script),
                    operation, str(count)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=dict(os.environ, PYTHONMALLOC="malloc", PYTHONHASHSEED="0"))
    return int(re.search(r"^summary: (\d+)", out.read_text(), re.M).group(1))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=20)
    parser.add_argument("operations", nargs="*", default=["step_round_trip"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for operation in args.operations:
            once = instructions(operation, args.n, Path(tmp))
            twice = instructions(operation, 2 * args.n, Path(tmp))
            print(f"{operation:20} {(twice - once) / args.n:14,.0f} instructions per operation")
    return 0


if __name__ == "__main__":
    sys.exit(main())
