# make run: the table simulator on its defaults.  make test: the whole suite.
# Both set up .venv first (Python packages, the Cython core, the npm MicroPython port).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
MP := simulator/mp
PICO := simulator/pico
STAMP := $(VENV)/.installed

.PHONY: install run test soak bench clean image-tools pit-tools

# tapis image build's tools (issue 32; gcc-multilib: the 32-bit unix port the heap is measured
# on): Debian's packages, installed where missing.
IMAGE_DEBS := gcc-arm-none-eabi libnewlib-arm-none-eabi cmake gcc-multilib
# tapis pit's tests (issue 31): a real PostgreSQL server the suite starts on a private socket,
# and the dashboard in headless Chromium driven by chromedriver.
PIT_DEBS := postgresql chromium chromium-driver

install: $(STAMP) image-tools pit-tools

image-tools:
	@missing="$$(for p in $(IMAGE_DEBS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done)"; \
	if [ -n "$$missing" ]; then \
	    if command -v apt-get >/dev/null; then \
	        sudo="$$([ "$$(id -u)" = 0 ] || echo sudo)"; \
	        echo "installing $$missing (tapis image build)"; \
	        $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	    else echo "tapis image build needs Debian's $$missing: install them"; fi; \
	fi

pit-tools:
	@missing="$$(for p in $(PIT_DEBS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done)"; \
	if [ -n "$$missing" ]; then \
	    if command -v apt-get >/dev/null; then \
	        sudo="$$([ "$$(id -u)" = 0 ] || echo sudo)"; \
	        echo "installing $$missing (tapis pit's tests)"; \
	        $$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $$missing; \
	    else echo "tapis pit's tests need Debian's $$missing: install them"; fi; \
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

# The whole suite twice: on the compiled core, then on the pure twins the board runs.
test: install
	$(BIN)/python -m pytest -n 2 --durations=12
	TAPIS_PURE=1 $(BIN)/python -m pytest -n 2 --durations=12

# The long runs (@pytest.mark.slow): Pico runs of hundreds of deals, 1,000-deal unix-port heaps,
# thousands of deals on lossy links. Split across both cores (pytest-xdist, a test to whichever
# core is free: worksteal); the time it took printed at the end (docs/reliability.md).
soak: install
	@start=$$(date +%s); \
	$(BIN)/python -m pytest -n 2 --dist worksteal -m slow --durations=25; rc=$$?; \
	echo "make soak: $$(( $$(date +%s) - start )) s of wall time, pytest exit $$rc"; exit $$rc

bench: install
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) $(MP)/node_modules $(PICO)/node_modules build *.egg-info cython_core/*.c cython_core/*.so
