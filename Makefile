# The two commands a newcomer types: `make demo` and `make test`.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: demo test build deps configure bench clean asan fuzz-asan

deps:
	@bash tools/install-deps

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/cli/brook run examples/hello.br

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

asan: deps
	cmake -S . -B build-asan -DBROOK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS)

# The front-end fuzzer under AddressSanitizer + UBSan (only the front end is built).
fuzz-asan: deps
	@cmake -S . -B build-asan -DBROOK_SANITIZE=ON -DBROOK_WITH_JIT=OFF -DBROOK_WITH_OPENCL=OFF -DCMAKE_BUILD_TYPE=Debug >/dev/null
	@cmake --build build-asan -j $(JOBS) --target brook_fuzz_frontend
	build-asan/tests/brook_fuzz_frontend . 20000

clean:
	rm -rf $(BUILD) build-asan

# Differential testing of the backends on random programs (tests/fuzz/README.md):
# `make fuzz-diff SEEDS=10000` runs seeds 1..SEEDS on every built backend and stops
# at the first difference; FUZZ_ARGS adds runner options (--keep DIR, --without F).
SEEDS ?= 1000
FUZZ_ARGS ?=
.PHONY: fuzz-diff
fuzz-diff: build
	python3 tests/fuzz/diff_backends.py $(BUILD)/cli/brook --seeds 1:$$(( $(SEEDS) + 1 )) $(FUZZ_ARGS)
