# keel: the two commands a newcomer needs are `make run` and `make test`.
# Every target installs what it needs first (scripts/deps.sh is quiet when all is present).

JOBS ?= $(shell nproc)
FUZZ_RUNS ?= 300000
.DEFAULT_GOAL := run

.PHONY: deps configure build run test bench fuzz lint format asan tsan debug clean

deps:
	@bash scripts/deps.sh

build/release/build.ninja: CMakeLists.txt CMakePresets.json | deps
	@cmake --preset release >/dev/null

configure: deps build/release/build.ninja

build: configure
	@cmake --build --preset release -j $(JOBS)

# keel's main job: generate a 10,000-block chain (50 signed transactions per block, merge at
# 7,500), import it into build/run/datadir, verify, prune pre-merge history, verify again, and
# print a summary (import blocks/s and tx/s, pruning time, bytes before and after).
run: build
	@bash scripts/run.sh build/release/apps/keel/keel

test: build
	@ctest --preset release -j $(JOBS)

bench: build
	@build/release/bench/keel-bench $(BENCH_ARGS)

asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan -j $(JOBS)

# ThreadSanitizer over the RLPx tests: sessions are read by one thread and written by others.
tsan: deps
	@cmake --preset tsan >/dev/null
	@cmake --build --preset tsan -j $(JOBS) --target keel_rlpx_test
	@./build/tsan/keel/rlpx/keel_rlpx_test

debug: deps
	@cmake --preset debug >/dev/null
	@cmake --build --preset debug -j $(JOBS)
	@ctest --preset debug -j $(JOBS)

fuzz: deps
	@cmake --preset fuzz >/dev/null
	@cmake --build --preset fuzz -j $(JOBS)
	@bash scripts/fuzz.sh build/fuzz/fuzz $(FUZZ_RUNS)

lint: deps
	@bash scripts/check-format.sh
	@bash scripts/check-layers.sh

format: deps
	@git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' | xargs clang-format-19 -i

clean:
	@rm -rf build
