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
