# The two commands a newcomer types: `make demo` and `make test`.
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=
# ccache, when installed, makes rebuilds of other folders and build types cheap.
LAUNCHER := $(if $(shell command -v ccache 2>/dev/null),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
# The sanitizer suite: everything but what runs PoCL's compiler (its LLVM is
# not instrumented and a build there takes a minute under ASan) and the
# examples' full-size runs; `make asan ASAN_EXCLUDE=` runs every test. Also out:
# the pty test (it drives PoCL, whose threads ASan reports at exit) and the
# deep-expression test (its 10,000-deep tree's recursive destructor needs more
# stack than ASan's inflated Debug frames leave).
ASAN_EXCLUDE ?= opencl|^example/|^embed/|^fuzz/runtime|^fuzz/diff|^repl/terminal|deep expressions are rejected

.PHONY: demo test build deps configure bench clean asan fuzz-asan

deps:
	@bash tools/install-deps

configure: deps
	@cmake -S . -B $(BUILD) $(LAUNCHER) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/cli/brook run examples/hello.br

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The whole project (every backend) as a Debug build under AddressSanitizer and
# UndefinedBehaviorSanitizer, then its tests (see ASAN_EXCLUDE above).
asan: deps
	cmake -S . -B build-asan -DBROOK_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug $(LAUNCHER) $(CMAKE_FLAGS) >/dev/null
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ctest --output-on-failure -j $(JOBS) $(if $(ASAN_EXCLUDE),-E '$(ASAN_EXCLUDE)')

# The front-end fuzzer alone under AddressSanitizer + UBSan (only the front end is built).
fuzz-asan: deps
	@cmake -S . -B build-asan-frontend -DBROOK_SANITIZE=ON -DBROOK_WITH_JIT=OFF -DBROOK_WITH_OPENCL=OFF -DCMAKE_BUILD_TYPE=Debug $(LAUNCHER) >/dev/null
	@cmake --build build-asan-frontend -j $(JOBS) --target brook_fuzz_frontend
	build-asan-frontend/tests/brook_fuzz_frontend . 20000

clean:
	rm -rf $(BUILD) build-asan build-asan-frontend

# Differential testing of the backends on random programs (tests/fuzz/README.md):
# `make fuzz-diff SEEDS=10000` runs seeds 1..SEEDS on every built backend and stops
# at the first difference; FUZZ_ARGS adds runner options (--keep DIR, --without F).
SEEDS ?= 1000
FUZZ_ARGS ?=
.PHONY: fuzz-diff
fuzz-diff: build
	python3 tests/fuzz/diff_backends.py $(BUILD)/cli/brook --seeds 1:$$(( $(SEEDS) + 1 )) $(FUZZ_ARGS)

# Coverage-guided fuzzing of the front end with libFuzzer under ASan/UBSan (clang),
# for SECONDS seconds, from a seed corpus of every shipped .br program; findings
# land in build-libfuzzer/findings (tests/fuzz/README.md).
SECONDS ?= 60
# frontend (preprocess, parse, check) or host (the host interpreter running programs)
FUZZ_TARGET ?= frontend
.PHONY: fuzz-lib
fuzz-lib:
	@bash tools/install-deps clang-15 libclang-common-15-dev
	@cmake -S . -B build-libfuzzer -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15 \
	  -DBROOK_SANITIZE=ON -DBROOK_LIBFUZZER=ON -DBROOK_WITH_JIT=OFF -DBROOK_WITH_OPENCL=OFF \
	  -DCMAKE_BUILD_TYPE=Debug >/dev/null
	@cmake --build build-libfuzzer -j $(JOBS) --target brook_lib_$(FUZZ_TARGET)
	@mkdir -p build-libfuzzer/corpus-$(FUZZ_TARGET) build-libfuzzer/findings
	@i=0; for f in $$(find examples tests -name '*.br' | sort); do i=$$((i+1)); cp "$$f" build-libfuzzer/corpus-$(FUZZ_TARGET)/seed$$i.br; done
	build-libfuzzer/tests/brook_lib_$(FUZZ_TARGET) -max_total_time=$(SECONDS) -timeout=10 -rss_limit_mb=4096 \
	  -artifact_prefix=$(CURDIR)/build-libfuzzer/findings/$(FUZZ_TARGET)- $(CURDIR)/build-libfuzzer/corpus-$(FUZZ_TARGET) </dev/null
