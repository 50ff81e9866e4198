#pragma once
/// Validator withdrawals in execution blocks (EIP-4895, Shanghai): the RLP list
///   [index, validator_index, address, amount]
/// with index, validator index and amount (in gwei) as 64-bit integers and a 20-byte address.
/// A block's withdrawals root is the trie root of the list keyed by RLP(position)
/// (EIP-4895: "withdrawals_root ... as the transactions root is computed").

#include <cstddef>
#include <cstdint>
#include <span>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/errors.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/trie/root.hpp"

namespace keel::eth {

/// One withdrawal from the consensus layer to an execution address (EIP-4895). Trivially
/// copyable.
struct Withdrawal {
    std::uint64_t index = 0;            ///< WithdrawalIndex, monotonic over the chain
    std::uint64_t validator_index = 0;  ///< ValidatorIndex
    Address address;                    ///< the recipient
    std::uint64_t amount_gwei = 0;      ///< Gwei (1e9 wei), credited without gas

    friend bool operator==(const Withdrawal&, const Withdrawal&) = default;
};

/// Exact size of rlp(withdrawal).
std::size_t encoded_size(const Withdrawal& w) noexcept;

/// Appends rlp(withdrawal) to `out` (canonical).
void encode(const Withdrawal& w, rlp::Encoder& out);

/// rlp(withdrawal) as new bytes.
Bytes encode(const Withdrawal& w);

/// Decodes one withdrawal: `in` must be exactly one list of four canonical fields (integers at
/// most 64 bits, address 20 bytes). Offsets start at `base_offset`. Errors: rlp (field
/// withdrawal for the list itself), too_few_fields, too_many_fields, integer_overflow,
/// too_short, too_long (field: the one at fault). Allocates nothing.
[[nodiscard]] Result<Withdrawal, Error> decode_withdrawal(BytesView in,
                                                          std::size_t base_offset = 0) noexcept;

/// The withdrawals root: trie root of RLP(i) -> rlp(withdrawals[i]) (EIP-4895).
/// `builder` is reused for its buffers (see trie::RootBuilder).
Hash32 withdrawals_root(std::span<const Withdrawal> withdrawals, trie::RootBuilder& builder);

/// As above with a fresh builder.
Hash32 withdrawals_root(std::span<const Withdrawal> withdrawals);

}  // namespace keel::eth
