"""Build the single compiled extension ``pu_sim._core``.

An installed copy (``pip install .``) lives outside the checkout, where git
cannot say which commit it was built from, so the build records the
checkout's revision in ``pu_sim/_build_info.json`` (in the built package only,
never in the source tree); run manifests read it from there.

Environment switches:
``PU_SIM_DEBUG_CYTHON=1`` turns bounds and initialisation checks back on;
``PU_SIM_ANNOTATE=1`` writes the ``cython -a`` HTML next to the sources;
``PU_SIM_OPT=-O0`` compiles without optimisation (three times quicker to
build: the core's mutation runs rebuild it once a mutant).
"""

import json
import os
import platform
import subprocess
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py

DEBUG = os.environ.get("PU_SIM_DEBUG_CYTHON", "0") != "0"
OPT = os.environ.get("PU_SIM_OPT", "-O3")
if OPT not in ("-O0", "-O1", "-O2", "-O3"):
    raise SystemExit(f"PU_SIM_OPT={OPT!r}: expected one of -O0, -O1, -O2, -O3")

# Hardware popcount on x86-64 (every such CPU since 2008 has it); without the
# flag gcc calls a slow libgcc routine.  It is an exact integer instruction, so
# results cannot differ from a build without it.  No -march=native: that could
# enable FMA contraction and change the greedy bot's floating-point sums.
ARCH_FLAGS = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []

extensions = [
    Extension(
        "pu_sim._core",
        ["pu_sim/_core.pyx"],
        extra_compile_args=(["-O0", "-g"] if DEBUG else [OPT]) + ARCH_FLAGS,
    )
]


def _git(*args: str) -> str | None:
    """A git command's output in the checkout this build runs from, or None."""
    try:
        done = subprocess.run(
            ["git", "-C", str(Path(__file__).resolve().parent), *args],
            capture_output=True, text=True, timeout=10, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


class BuildPyWithRevision(build_py):
    """build_py that records the checkout's git revision in the built package."""

    def run(self) -> None:
        """Build as usual, then write the revision file beside the package."""
        super().run()
        revision = _git("rev-parse", "HEAD")
        status = _git("status", "--porcelain", "--untracked-files=no", "--",
                      ":(top)", ":(top,exclude)reports")  # fmt: skip
        info = {"git": None if revision is None or status is None
                else {"revision": revision, "dirty": bool(status)}}  # fmt: skip
        target = Path(self.build_lib) / "pu_sim" / "_build_info.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(info) + "\n")


setup(
    cmdclass={"build_py": BuildPyWithRevision},
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": DEBUG,
            "wraparound": False,
            "initializedcheck": DEBUG,
            "cdivision": True,
            "embedsignature": True,
        },
        annotate=os.environ.get("PU_SIM_ANNOTATE") == "1",
    ),
)
