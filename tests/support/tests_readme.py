#!/usr/bin/env python3
"""tests/README.md says where each kind of test goes: every folder under tests/ must have its row
(its name as `name/` in the table), so that a new folder cannot go unexplained."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def main() -> int:
    readme = (TESTS / "README.md").read_text()
    table = "\n".join(line for line in readme.splitlines() if line.startswith("|"))
    missing = sorted(d.name for d in TESTS.iterdir() if d.is_dir() and f"`{d.name}/" not in table)
    for name in missing:
        print(f"tests/README.md has no row for tests/{name}/", file=sys.stderr)
    print(f"{len(missing)} folders without a row")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
