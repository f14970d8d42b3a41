#!/usr/bin/env python3
"""The `ecmeta` command's contract: exit status, stdout, one line on stderr.

usage: test_cli.py PATH/TO/ecmeta
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

BIN = sys.argv[1]
passed = failed = 0

LOAD = '{"mm_hash":"h","nbytes":4,"shape":[2],"dtype":"int16","transfer_id":"t","local":false}'
WORKER = '{"loaded":["a","b"],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":[]}'


def run(*args: str, stdin: bytes = b"") -> tuple[int, bytes, str]:
    p = subprocess.run([BIN, *args], input=stdin, capture_output=True, timeout=30)
    return p.returncode, p.stdout, p.stderr.decode()


def check(name: str, ok: bool, detail: object = "") -> None:
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}", file=sys.stderr)


def bad(name: str, args: list[str], stdin: bytes, *, pointer: str | None = None, code: int = 2) -> None:
    rc, out, err = run(*args, stdin=stdin)
    lines = err.splitlines()
    ok = rc == code and out == b"" and len(lines) == 1 and lines[0].startswith("ecmeta: ")
    if pointer is not None:  # the command names the document root "(root)"
        ok = ok and lines[0].startswith(f"ecmeta: {pointer or '(root)'}: ")
    check(name, ok, (rc, out, err))


# the demo, --help (CLI11's, of the command or of a subcommand) and --version
rc, out, err = run()
check("demo", rc == 0 and b"What the scheduler sees" in out and err == "", (rc, err))
rc, out, err = run("--help")
check("help", rc == 0 and b"Usage: ecmeta [OPTIONS] [SUBCOMMAND]" in out and b"schema" in out and err == "", (rc, out))
readme = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
block = readme.split("$ ecmeta --help\n", 1)[1].split("```", 1)[0] if "$ ecmeta --help\n" in readme else ""
check("docs/cli.md's usage block is the help", block.encode() == out, block)
rc, out2, _ = run("canon", "load", "--help")
check("help of a subcommand", rc == 0 and b"Usage: ecmeta canon [OPTIONS] TYPE [FILE]" in out2, out2)
rc, out, err = run("--version")
version = re.search(r"ECMETA_VERSION_MAJOR (\d+)\n.*ECMETA_VERSION_MINOR (\d+)\n.*ECMETA_VERSION_PATCH (\d+)",
                    (Path(__file__).resolve().parents[2] / "include/ecmeta/version.hpp").read_text(), re.S)
check("version", rc == 0 and out.decode() == f"ecmeta {'.'.join(version.groups())}\n", (rc, out, err))

# schema: the JSON Schema of each type (tests/schema/ checks what it says)
for kind in ["load", "push", "connector", "worker", "ranks"]:
    rc, out, err = run("schema", kind)
    doc = json.loads(out) if rc == 0 else {}
    check(f"schema {kind}", doc.get("$schema") == "https://json-schema.org/draft/2020-12/schema", (rc, out[:80], err))
bad("schema of an unknown type", ["schema", "lod"], b"")

# canon: stdin, '-', a file, and non-canonical input
rc, out, err = run("canon", "load", stdin=b'{"transfer_id":"t","dtype":"int16","shape":[2],"nbytes":4,"mm_hash":"h"}')
check("canon stdin", rc == 0 and out == (LOAD + "\n").encode(), (rc, out, err))
rc, out, _ = run("canon", "load", "-", stdin=LOAD.encode())
check("canon dash", rc == 0 and out == (LOAD + "\n").encode())
with tempfile.TemporaryDirectory() as d:
    f = Path(d) / "w.json"
    f.write_text('{"loaded":["b","a","b"]}')
    rc, out, _ = run("canon", "worker", str(f))
    check("canon file", rc == 0 and out == (WORKER + "\n").encode(), out)
    bad("missing file", ["canon", "worker", str(Path(d) / "nope.json")], b"")

# msgpack both ways, flags anywhere on the line
rc, packed, _ = run("canon", "worker", "--to", "msgpack", stdin=WORKER.encode())
check("to msgpack", rc == 0 and packed[:1] == b"\x85", packed[:8])
rc, out, _ = run("--from=msgpack", "canon", "worker", stdin=packed)
check("from msgpack", rc == 0 and out == (WORKER + "\n").encode(), out)
rc, out2, _ = run("canon", "--from", "msgpack", "--to", "msgpack", "worker", stdin=packed)
check("msgpack to msgpack", rc == 0 and out2 == packed)

# aggregate
ranks = json.dumps([{"loaded": ["a", "b"]}, None, {"loaded": ["b"], "failed_loads": ["a"], "pending_saves": True}])
rc, out, _ = run("aggregate", stdin=ranks.encode())
check("aggregate", rc == 0 and json.loads(out) == {"loaded": ["b"], "failed_loads": ["a"], "reclaimed": [],
                                                   "pending_saves": True, "failed_saves": []}, out)
rc, out, _ = run("aggregate", stdin=b"[null,null]")
check("aggregate of silence is null", rc == 0 and out == b"null\n", out)
rc, out, _ = run("aggregate", stdin=b"[]")
check("aggregate of nothing is null", rc == 0 and out == b"null\n", out)
rc, out, _ = run("aggregate", "--to", "msgpack", stdin=b"[null]")
check("aggregate null as msgpack nil", rc == 0 and out == b"\xc0", out)

# validate: exit 0 clean, 1 with findings (one per line), 2 on bad input
good = '{"mm_hash":"h","nbytes":4,"shape":[2],"dtype":"int16","transfer_id":"t"}'
rc, out, _ = run("validate", "load", stdin=good.encode())
check("validate clean", rc == 0 and out == b"", (rc, out))
rc, out, _ = run("validate", "load", stdin=good.replace("int16", "torch.int16").replace('"t"', '""').encode())
lines = out.decode().splitlines()
check("validate findings", rc == 1 and len(lines) == 2 and lines[0].startswith("/dtype: ")
      and lines[1].startswith("/transfer_id: "), (rc, out))
rc, packed_load, _ = run("canon", "load", "--to", "msgpack", stdin=good.encode())
rc, out, _ = run("validate", "load", "--from", "msgpack", stdin=packed_load)
check("validate msgpack", rc == 0 and out == b"", (rc, out))
bad("validate bad input", ["validate", "load"], b"{", pointer="")

# bad input and bad usage: exit 2, nothing on stdout, one line naming where
bad("bad value", ["canon", "connector"], b'{"loads":[{"mm_hash":"h","nbytes":-1}]}', pointer="/loads/0/nbytes")
bad("missing key", ["canon", "push"], b'{"mm_hash":"h"}', pointer="/nbytes")
bad("syntax", ["canon", "worker"], b'{"loaded":[tru]}', pointer="/loaded/0")
bad("bad rank", ["aggregate"], b'[null,{"loaded":[1]}]', pointer="/1/loaded/0")
bad("truncated msgpack", ["--from", "msgpack", "canon", "worker"], packed[:-3])
bad("unknown type", ["canon", "lod"], b"{}")
bad("unknown command", ["frobnicate"], b"")
bad("unknown flag", ["--frob", "canon", "load"], b"")
bad("bad format", ["--to", "xml", "canon", "load"], b"")
bad("flag without value", ["canon", "load", "--from"], b"")
bad("too many arguments", ["canon", "load", "a", "b"], b"")
bad("no type", ["canon"], b"")

# decode options
bad("strict refuses unknown keys", ["canon", "worker", "--strict"], b'{"loaded":[],"extra":1}', pointer="/extra")
rc, out, _ = run("canon", "worker", stdin=b'{"loaded":[],"extra":1}')
check("unknown keys ignored by default", rc == 0, (rc, out))
bad("size limit", ["--max-input-bytes", "3", "canon", "worker"], b"{  }")
rc, out, _ = run("--max-input-bytes=2", "canon", "worker", stdin=b"{}")
check("size limit met", rc == 0, (rc, out))
bad("bad size", ["--max-input-bytes", "lots", "canon", "worker"], b"{}")
bad("negative size", ["--max-input-bytes", "-1", "canon", "worker"], b"{}")

# control characters from the input never break the one-line contract
bad("newline in a strict key", ["canon", "worker", "--strict"], rb'{"a\nb":1}', pointer=r"/a\u000ab")
rc, out, _ = run("validate", "worker", stdin=rb'{"loaded":["x\ny"],"failed_loads":["x\ny"]}')
lines = out.decode().splitlines()
check("newline in a finding", rc == 1 and len(lines) == 1 and r"\u000a" in lines[0], (rc, out))

print(f"cli: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
