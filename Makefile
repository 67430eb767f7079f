# Privacy Playground: `make run` serves the app, `make test` checks everything CI checks.
# Works from a fresh clone on Debian with python3 >= 3.11; the venv lives in .venv/.

PYTHON   ?= python3
HOST     ?= 127.0.0.1
PORT     ?= 8501
VENV     := .venv
BIN      := $(VENV)/bin
CHROMIUM := /usr/bin/chromium
HAPROXY  := /usr/sbin/haproxy
WORKERS  ?= 2
# make bench times each lesson's main slider back to back against this commit (a git rev)
BENCH_BASE ?= HEAD~1

.PHONY: run dev room test test-fast lint bench bench-room notebooks homework lab chromium haproxy clean distclean help

help:
	@echo "make run        serve the app on http://$(HOST):$(PORT) (HOST=0.0.0.0 for a classroom)"
	@echo "make dev        the app for development: reloads on save, errors shown in the page"
	@echo "make room       WORKERS=N replicas behind HAProxy on http://$(HOST):$(PORT) (a large class)"
	@echo "make test       lint + format check + all tests (installs Debian chromium, haproxy when root)"
	@echo "make test-fast  lint + every test but the browser, room and slow ones (2 to 4 min)"
	@echo "make bench      time the dp/ mechanisms, page reruns (AppTest and Chromium), the survey, uploads"
	@echo "make bench-room simulated students (10-200) against one process, then WORKERS=N replicas"
	@echo "make notebooks  every lesson as a Jupyter notebook in notebooks/ (at its defaults)"
	@echo "make homework   homework notebooks, solutions, Gradescope autograders, Otter masters: dist/homework/"
	@echo "make lab        the notebooks, opened in JupyterLab (installed into .venv/ once)"
	@echo "make clean      remove caches;  make distclean  also removes .venv"

$(BIN)/python:
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Python 3.11+ is needed (found: $$($(PYTHON) --version 2>&1))."; exit 1; }
	@if ! $(PYTHON) -c 'import ensurepip' 2>/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv; \
		else \
			echo "python3 cannot create a venv: install python3-venv (sudo apt-get install python3-venv)."; \
			exit 1; \
		fi; \
	fi
	@echo "Creating the virtual environment in $(VENV)/ ..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.stamp-run: requirements.txt | $(BIN)/python
	@echo "Installing the app's pinned dependencies (first time only; 30–90 s, by how busy the machine is) ..."
	$(BIN)/pip install --progress-bar on -r requirements.txt | grep -E '^(Collecting|Installing|Successfully)' || true
	@$(BIN)/python -c 'import streamlit, numpy, pandas, altair, sqlalchemy, scipy, sklearn' \
		|| { echo "The install failed: run '$(BIN)/pip install -r requirements.txt' to see why."; exit 1; }
	@touch $@

# The project itself is installed too (editable): a lesson's notebook runs `import dp`.
$(VENV)/.stamp-dev: requirements.txt requirements-dev.txt pyproject.toml | $(BIN)/python
	@echo "Installing the app's and the tests' pinned dependencies (first time only) ..."
	$(BIN)/pip install --progress-bar on -r requirements-dev.txt | grep -E '^(Collecting|Installing|Successfully)' || true
	$(BIN)/pip install --quiet --no-deps -e . 2>&1 | grep -v -E 'BuildBackendWarning|^ *[!*]|working directory|take precedence|^ *$$|with strategy' || true
	@$(BIN)/python -c 'import streamlit, pytest, xdist, playwright, opendp, hypothesis, nbclient, ipykernel' \
		|| { echo "The install failed: run '$(BIN)/pip install -r requirements-dev.txt' to see why."; exit 1; }
	@cd /tmp && $(CURDIR)/$(BIN)/python -c 'import dp' \
		|| { echo "The project did not install: run '$(BIN)/pip install -e .' to see why."; exit 1; }
	@touch $@ $(VENV)/.stamp-run

run: $(VENV)/.stamp-run
	$(BIN)/python deploy/serve.py --server.address $(HOST) --server.port $(PORT)

# Development: .streamlit/config.toml keeps the production settings (what Community Cloud,
# make run, make room and the Docker image read); these flags override three of them for
# this server only: a file watcher (polling the app's own files: inotify watches every folder
# below the repository, .venv/ included, and overflows its queue), a rerun on every save,
# errors shown in the page. PLAYGROUND_DEV=1 lets through the websocket messages a production
# room refuses (deploy/guard.py: load_git_info, clear_cache).
DEV_FLAGS := --server.fileWatcherType poll --server.runOnSave true --client.showErrorDetails full

dev: $(VENV)/.stamp-run
	PLAYGROUND_DEV=1 $(BIN)/python deploy/serve.py --server.address $(HOST) --server.port $(PORT) $(DEV_FLAGS)

# A Debian package whose program is missing: installed with apt-get when run as root, else
# the command to run. $(1) the program's path, $(2) the package, $(3) who needs it.
define debian_package
	@if [ ! -x $(1) ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(2); \
		else \
			echo "$(3) Debian's $(2) at $(1)."; \
			echo "Install it with:  sudo apt-get install -y $(2)   (then re-run make)"; \
			exit 1; \
		fi; \
	fi
endef

# A large class: N `streamlit run` replicas behind Debian's HAProxy (deploy/haproxy.cfg).
room: $(VENV)/.stamp-run haproxy
	$(BIN)/python deploy/room.py --workers $(WORKERS) --host $(HOST) --port $(PORT)

haproxy:
	$(call debian_package,$(HAPROXY),haproxy,make room and the replica test need)

# Playwright drives the system Chromium (never a downloaded browser: no `playwright install`).
chromium:
	$(call debian_package,$(CHROMIUM),chromium,The browser tests need)

lint: $(VENV)/.stamp-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# Two pytest-xdist workers, a test file one unit of work (tests/conftest.py); PYTEST_WORKERS=0
# runs everything in this one process. One BLAS thread per process: two workers already fill
# two cores, and OpenBLAS's idle threads spin (11% more CPU for the page tests). -rfER names
# every failure, error and automatic rerun at the end, and a rerun shows why it was needed;
# the run ends with its 15 slowest tests and their total (tests/conftest.py).
# Bytecode is written even where the shell says PYTHONDONTWRITEBYTECODE (this machine does):
# without pytest's cache of rewritten test modules each worker spends 9 s instead of 5 s
# collecting, and every server, kernel and process a test starts compiles the project again.
PYTEST_WORKERS ?= 2
PYTEST = OPENBLAS_NUM_THREADS=1 PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -rfER -n $(PYTEST_WORKERS) \
	--rerun-show-tracebacks

test: $(VENV)/.stamp-dev chromium haproxy lint
	$(PYTEST)

# While working: everything but the browser, room and slow tests (no Chromium, no HAProxy;
# 2 to 4 minutes). CI runs the full `make test`; CONTRIBUTING says what to run per lesson.
test-fast: $(VENV)/.stamp-dev lint
	$(PYTEST) -m "not browser and not room and not slow"

bench: $(VENV)/.stamp-dev chromium
	$(BIN)/python bench/bench_dp.py
	$(BIN)/python bench/bench_pages.py
	$(BIN)/python bench/bench_browser.py --against $(BENCH_BASE)
	$(BIN)/python bench/bench_press_floor.py
	$(BIN)/python bench/profile_press.py
	$(BIN)/python bench/bench_first_visit.py
	$(BIN)/python bench/bench_flood.py
	$(BIN)/python bench/bench_survey.py
	$(BIN)/python bench/bench_upload.py
	$(BIN)/python bench/bench_sessions.py
	$(BIN)/python bench/bench_seeds.py
	$(BIN)/python bench/bench_line.py
	$(BIN)/python bench/bench_reconstruction.py
	$(BIN)/python bench/bench_private_ml.py
	$(BIN)/python bench/bench_room.py --target single --lessons

# Every lesson as a notebook (lessons/notebooks.py); the project is installed for `import dp`.
notebooks: $(VENV)/.stamp-dev
	$(BIN)/python -m lessons.notebooks notebooks

# Homework (homework/build.py): per lesson the student notebook, the solutions and a
# Gradescope autograder zip, in dist/homework/<lesson>/; the Otter-Grader masters in
# dist/homework/otter/ (homework/otter.py).
homework: $(VENV)/.stamp-dev
	$(BIN)/python -m homework.build dist/homework

# The notebooks in JupyterLab, installed into the venv on first use (not a test dependency).
JUPYTERLAB := jupyterlab==4.6.6
lab: notebooks
	@$(BIN)/python -c 'import jupyterlab' 2>/dev/null || \
		$(BIN)/pip install --progress-bar on "$(JUPYTERLAB)" | grep -E '^(Collecting|Installing|Successfully)' || true
	$(BIN)/jupyter lab --notebook-dir notebooks --ip $(HOST)

# Simulated students over Streamlit's WebSocket protocol (loopback only): ~15 minutes.
bench-room: $(VENV)/.stamp-dev haproxy
	$(BIN)/python bench/bench_room.py --target single --lessons
	$(BIN)/python bench/bench_room.py --target both --workers $(WORKERS)
	$(BIN)/python bench/bench_flood.py --replicas $(WORKERS)

clean:
	rm -rf .pytest_cache .ruff_cache .hypothesis test-results
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
