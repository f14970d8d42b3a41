"""What every Python test shares: the reference dataclasses (tests/conformance/ecmeta_ref.py),
and a fixture that makes them vLLM's, registered in sys.modules under vLLM's module path as a
deployment has it. The build tree's package and test extension are on PYTHONPATH (ctest sets it).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))

import ecmeta  # noqa: E402
import ecmeta_ref  # noqa: E402

VLLM_MODULE = "vllm.distributed.ec_transfer.ec_connector.mooncake.metadata"


@pytest.fixture
def vllm():
    """The reference module as vLLM's (already loaded, as in a deployment), for this test only."""
    parents = ["vllm", "vllm.distributed", "vllm.distributed.ec_transfer",
               "vllm.distributed.ec_transfer.ec_connector", "vllm.distributed.ec_transfer.ec_connector.mooncake"]
    added = [name for name in parents + [VLLM_MODULE] if name not in sys.modules]
    for name in parents:
        sys.modules.setdefault(name, type(sys)(name))
    sys.modules[VLLM_MODULE] = ecmeta_ref
    ecmeta.use_default_classes()  # chosen again on next use: now vLLM's
    yield ecmeta_ref
    for name in added:
        del sys.modules[name]
    ecmeta.use_default_classes()


@pytest.fixture(autouse=True)
def default_classes():
    ecmeta.use_default_classes()
    yield
    ecmeta.use_default_classes()
