// The .bin files are compiled in with KEEL_INCBIN; the build passes their folder as
// KEEL_CONTRACTS_DIR and lists them as this object's dependencies.
#include "keel/devnet/contracts.hpp"

#include <cstring>

#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/incbin.hpp"
#include "keel/crypto/keccak.hpp"

KEEL_INCBIN(keel_contract_token, KEEL_CONTRACTS_DIR "/Token.bin")
KEEL_INCBIN(keel_contract_pair, KEEL_CONTRACTS_DIR "/Pair.bin")
KEEL_INCBIN(keel_contract_nft, KEEL_CONTRACTS_DIR "/Nft.bin")
KEEL_INCBIN(keel_contract_churn, KEEL_CONTRACTS_DIR "/Churn.bin")
KEEL_INCBIN(keel_contract_factory, KEEL_CONTRACTS_DIR "/Factory.bin")
KEEL_INCBIN(keel_contract_batch, KEEL_CONTRACTS_DIR "/Batch.bin")

namespace keel::devnet {
namespace {

std::string_view hex_of(Contract c) noexcept {
    switch (c) {
        case Contract::token:
            return incbin_view(keel_contract_token_begin, keel_contract_token_end);
        case Contract::pair:
            return incbin_view(keel_contract_pair_begin, keel_contract_pair_end);
        case Contract::nft:
            return incbin_view(keel_contract_nft_begin, keel_contract_nft_end);
        case Contract::churn:
            return incbin_view(keel_contract_churn_begin, keel_contract_churn_end);
        case Contract::factory:
            return incbin_view(keel_contract_factory_begin, keel_contract_factory_end);
        case Contract::batch:
            return incbin_view(keel_contract_batch_begin, keel_contract_batch_end);
    }
    return {};
}

void append_words(Bytes& out, std::initializer_list<AbiWord> args) {
    for (const AbiWord& w : args) out.insert(out.end(), w.bytes().begin(), w.bytes().end());
}

}  // namespace

AbiWord::AbiWord(const Address& a) noexcept {
    std::memcpy(bytes_.data() + 12, a.data(), 20);
}

Bytes creation_code(Contract c) {
    std::string_view text = hex_of(c);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
    auto code = hex::decode(text);
    KEEL_ASSERT(code.has_value() && !code->empty());  // checked in by compile_contracts.sh
    return std::move(*code);
}

Bytes abi_call(std::string_view signature, std::initializer_list<AbiWord> args) {
    const Hash32 h = crypto::keccak256(
        BytesView(reinterpret_cast<const std::uint8_t*>(signature.data()), signature.size()));
    Bytes out(h.data(), h.data() + 4);
    out.reserve(4 + 32 * args.size());
    append_words(out, args);
    return out;
}

Bytes with_arguments(Contract c, std::initializer_list<AbiWord> args) {
    Bytes out = creation_code(c);
    append_words(out, args);
    return out;
}

}  // namespace keel::devnet
