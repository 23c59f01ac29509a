"""Build the single compiled extension ``pu_sim._core``.

Environment switches:
``PU_SIM_DEBUG_CYTHON=1`` turns bounds and initialisation checks back on;
``PU_SIM_ANNOTATE=1`` writes the ``cython -a`` HTML next to the sources.
"""

import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PU_SIM_DEBUG_CYTHON", "0") != "0"

# Hardware popcount on x86-64 (every such CPU since 2008 has it); without the
# flag gcc calls a slow libgcc routine.  It is an exact integer instruction, so
# results cannot differ from a build without it.  No -march=native: that could
# enable FMA contraction and change the greedy bot's floating-point sums.
ARCH_FLAGS = ["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []

extensions = [
    Extension(
        "pu_sim._core",
        ["pu_sim/_core.pyx"],
        extra_compile_args=(["-O0", "-g"] if DEBUG else ["-O3"]) + ARCH_FLAGS,
    )
]

setup(
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
    )
)
