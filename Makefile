# keel: the two commands a newcomer needs are `make run` and `make test`.
# Every target installs what it needs first (scripts/deps.sh is quiet when all is present).

JOBS ?= $(shell nproc)
FUZZ_SECONDS ?= 60
.DEFAULT_GOAL := run

.PHONY: deps configure build build-tests run test stress bench fuzz lint format asan tsan debug clean

deps:
	@bash scripts/deps.sh

build/release/build.ninja: CMakeLists.txt CMakePresets.json | deps
	@cmake --preset release >/dev/null

configure: deps build/release/build.ninja

# Everything: the keel command, the tests and the benchmarks (keel-bench, the hook-cost check).
build: configure
	@cmake --build --preset release -j $(JOBS) --target all keel_benches

# What the tests need: CMake's `all`, which leaves the benchmarks out.
build-tests: configure
	@cmake --build --preset release -j $(JOBS)

# keel's main job: generate a 10,000-block chain (50 signed transactions per block, merge at
# 7,500), import it into build/run/datadir, verify, prune pre-merge history, verify again, and
# print a summary (import blocks/s and tx/s, pruning time, bytes before and after).
run: build
	@bash scripts/run.sh build/release/apps/keel/keel

test: build-tests
	@ctest --preset release -j $(JOBS)

# The tests that touch threads, sockets, timeouts or subprocesses beside more CPU burners than
# cores and a compiler loop per core (scripts/stress.sh): each such test case repeated
# STRESS_CASE_REPEATS times in its executable, each such CTest entry until it fails,
# STRESS_REPEATS times at most.
STRESS_REPEATS ?= 50
STRESS_CASE_REPEATS ?= 50
stress: build-tests
	@bash scripts/stress.sh build/release $(STRESS_REPEATS) $(STRESS_CASE_REPEATS)

bench: build
	@build/release/bench/keel-bench $(BENCH_ARGS)

# One clang 19 build (build/asan) for both: ASan + UBSan on every target, libFuzzer coverage on
# the libraries, the fuzz targets beside the tests. Its CTest runs every unit and CLI test and a
# deterministic sample of the big vector suites (every 8th fixture file: KEEL_SPEC_SAMPLE).
asan: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan -j $(JOBS)

# ThreadSanitizer over the concurrent paths that keel synchronises itself: RLPx sessions (one
# reader, many writers), the store (parallel import and verify, readers beside a writer), batch
# sender recovery (two threads on the same transactions), the node's subscriptions (a notifier
# thread beside the connections). BLS batch verification is left out:
# its only concurrency is oneTBB's pool, which Debian ships uninstrumented (scripts/tsan.supp), so
# TSan would see nothing there, and its build would cost CI minutes.
TSAN_TESTS := keel_rlpx_test keel_store_test keel_eth_test keel_rpc_test keel_common_test
tsan: deps
	@cmake --preset tsan >/dev/null
	@cmake --build --preset tsan -j $(JOBS) --target $(TSAN_TESTS)
	@bash scripts/tsan.sh build/tsan

debug: deps
	@cmake --preset debug >/dev/null
	@cmake --build --preset debug -j $(JOBS)
	@ctest --preset debug -j $(JOBS)

# Every libFuzzer target for FUZZ_SECONDS seconds each (the asan build's fuzz targets).
fuzz: deps
	@cmake --preset asan >/dev/null
	@cmake --build --preset asan -j $(JOBS)
	@bash scripts/fuzz.sh build/asan/fuzz $(FUZZ_SECONDS)

lint: deps
	@bash scripts/check-format.sh
	@bash scripts/check-layers.sh

format: deps
	@git ls-files --cached --others --exclude-standard '*.cpp' '*.hpp' | xargs clang-format-19 -i

clean:
	@rm -rf build
