#!/usr/bin/env python3
"""The library's instructions per operation under callgrind, which do not move with the machine's
noise: callgrind_ops.cpp, built with g++ -O2 against each include directory given, runs an
operation of the bench's scenarios N and 2N times under valgrind --tool=callgrind; the difference
of the two totals, divided by N, is one operation's cost. Prints each operation's count per
include directory, and the ratios to the first.

usage: callgrind_ops.py [--cxx g++] [-n N] [--op NAME ...] INCLUDE_DIR [INCLUDE_DIR ...]
  for example, the success paths and the error path against an earlier tree's headers:
  python3 tests/bench/callgrind_ops.py /tmp/ecmeta-before/include include
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEFAULT = [f"{what}_{kind}" for kind in ("connector_8", "connector_1000", "worker_16", "worker_10000")
           for what in ("decode", "decode_into", "decode_msgpack", "decode_msgpack_into", "encode", "encode_into",
                        "encode_msgpack")] + ["refuse_connector_1KiB"]


def build(cxx: str, include: Path, out: Path) -> Path:
    subprocess.run([cxx, "-std=c++20", "-O2", "-DNDEBUG", f"-I{include}", str(HERE / "callgrind_ops.cpp"), "-o",
                    str(out)], check=True)
    return out


def total(program: Path, op: str, n: int, tmp: Path) -> int:
    out = tmp / f"callgrind.{program.name}.{op}.{n}"
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", str(program), op, str(n)],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return int(re.search(r"^summary: (\d+)", out.read_text(), re.M).group(1))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cxx", default="g++")
    parser.add_argument("-n", type=int, default=10)
    parser.add_argument("--op", action="append")
    parser.add_argument("includes", type=Path, nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        programs = [build(args.cxx, include, tmp / f"ops{i}") for i, include in enumerate(args.includes)]
        print(f"{'operation':32}" + "".join(f"{str(i)[-24:]:>26}" for i in args.includes))
        for op in args.op or DEFAULT:
            counts = [(total(p, op, 2 * args.n, tmp) - total(p, op, args.n, tmp)) / args.n for p in programs]
            print(f"{op:32}" + "".join(f"{c:14,.0f} ({c / counts[0]:.3f})" for c in counts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
