// The traced instances of the interpreter, one per fork (interpreter_impl.hpp), in a unit of
// their own so that they leave the untraced loop's code as it would be without them.
#ifndef KEEL_EVM_NO_HOOKS
#include "keel/evm/interpreter_impl.hpp"

namespace keel::evm {

CallResult (*traced_interpreter(Fork fork) noexcept)(Evm&, const Message&, const CodeAnalysis&) {
    static constexpr auto kTable =
        make_interpreters<true>(std::make_index_sequence<eth::kForks.size()>{});
    return kTable[static_cast<std::size_t>(fork)];
}

}  // namespace keel::evm
#endif
