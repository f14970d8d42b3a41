"""`pip install` as a user runs it, offline with Debian's tools: the sdist carries what it needs to
build the wheel; the wheel (and `pip install .` from the source tree) installs into a fresh virtual
environment, where the package's own tests pass on it and an extension builds against the casters
from the wheel's headers and CMake package; building leaves nothing in the source tree that git
does not ignore. Environment: ECMETA_TEST_EXTENSIONS (the test extension's folder), CMAKE, CXX."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).resolve().parent
SUITES = ["test_casters.py", "test_classes.py", "test_fold.py"]


def run(*command, **kwargs):
    return subprocess.run([str(c) for c in command], check=True, **kwargs)


def untracked():
    """What git does not ignore and does not track, and what it tracks that changed (None without git)."""
    if shutil.which("git") is None or not (SOURCE / ".git").exists():
        return None
    return run("git", "-C", SOURCE, "status", "--porcelain", capture_output=True, text=True).stdout


def clean_environment(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(extra)
    return env


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The sdist, a wheel built from it, and a virtual environment with `pip install .` of the tree."""
    tmp = tmp_path_factory.mktemp("wheel")
    before = untracked()
    env = clean_environment()
    run(sys.executable, "-m", "build", "--sdist", "--no-isolation", "--skip-dependency-check", "--outdir",
        tmp / "dist", SOURCE, env=env)
    sdist = next((tmp / "dist").glob("ecmeta-*.tar.gz"))
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    run(*pip, "wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w", tmp / "wheels", sdist, env=env)
    wheel = next((tmp / "wheels").glob("ecmeta-*.whl"))
    venv = tmp / "venv"
    run(sys.executable, "-m", "venv", "--system-site-packages", venv)
    python = venv / "bin" / "python"
    run(python, "-m", "pip", "--disable-pip-version-check", "install", "--no-build-isolation", "--no-deps",
        "--no-index", wheel, env=env)
    source_venv = tmp / "venv-source"
    run(sys.executable, "-m", "venv", "--system-site-packages", source_venv)
    run(source_venv / "bin" / "python", "-m", "pip", "--disable-pip-version-check", "install",
        "--no-build-isolation", "--no-deps", "--no-index", SOURCE, env=env)
    return {"tmp": tmp, "sdist": sdist, "wheel": wheel, "python": python, "source_python": source_venv / "bin" / "python",
            "before": before}


def in_venv(python, code):
    return run(python, "-c", code, capture_output=True, text=True, env=clean_environment(), cwd="/").stdout.strip()


def test_building_leaves_the_source_tree_as_git_has_it(built):
    if built["before"] is None:
        pytest.skip("not a git checkout")
    assert untracked() == built["before"]


def test_the_package_is_the_environments_with_its_headers_and_cmake_package(built):
    for python in (built["python"], built["source_python"]):
        prefix = Path(in_venv(python, "import sys; print(sys.prefix)"))
        where = Path(in_venv(python, "import ecmeta; print(ecmeta.__file__)"))
        assert prefix in where.parents, (prefix, where)
        include = Path(in_venv(python, "import ecmeta; print(ecmeta.get_include())"))
        assert (include / "ecmeta" / "pybind11.hpp").is_file() and (include / "ecmeta" / "version.hpp").is_file()
        cmake = Path(in_venv(python, "import ecmeta; print(ecmeta.get_cmake_dir())"))
        assert (cmake / "ecmetaConfig.cmake").is_file()
        version = (SOURCE / "include" / "ecmeta" / "version.hpp").read_text()
        expected = ".".join(re.search(rf"ECMETA_VERSION_{p} (\d+)", version).group(1) for p in ("MAJOR", "MINOR", "PATCH"))
        assert in_venv(python, "import ecmeta; print(ecmeta.__version__)") == expected
        assert in_venv(python, "from importlib.metadata import version; print(version('ecmeta'))") == expected


def test_the_wheels_metadata_says_what_it_supports(built):
    import zipfile
    with zipfile.ZipFile(built["wheel"]) as wheel:
        metadata = next(wheel.read(n).decode() for n in wheel.namelist() if n.endswith("dist-info/METADATA"))
        names = wheel.namelist()
    assert "Requires-Python: >=3.8" in metadata
    assert f"Classifier: Programming Language :: Python :: {sys.version_info[0]}.{sys.version_info[1]}" in metadata
    assert {"ecmeta/py.typed", "ecmeta/_ecmeta.pyi", "ecmeta/include/ecmeta/pybind11.hpp",
            "ecmeta/share/cmake/ecmeta/ecmetaTargets.cmake"} <= set(names)


def test_the_packages_own_tests_pass_on_the_installed_wheel(built):
    extensions = os.environ["ECMETA_TEST_EXTENSIONS"]
    run(built["python"], "-m", "pytest", "-q", "-p", "no:cacheprovider", *[TESTS / s for s in SUITES],
        env=clean_environment(PYTHONPATH=extensions))


def test_an_extension_builds_against_the_casters_from_the_wheel(built):
    cmake_dir = in_venv(built["python"], "import ecmeta; print(ecmeta.get_cmake_dir())")
    example = built["tmp"] / "example"
    cmake = os.environ.get("CMAKE", "cmake")
    run(cmake, "-S", SOURCE / "examples" / "pybind11", "-B", example, f"-Decmeta_DIR={cmake_dir}",
        f"-DPython_EXECUTABLE={built['python']}", f"-DCMAKE_CXX_COMPILER={os.environ.get('CXX', 'c++')}",
        "-DCMAKE_BUILD_TYPE=Release", env=clean_environment())
    run(cmake, "--build", example, env=clean_environment())
    run(os.environ.get("CTEST", "ctest"), "--test-dir", example, "--output-on-failure", "--no-tests=error",
        env=clean_environment())
