"""After the README's `pip install .`, the README works from the clone's root.

Python started in a clone imports the clone's ``pu_sim/`` folder, which holds
no compiled core after a regular install (pip builds it elsewhere): the
folder shadows the installed package.  The clone then uses the installed
copy's core, as long as it was built from the clone's very Cython sources;
one built from other sources is refused in one line saying what to run.

Checked without compiling: a copy of the package with its core stands for
site-packages (with its metadata, as pip writes it), a copy without the core
for the clone.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUILT = ("*.c", "*.html", "__pycache__", "*.egg-info")


@pytest.fixture(scope="module")
def clone_and_site(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("install")
    site, clone = base / "site-packages", base / "clone"
    shutil.copytree(ROOT / "pu_sim", site / "pu_sim",
                    ignore=shutil.ignore_patterns(*BUILT))  # fmt: skip
    info = site / "pu_sim-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: pu_sim\nVersion: 0.1.0\n"
    )
    shutil.copytree(ROOT / "pu_sim", clone / "pu_sim",
                    ignore=shutil.ignore_patterns(*BUILT, "*.so", "*.pyd"))  # fmt: skip
    for name in ("README.md", "setup.py", "pyproject.toml"):
        shutil.copy2(ROOT / name, clone / name)
    assert not list((clone / "pu_sim").glob("_core*.so"))
    return clone, site


def python(clone: Path, site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Python started in the clone's root, the stand-in install on its path.

    ``-S`` keeps this checkout's own editable install (its path hook) out; the
    libraries come from this environment's site-packages, after the stand-in.
    """
    libraries = [p for p in sys.path if p.endswith("site-packages")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *libraries])}
    return subprocess.run(
        [sys.executable, "-S", *args], cwd=clone, env=env, capture_output=True,
        text=True, timeout=600, check=False,
    )  # fmt: skip


README_EXAMPLES = """
import doctest, re, sys
text = open("README.md").read()
parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(
    optionflags=doctest.NORMALIZE_WHITESPACE)
globs = {}
for i, block in enumerate(re.findall(r"```pycon\\n(.*?)```", text, re.S)):
    runner.run(parser.get_doctest(block, globs, f"README {i}", "README.md", 0))
result = runner.summarize(verbose=False)
import pu_sim.simulation.table as table
print("attempted", result.attempted, "failed", result.failed, "from", table.__file__)
sys.exit(1 if result.failed else 0)
"""


def test_the_readme_examples_run_from_the_clone_after_pip_install(clone_and_site):
    clone, site = clone_and_site
    done = python(clone, site, "-c", README_EXAMPLES)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    attempted = int(re.search(r"attempted (\d+)", done.stdout)[1])  # type: ignore[index]
    assert attempted >= 8
    assert str(clone) in done.stdout  # the clone's Python, the installed core


def test_python_m_pu_sim_runs_from_the_clone_after_pip_install(clone_and_site):
    clone, site = clone_and_site
    done = python(clone, site, "-m", "pu_sim", "simulate", "--games", "2", "--bots",
                  "random", "--no-progress")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "2 games in" in done.stdout


def test_an_install_built_from_other_sources_is_refused_in_one_line(clone_and_site):
    clone, site = clone_and_site
    source = clone / "pu_sim" / "core" / "engine" / "round.pxi"
    text = source.read_text()
    try:
        source.write_text(text + "\n# changed in the clone\n")
        done = python(clone, site, "-m", "pu_sim", "simulate", "--games", "1")
    finally:
        source.write_text(text)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1, done.stderr
    assert "core/engine/round.pxi differs" in done.stderr
    assert "pip install ." in done.stderr
