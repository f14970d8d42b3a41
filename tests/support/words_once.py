#!/usr/bin/env python3
"""Every decode error is worded in include/ecmeta/detail/messages.hpp (docs/decoding.md says so):
no other file of the decoding side (the decoder, the walks, the readers, the Python glue) holds a
string literal that words one ("expected ...", "..., got ...", "... out of range ...")."""

from __future__ import annotations

import re
import sys
from pathlib import Path

DETAIL = Path(__file__).resolve().parents[2] / "include" / "ecmeta" / "detail"
DECODING = ["decode.hpp", "description.hpp", "fault.hpp", "storage.hpp", "json/reader.hpp", "json/scan.hpp",
            "json/dom.hpp", "msgpack/reader.hpp", "msgpack/tags.hpp", "python/reader.hpp", "python/classes.hpp",
            "python/builder.hpp", "python/object.hpp"]
WORDING = re.compile(r'"[^"\n]*(expected |, got |got nothing| out of range|the class has|required there)[^"\n]*"')


def main() -> int:
    found = []
    for name in DECODING:
        for number, line in enumerate((DETAIL / name).read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            if WORDING.search(code):
                found.append(f"detail/{name}:{number}: {line.strip()}")
    for f in found:
        print(f"worded outside messages.hpp: {f}", file=sys.stderr)
    print(f"{len(found)} messages worded outside messages.hpp")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
