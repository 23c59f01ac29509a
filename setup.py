"""Build the single compiled extension ``pu_sim._core``.

Environment switches:
``PU_SIM_DEBUG_CYTHON=1`` turns bounds and initialisation checks back on;
``PU_SIM_ANNOTATE=1`` writes the ``cython -a`` HTML next to the sources.
"""

import os

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("PU_SIM_DEBUG_CYTHON", "0") != "0"

extensions = [
    Extension(
        "pu_sim._core",
        ["pu_sim/_core.pyx"],
        extra_compile_args=["-O0", "-g"] if DEBUG else ["-O3"],
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
