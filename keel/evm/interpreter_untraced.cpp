// The untraced instances of the interpreter, one per fork (interpreter_impl.hpp), and the choice
// between them and the traced ones.
#include "keel/evm/interpreter_impl.hpp"

namespace keel::evm {

CallResult (*untraced_interpreter(Fork fork) noexcept)(Evm&, const Message&, const CodeAnalysis&) {
    static constexpr auto kTable =
        make_interpreters<false>(std::make_index_sequence<eth::kForks.size()>{});
    return kTable[static_cast<std::size_t>(fork)];
}

CallResult (*select_interpreter(Fork fork, bool tracing))(Evm&, const Message&,
                                                          const CodeAnalysis&) {
#ifdef KEEL_EVM_NO_HOOKS
    (void)tracing;  // bench/evm_hooks_cost.sh: a build with no hook at all has no traced instance
    return untraced_interpreter(fork);
#else
    return tracing ? traced_interpreter(fork) : untraced_interpreter(fork);
#endif
}

}  // namespace keel::evm
