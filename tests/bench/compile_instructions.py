#!/usr/bin/env python3
"""The compiler's instructions for a translation unit, under callgrind: repeatable whatever else the
machine is doing, where compile times move by tens of percent. Counts cc1plus (the compiler proper,
not the driver or the assembler) compiling each unit with g++ -O2, against the headers of each
include directory given, and prints the counts and their ratios to the first.

usage: compile_instructions.py [--cxx g++] [--unit FILE ...] INCLUDE_DIR [INCLUDE_DIR ...]
  by default the units are tests/bench/compile_time/ecmeta_round_trip.cpp and ecmeta_include.cpp;
  for example, against the last release's headers:
  python3 tests/bench/compile_instructions.py include /tmp/ecmeta-before/include
(A round trip takes some minutes under callgrind.)
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def instructions(cxx: str, unit: Path, include: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.%p"
        subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes", f"--callgrind-out-file={out}",
                        cxx, "-std=c++20", "-O2", "-c", str(unit), "-o", str(Path(tmp) / "unit.o"), f"-I{include}"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        counts = {}
        for f in Path(tmp).glob("callgrind.*"):
            text = f.read_text(errors="replace")
            command = re.search(r"^cmd:\s+(\S+)", text, re.M)
            total = re.search(r"^summary: (\d+)", text, re.M)
            if command and total:
                counts[Path(command.group(1)).name] = int(total.group(1))
        return counts["cc1plus"]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cxx", default="g++")
    parser.add_argument("--unit", type=Path, action="append")
    parser.add_argument("includes", type=Path, nargs="+")
    args = parser.parse_args()
    units = args.unit or [HERE / "compile_time" / "ecmeta_round_trip.cpp", HERE / "compile_time" / "ecmeta_include.cpp"]
    for unit in units:
        counts = [instructions(args.cxx, unit, include) for include in args.includes]
        cells = "  ".join(f"{c / 1e6:10,.0f} M ({c / counts[0]:.3f})" for c in counts)
        print(f"{unit.name:28} {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
