#include "keel/evm/analysis.hpp"

#include <cstring>

#include "keel/evm/opcodes.hpp"

namespace keel::evm {

CodeAnalysis analyze(BytesView code) {
    CodeAnalysis a;
    a.size = code.size();
    a.padded.reserve(code.size() + CodeAnalysis::kPadding);
    a.padded.insert(a.padded.end(), code.begin(), code.end());
    a.padded.resize(code.size() + CodeAnalysis::kPadding, 0);
    a.jumpdest.assign(code.size(), 0);
    for (std::size_t pc = 0; pc < code.size(); ++pc) {
        const std::uint8_t op = code[pc];
        if (op == OP_JUMPDEST) {
            a.jumpdest[pc] = 1;
        } else if (op >= OP_PUSH1 && op <= OP_PUSH32) {
            pc += static_cast<std::size_t>(op - OP_PUSH1 + 1);
        }
    }
    return a;
}

std::shared_ptr<const CodeAnalysis> AnalysisCache::get(const Hash32& code_hash, BytesView code) {
    auto [it, inserted] = map_.try_emplace(code_hash);
    if (inserted) it->second = std::make_shared<const CodeAnalysis>(analyze(code));
    return it->second;
}

}  // namespace keel::evm
