#!/usr/bin/env python3
"""docs/wire-format.md's "What each field means" table, generated from the JSON Schema `ecmeta schema` exports
(itself generated from detail/schema.hpp): a field's meaning is written once, in the schema table.

usage: field_table.py PATH/TO/ecmeta [--write]
Checks that docs/wire-format.md holds the generated table (exit 1 if not); --write puts it there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "docs" / "wire-format.md"
HEADER = "| type | field | meaning |\n|---|---|---|\n"


def table(ecmeta: str) -> str:
    rows = []
    for kind in ("load", "push", "connector", "worker"):
        schema = json.loads(subprocess.run([ecmeta, "schema", kind], check=True, capture_output=True).stdout)
        first = True
        for name, prop in schema["properties"].items():
            field = f"`{name}`"
            if "default" in prop:
                field += f" = `{json.dumps(prop['default'])}`"
            meaning = prop["description"].replace("|", "\\|")
            rows.append(f"| {'`' + schema['title'] + '`' if first else ''} | {field} | {meaning} |\n")
            first = False
    return HEADER + "".join(rows)


def main() -> int:
    ecmeta, write = sys.argv[1], "--write" in sys.argv[2:]
    text = README.read_text()
    start = text.index(HEADER)
    end = text.index("\n\n", start) + 1
    wanted = table(ecmeta)
    if text[start:end] == wanted:
        print("1 passed, 0 failed")
        return 0
    if write:
        README.write_text(text[:start] + wanted + text[end:])
        print(f"{README.name}: field table written")
        return 0
    print(f"{README.name}'s field table is not the schema's; run tests/cli/field_table.py PATH/TO/ecmeta --write",
          file=sys.stderr)
    print("0 passed, 1 failed")
    return 1


if __name__ == "__main__":
    sys.exit(main())
