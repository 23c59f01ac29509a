# Developer shortcuts; CI runs .ci/run, which follows the README.
PY ?= python

.PHONY: dev build test test-all lint bench annotate golden mutants clean

dev:            ## editable install with build tools, tests and linters
	$(PY) -m pip install "Cython>=3.0.11,<4" "setuptools>=77"
	$(PY) -m pip install --no-build-isolation -e ".[dev]"

build:          ## recompile the Cython core in place after editing .pyx/.pxd/.pxi
	$(PY) setup.py build_ext --inplace

test:           ## the fast suite (what CI runs)
	$(PY) -m pytest -q -n auto

test-all:       ## including slow tests
	$(PY) -m pytest -q -n auto -m "slow or not slow"

lint:
	ruff check pu_sim tests experiments
	ruff format --check pu_sim tests experiments
	cython-lint pu_sim/
	mypy
	$(PY) -m mypy.stubtest pu_sim._core --allowlist .stubtest-allowlist

bench:          ## speed and memory figures -> reports/benchmark/
	$(PY) experiments/benchmark.py

annotate:       ## cython -a: HTML showing Python interaction per line
	PU_SIM_ANNOTATE=1 $(PY) setup.py build_ext --inplace
	@echo "open pu_sim/_core.html"

mutants:        ## sampled mutation testing -> reports/mutation/ (about two hours on 2 cores)
	$(PY) experiments/mutation/python_mutants.py
	$(PY) experiments/mutation/core_mutants.py
	$(PY) experiments/mutation/report.py

golden:         ## regenerate golden traces (only together with a RULES_VERSION bump)
	PU_SIM_REGENERATE_GOLDEN=1 $(PY) -m pytest -q tests/test_golden.py

clean:
	rm -rf build pu_sim/_core.c pu_sim/*.so pu_sim/*.html *.egg-info
