// The cost of tracer hooks when no tracer is attached (issue 15): this program runs evm-benchmarks
// cases through the EVM with no tracer. It is built twice, once on keel::evm (hooks compiled in,
// untraced) and once on keel_evm_nohooks (KEEL_EVM_NO_HOOKS: the interpreter and the frame code
// built without any hook), and bench/evm_hooks_cost.sh counts the instructions of both under
// callgrind. Usage: evm_hooks_cost[_nohooks] BENCHMARKS_DIR CASE_REGEX [REPEATS]
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <string>

#include "bench/evm_fixture.hpp"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s BENCHMARKS_DIR CASE_REGEX [REPEATS]\n", argv[0]);
        return 2;
    }
    const auto cases = keel::bench::load_evm_cases(argv[1]);
    const std::regex pick(argv[2]);
    const int repeats = argc > 3 ? std::atoi(argv[3]) : 1;
    keel::evm::AnalysisCache cache;
    std::int64_t gas = 0;
    int ran = 0;
    for (const auto& c : cases) {
        if (!std::regex_search(c.name, pick)) continue;
        for (int i = 0; i < repeats; ++i)
            gas += c.gas - keel::bench::run_evm_case(c, cache).gas_left;
        ++ran;
    }
    std::printf("%d cases, %lld gas\n", ran, static_cast<long long>(gas));
    return ran == 0 ? 1 : 0;
}
