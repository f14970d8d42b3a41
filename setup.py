"""Builds the Python package's extension, ecmeta._ecmeta, with the project's CMake (python/
CMakeLists.txt is its one definition), and puts the headers and the CMake package in the package
(ecmeta/include, ecmeta/share/cmake/ecmeta), as pybind11's wheel carries its own, so that another
extension builds against the casters from the installed wheel (ecmeta.get_include(),
ecmeta.get_cmake_dir()). The version is the headers'. Metadata: pyproject.toml."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def version() -> str:
    text = (ROOT / "include" / "ecmeta" / "version.hpp").read_text()
    return ".".join(re.search(rf"#define ECMETA_VERSION_{part} (\d+)", text).group(1)
                    for part in ("MAJOR", "MINOR", "PATCH"))


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        import pybind11

        cmake = os.environ.get("CMAKE", "cmake")
        build = Path(self.build_temp).resolve() / "cmake"
        target = Path(self.get_ext_fullpath(ext.name)).resolve()
        package = target.parent
        subprocess.run([
            cmake, "-S", str(ROOT), "-B", str(build), f"-DCMAKE_BUILD_TYPE={'Debug' if self.debug else 'Release'}",
            "-DECMETA_PYTHON=ON", "-DECMETA_BUILD_TESTS=OFF", "-DECMETA_BUILD_EXAMPLES=OFF",
            # The wheel's CMake package: the core and the casters, nothing that needs another framework.
            "-DECMETA_NLOHMANN=OFF", "-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON", "-DCMAKE_DISABLE_FIND_PACKAGE_fmt=ON",
            f"-DPython_EXECUTABLE={sys.executable}", f"-Dpybind11_DIR={pybind11.get_cmake_dir()}",
        ], check=True)
        subprocess.run([cmake, "--build", str(build), "--target", "ecmeta_python", "--parallel"], check=True)
        built = build / "python" / "ecmeta" / target.name  # CMake names it as Python does (its EXT_SUFFIX)
        package.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)
        shutil.rmtree(package / "include", ignore_errors=True)
        subprocess.run([cmake, "--install", str(build), "--component", "ecmeta_Development", "--prefix", str(package)],
                       check=True)


(ROOT / "build").mkdir(exist_ok=True)
setup(
    version=version(),
    ext_modules=[Extension("ecmeta._ecmeta", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
    # Kept under build/, which git ignores.
    options={"build": {"build_base": "build/python-wheel"}, "egg_info": {"egg_base": "build"}},
)
