#include "keel/eth/contract_address.hpp"

#include <cstring>

#include "keel/crypto/keccak.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::eth {

Address contract_address(const Address& sender, std::uint64_t nonce) {
    rlp::Encoder enc;
    const auto list = enc.begin_list();
    enc.add_string(sender.view());
    enc.add_uint(nonce);
    enc.end_list(list);
    const Hash32 h = crypto::keccak256(enc.view());
    Address a;
    std::memcpy(a.data(), h.data() + 12, 20);
    return a;
}

}  // namespace keel::eth
