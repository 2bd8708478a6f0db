# make run: the table simulator on its defaults.  make test: the whole suite (the tests that use
# a twin on both twins).
# Both set up .venv first (Python packages, the Cython core, the npm MicroPython port).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
MP := simulator/mp
PICO := simulator/pico
STAMP := $(VENV)/.installed

.PHONY: install run test soak bench clean image-tools pit-tools lab-tools

# tapis image build's tools (issue 32; gcc-multilib: the 32-bit unix port the heap is measured
# on): Debian's packages, installed where missing.
IMAGE_DEBS := gcc-arm-none-eabi libnewlib-arm-none-eabi cmake gcc-multilib
# tapis pit's tests (issue 31): a real PostgreSQL server the suite starts on a private socket,
# the dashboard in headless Chromium driven by chromedriver, and behind a reverse proxy (nginx).
PIT_DEBS := postgresql chromium chromium-driver nginx-light
# tapis lab (issue 47): the shuffle's bits through Debian's dieharder.
LAB_DEBS := dieharder

install: $(STAMP) image-tools pit-tools lab-tools

# Debian's packages a part of Tapis needs, installed where missing (each target its own list).
image-tools: DEBS = $(IMAGE_DEBS)
image-tools: FOR = tapis image build
pit-tools: DEBS = $(PIT_DEBS)
pit-tools: FOR = tapis pit's tests
lab-tools: DEBS = $(LAB_DEBS)
lab-tools: FOR = tapis lab
image-tools pit-tools lab-tools:
	@missing="$$(for p in $(DEBS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done)"; \
	if [ -n "$$missing" ]; then \
	    if command -v apt-get >/dev/null; then \
	        sudo="$$([ "$$(id -u)" = 0 ] || echo sudo)"; \
	        echo "installing $$missing ($(FOR))"; \
	        $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	    else echo "$(FOR): install Debian's $$missing"; fi; \
	fi

$(STAMP): pyproject.toml setup.py $(wildcard cython_core/*.pyx) $(MP)/package.json $(MP)/package-lock.json \
		$(PICO)/package.json $(PICO)/package-lock.json
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip uninstall --quiet --yes tapis 2>/dev/null || true  # the distribution's old name
	$(BIN)/pip install --quiet -e '.[dev]'
	cd $(MP) && npm ci --no-audit --no-fund --loglevel=error
	cd $(PICO) && npm ci --no-audit --no-fund --loglevel=error
	ln -sfn "$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" $(VENV)/stubs
	touch $(STAMP)

run: install
	$(BIN)/tapis table

# The whole suite on the compiled core, recording which tests use a twin (cython_core/watch.py);
# then those tests again on the pure twins the board runs (tests/twin_select.py chooses them and
# fails if its record cannot be trusted). The pure half runs only if the compiled one ran to its
# end (exit 0 or 1); any other exit of either half, 5 (no test ran) included, fails make test.
# Each half's time is printed at the end. A test to whichever core is free (worksteal, as make
# soak): the emulated Pico's tests take up to a minute each; the wheel's tests share one build
# under any mode (tests/host/test_wheel.py).
TWIN_LOG := $(CURDIR)/build/twin-log
test: install
	@rm -rf $(TWIN_LOG) && mkdir -p $(TWIN_LOG); \
	t0=$$(date +%s); \
	TAPIS_PURE=0 TAPIS_TWIN_LOG=$(TWIN_LOG) $(BIN)/python -m pytest -n 2 --dist worksteal --durations=12; compiled=$$?; \
	t1=$$(date +%s); pure=skipped; \
	if [ $$compiled -le 1 ]; then \
	    TAPIS_PURE=1 TAPIS_TWIN_SELECT=$(TWIN_LOG) $(BIN)/python -m pytest -n 2 --dist worksteal --durations=12; pure=$$?; \
	fi; \
	t2=$$(date +%s); \
	half() { printf '%-34s %2dm%02ds  %s\n' "$$1" $$(($$2 / 60)) $$(($$2 % 60)) "$$3"; }; \
	echo "make test:"; \
	half "compiled core, every test" $$((t1 - t0)) "exit $$compiled"; \
	half "pure twins, $$(cat $(TWIN_LOG)/selected 2>/dev/null || echo '? tests')" $$((t2 - t1)) "exit $$pure"; \
	half "both" $$((t2 - t0)) ""; \
	[ $$compiled = 0 ] && [ $$pure = 0 ]

# The long runs (@pytest.mark.slow): Pico runs of hundreds of deals, 1,000-deal unix-port heaps,
# thousands of deals on lossy links. Split across both cores (pytest-xdist, a test to whichever
# core is free: worksteal); the time it took printed at the end (docs/reliability.md).
# The noisy and lossy tables' figures (deals, sessions begun again, frames counted toward the
# attack tilt, tilts) are summed at the end from build/soak.jsonl (tests/soak_figures.py).
SOAK_FIGURES := $(CURDIR)/build/soak.jsonl
soak: install
	@mkdir -p build && rm -f $(SOAK_FIGURES); start=$$(date +%s); \
	TAPIS_SOAK_FIGURES=$(SOAK_FIGURES) $(BIN)/python -m pytest -n 2 --dist worksteal -m slow --durations=25; rc=$$?; \
	[ -f $(SOAK_FIGURES) ] && $(BIN)/python tests/soak_figures.py $(SOAK_FIGURES); \
	echo "make soak: $$(( $$(date +%s) - start )) s of wall time, pytest exit $$rc"; exit $$rc

bench: install
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) $(MP)/node_modules $(PICO)/node_modules build *.egg-info cython_core/*.c cython_core/*.so
