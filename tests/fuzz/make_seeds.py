#!/usr/bin/env python3
"""Writes the seed corpus in tests/fuzz/corpus/: the first byte picks the type (0 load, 1 push,
2 connector, 3 worker, 4 rank list), the rest is the input. Valid JSON seeds are also converted
to MessagePack with the ecmeta command.

usage: make_seeds.py PATH/TO/ecmeta
"""

import hashlib
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
H = "9f2c4e1a7b3d5f60817263544536271809a1b2c3d4e5f60718293a4b5c6d7e8f"
LOAD = f'{{"mm_hash":"{H}","nbytes":7340032,"shape":[1024,3584],"dtype":"bfloat16","transfer_id":"5b0e6c1f","local":true}}'
PUSH = (f'{{"mm_hash":"{H}","nbytes":4,"shape":[2],"dtype":"int16","consumer_zmq":"tcp://[::1]:5555",'
        '"transfer_id":"req-1:0","request_id":"req-1"}')
WORKER = '{"loaded":["a","b"],"failed_loads":["c"],"reclaimed":[],"pending_saves":true,"failed_saves":["req-9"]}'

VALID = [
    (0, LOAD), (0, LOAD.replace(',"local":true', "")), (1, PUSH),
    (2, f'{{"loads":[{LOAD}],"pushes":[{PUSH}],"freed":null}}'), (2, '{"loads":[],"pushes":[],"freed":[]}'),
    (2, '{"freed":["x","x","\\u00e9\\ud83d\\ude00"],"num_token":3,"extra":{"deep":[[[1.5]]]}}'),
    (3, WORKER), (3, '{}'), (3, '{"loaded":["z","a","z"],"loaded":["q"]}'),
    (4, f'[null,{WORKER},{{}}]'), (4, '[]'),
]
INVALID = [
    (0, '{"mm_hash":"h","nbytes":8.0}'), (0, '{"mm_hash":"h","nbytes":-1}'), (0, '{"nbytes":18446744073709551616}'),
    (0, '{"shape":[9223372036854775808]}'), (1, '{"mm_hash":"h"}'), (2, '{"loads":[tru]}'), (2, '{"loads":{}}'),
    (3, '{"pending_saves":1}'), (3, '{"loaded":["\\ud800"]}'), (3, '{"loaded":["a",]}'), (3, '{} x'),
    (4, '[null,{"loaded":[1]}]'), (3, '{"x":' + "[" * 200 + "]" * 200 + "}"),
    # Well-formed JSON of the wrong types, one of each kind of value, for from_json's walk of a DOM too.
    (0, '{"mm_hash":["h"]}'), (0, '{"mm_hash":{}}'), (0, '{"local":null}'), (0, '{"dtype":false}'),
    (1, '{"nbytes":"4"}'), (1, '{"shape":[2,-3]}'), (2, '{"freed":3}'), (2, '{"freed":[null]}'),
    (2, '{"pushes":[{"shape":[1e3]}]}'), (3, '{"loaded":"a"}'), (3, '{"failed_saves":[true]}'),
    (4, '[{"pending_saves":null},5]'), (4, '{"x":1}'),
]
HOSTILE_MSGPACK = [
    (2, bytes([0x81, 0xA5]) + b"loads" + bytes([0xDD, 0xFF, 0xFF, 0xFF, 0xFF])),
    (3, bytes([0x81, 0xA1, ord("x")]) + bytes([0x91]) * 300 + bytes([0xC0])),
    (3, bytes([0x81, 0xA6]) + b"loaded" + bytes([0x91, 0xC4, 0x01, 0x61])),
    (3, bytes([0xDF, 0xFF, 0xFF, 0xFF, 0xFF])), (4, bytes([0xC1])),
]


def write(kind: str, tag: int, payload: bytes) -> None:
    data = bytes([tag]) + payload
    d = HERE / "corpus" / kind
    d.mkdir(parents=True, exist_ok=True)
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main() -> None:
    ecmeta = sys.argv[1]
    names = ["load", "push", "connector", "worker"]
    for tag, text in VALID + INVALID:
        write("decode_json", tag, text.encode())
    for tag, text in VALID:
        if tag == 4:
            continue  # `canon` takes one message; rank lists come from `aggregate`-shaped seeds below
        packed = subprocess.run([ecmeta, "canon", names[tag], "--to", "msgpack"], input=text.encode(),
                                capture_output=True, check=True).stdout
        write("decode_msgpack", tag, packed)
    write("decode_msgpack", 4, bytes([0x92, 0xC0, 0x80]))  # [null, {}]
    for tag, raw in HOSTILE_MSGPACK:
        write("decode_msgpack", tag, raw)


if __name__ == "__main__":
    main()
