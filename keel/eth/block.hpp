#pragma once
/// Blocks and block bodies: strict RLP decoding, canonical encoding, and the roots a header
/// commits to.
///
/// A block is the RLP list (YP §4.3, eq. 34; EIP-4895)
///   [header, [transaction, ...], [ommer header, ...]]                  before Shanghai
///   [header, [transaction, ...], [ommer header, ...], [withdrawal, ...]]  from Shanghai
/// and a body (eth/66 BlockBodies) the same list without the header. Each transaction element
/// is the legacy transaction's RLP list, or an RLP string holding a typed envelope
/// type || rlp(payload) (EIP-2718). Since Prague (EIP-7685) the execution requests are committed
/// by the header's requests hash and are not part of the body.
///
/// The header commits to its body through
///   transactions_root  trie root of RLP(i) -> envelope of transaction i (the list element for a
///                      legacy transaction, the string's payload for a typed one)  (YP eq. 33)
///   ommers_hash        keccak256(rlp(list of ommer headers))                     (YP eq. 33)
///   withdrawals_root   trie root of RLP(i) -> rlp(withdrawal i)                  (EIP-4895)
/// Checking them is left to the caller (the functions below compute them); decoding checks form.

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/errors.hpp"
#include "keel/eth/header.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/eth/withdrawal.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/trie/root.hpp"

namespace keel::eth {

/// The body of a block: what the header's roots commit to.
struct BlockBody {
    std::vector<Transaction> transactions;
    std::vector<Header> ommers;  ///< "uncles"; always empty since the Merge (EIP-3675)
    /// Present from Shanghai (EIP-4895), possibly empty; absent before. Encoded only when present.
    std::optional<std::vector<Withdrawal>> withdrawals;
};

/// A block: header and body.
struct Block {
    Header header;
    BlockBody body;

    /// The block hash: the header's hash, keccak256(rlp(header)) (YP §4.3).
    Hash32 hash() const { return header.hash(); }
};

/// Decodes a block: `in` must be exactly one list [header, transactions, ommers] or [header,
/// transactions, ommers, withdrawals], every part strict (see decode_header(),
/// decode_transaction_item(), decode_withdrawal()). Offsets are absolute, starting at
/// `base_offset`, also inside transactions, ommers and withdrawals.
/// Errors: rlp (field block for the block's own list and trailing bytes; block transactions,
/// block ommers, block withdrawals for those lists), too_few_fields (fewer than 3 items; field:
/// the first missing part), too_many_fields (more than 4), and every error of the parts' decoders
/// (their fields say which part: header, transaction, withdrawal). On failure nothing is
/// returned but the error.
[[nodiscard]] Result<Block, Error> decode_block(BytesView in, std::size_t base_offset = 0) noexcept;

/// Decodes a body [transactions, ommers] or [transactions, ommers, withdrawals] (the element of
/// an eth/66 BlockBodies message). Errors as decode_block(), without the header.
[[nodiscard]] Result<BlockBody, Error> decode_body(BytesView in,
                                                   std::size_t base_offset = 0) noexcept;

/// Exact size of rlp(block).
std::size_t encoded_size(const Block& b) noexcept;

/// Exact size of rlp(body).
std::size_t encoded_size(const BlockBody& b) noexcept;

/// Appends rlp(block), canonical: for a decoded block, the bytes it was decoded from.
/// Transactions are written from their envelopes (Transaction::encoded()).
void encode(const Block& b, rlp::Encoder& out);

/// rlp(block) as new bytes, sized exactly up front.
Bytes encode(const Block& b);

/// Appends rlp(body) ([transactions, ommers(, withdrawals)]).
void encode(const BlockBody& b, rlp::Encoder& out);

/// rlp(body) as new bytes.
Bytes encode(const BlockBody& b);

/// The transactions root: trie root of RLP(i) -> transactions[i].encoded() (YP eq. 33,
/// EIP-2718). `builder` is reused for its buffers.
Hash32 transactions_root(std::span<const Transaction> transactions, trie::RootBuilder& builder);

/// As above with a fresh builder.
Hash32 transactions_root(std::span<const Transaction> transactions);

/// The ommers hash: keccak256(rlp(ommers)); kEmptyOmmersHash for none.
Hash32 ommers_hash(std::span<const Header> ommers);

}  // namespace keel::eth
