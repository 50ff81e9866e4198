#pragma once
/// Ethereum block headers: every field from Frontier through Prague, strict RLP decoding,
/// canonical encoding and the header (block) hash.
///
/// A header is the RLP list (YP §4.3, eq. 35 and app. B)
///   [parent_hash, ommers_hash, beneficiary, state_root, transactions_root, receipts_root,
///    logs_bloom, difficulty, number, gas_limit, gas_used, timestamp, extra_data, mix_hash,
///    nonce,
///    base_fee_per_gas                 (London, EIP-1559)
///    withdrawals_root                 (Shanghai, EIP-4895)
///    blob_gas_used, excess_blob_gas   (Cancun, EIP-4844)
///    parent_beacon_block_root         (Cancun, EIP-4788)
///    requests_hash]                   (Prague, EIP-7685)
/// The fields after nonce are optional and positional: a header carries a prefix of them, so a
/// later one is present only when all earlier ones are. Which prefix a fork requires is a
/// validation rule, not a decoding one: the decoder accepts 15 to 21 fields.
///
/// Its hash is keccak256(rlp(header)) (YP §4.3: the block hash is the header's hash).

#include <cstddef>
#include <cstdint>
#include <optional>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/errors.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::eth {

/// keccak256(rlp([])) = keccak256(0xc0): the ommers hash of a block without ommers, which every
/// block since the Merge has (EIP-3675).
inline constexpr Hash32 kEmptyOmmersHash{{0x1d, 0xcc, 0x4d, 0xe8, 0xde, 0xc7, 0x5d, 0x7a,
                                          0xab, 0x85, 0xb5, 0x67, 0xb6, 0xcc, 0xd4, 0x1a,
                                          0xd3, 0x12, 0x45, 0x1b, 0x94, 0x8a, 0x74, 0x13,
                                          0xf0, 0xa1, 0x42, 0xfd, 0x40, 0xd4, 0x93, 0x47}};

/// 8-byte header nonce (proof-of-work; zero since the Merge).
using Nonce8 = FixedBytes<8>;

/// A block header. Plain value type; copies are independent.
struct Header {
    Hash32 parent_hash;        ///< keccak256 of the parent's header
    Hash32 ommers_hash;        ///< keccak256 of the RLP list of ommer headers
    Address beneficiary;       ///< fee recipient ("coinbase", "miner")
    Hash32 state_root;         ///< state trie root after the block
    Hash32 transactions_root;  ///< trie root of the body's transactions (block.hpp)
    Hash32 receipts_root;      ///< trie root of the receipts (receipt.hpp)
    Bloom logs_bloom;          ///< OR of the receipts' blooms (YP §4.3.1)
    Uint256 difficulty;        ///< zero since the Merge (EIP-3675)
    std::uint64_t number = 0;
    std::uint64_t gas_limit = 0;
    std::uint64_t gas_used = 0;
    std::uint64_t timestamp = 0;
    Bytes extra_data;  ///< at most 32 bytes by consensus (YP §4.3.4); not checked when decoding
    Hash32 mix_hash;   ///< proof-of-work mix hash; prevRandao since the Merge (EIP-4399)
    Nonce8 nonce;      ///< proof-of-work nonce; zero since the Merge
    std::optional<Uint256> base_fee_per_gas;         ///< EIP-1559 (London)
    std::optional<Hash32> withdrawals_root;          ///< EIP-4895 (Shanghai)
    std::optional<std::uint64_t> blob_gas_used;      ///< EIP-4844 (Cancun)
    std::optional<std::uint64_t> excess_blob_gas;    ///< EIP-4844 (Cancun)
    std::optional<Hash32> parent_beacon_block_root;  ///< EIP-4788 (Cancun)
    std::optional<Hash32> requests_hash;             ///< EIP-7685 (Prague)

    /// Number of optional fields present after nonce (0..6). Precondition for encoding: the
    /// present ones are a prefix (base fee, withdrawals root, blob gas used, excess blob gas,
    /// parent beacon block root, requests hash), as after decoding (asserted by encode()).
    std::size_t optional_field_count() const noexcept;

    /// keccak256(rlp(header)): the block hash. Encodes the header (one allocation of the exact
    /// size) and hashes it; a decoder that still has the input can hash those bytes instead, as
    /// decode_block() does.
    Hash32 hash() const;

    friend bool operator==(const Header&, const Header&) = default;
};

/// Exact size of rlp(header): header and payload.
std::size_t encoded_size(const Header& h) noexcept;

/// Appends rlp(header) to `out`, canonical (decode_header() of the output gives `h` back).
/// Precondition (asserted): the optional fields present are a prefix, see Header.
void encode(const Header& h, rlp::Encoder& out);

/// rlp(header) as new bytes, sized exactly up front.
Bytes encode(const Header& h);

/// Decodes one header: `in` must be exactly one RLP list of 15 to 21 fields, each canonical and
/// of its size (hashes 32 bytes, beneficiary 20, bloom 256, nonce 8; number, gas limit, gas
/// used, timestamp, blob gas fields at most 64 bits; difficulty and base fee at most 256 bits).
/// Offsets start at `base_offset` (the position of `in` within a larger input).
/// Errors (field: the header field at fault, Field::header for the list itself): rlp (the RLP
/// rule), too_few_fields (fewer than 15; field: the first missing, offset: the list's end),
/// too_many_fields (more than 21; offset: the first extra item), integer_overflow, too_short,
/// too_long. On failure nothing is returned but the error. The copy of extra_data is the only
/// allocation.
[[nodiscard]] Result<Header, Error> decode_header(BytesView in,
                                                  std::size_t base_offset = 0) noexcept;

}  // namespace keel::eth
