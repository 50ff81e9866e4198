#pragma once
/// Transaction receipts and their logs: strict RLP decoding, canonical encoding, the receipts
/// root and the logs bloom.
///
/// A receipt (YP §4.3.1, eq. 22) is the RLP list
///   [status_or_post_state, cumulative_gas_used, logs_bloom, logs]
/// where the first field is the post-transaction state root (32 bytes) before Byzantium and the
/// status since (EIP-658: the integer 1 for success, 0 — the empty string — for failure). A log
/// is [address, [topic, ...], data] (YP eq. 25). Receipts of typed transactions are enveloped
/// like the transactions (EIP-2718): type || rlp(list), with the type of the transaction; a
/// legacy receipt is the bare list. That envelope is what the receipts trie stores, keyed by
/// RLP(position) (YP §4.3, eq. 33). Lists of receipts (eth/63-68 Receipts messages, era1 files)
/// wrap a typed envelope in an RLP string, as block bodies do with transactions.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/errors.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/trie/root.hpp"

namespace keel::eth {

/// One log entry (YP §4.3.1, eq. 25): the emitting contract, 0-4 topics, and data.
struct Log {
    Address address;
    std::vector<Hash32> topics;  ///< the EVM emits at most 4 (LOG0-LOG4); decoding takes any
    Bytes data;

    friend bool operator==(const Log&, const Log&) = default;
};

/// The receipt of one transaction. Plain value type.
struct Receipt {
    /// The transaction's type: legacy receipts are bare lists, typed ones type || rlp (2718).
    TxType type = TxType::legacy;
    /// Before Byzantium: the state root after the transaction (then `success` is unused, and
    /// false after decoding).
    std::optional<Hash32> post_state;
    /// Since Byzantium (EIP-658): the status, true for 1 (success), false for 0 (failure).
    bool success = false;
    /// Gas used in the block up to and including this transaction.
    std::uint64_t cumulative_gas_used = 0;
    /// Bloom of the logs' addresses and topics (YP eq. 26-30); see logs_bloom().
    Bloom logs_bloom;
    std::vector<Log> logs;

    friend bool operator==(const Receipt&, const Receipt&) = default;
};

/// Exact size of the receipt's envelope (type byte, if typed, plus the RLP list).
std::size_t encoded_size(const Receipt& r) noexcept;

/// Appends the envelope (legacy: rlp(list); typed: type || rlp(list)), canonical: what the
/// receipts trie stores, and what decode_receipt() reads back.
void encode(const Receipt& r, rlp::Encoder& out);

/// The envelope as new bytes, sized exactly up front.
Bytes encode(const Receipt& r);

/// Appends the receipt as one element of a list of receipts: the bare list when legacy, an RLP
/// string holding the envelope when typed.
void encode_item(const Receipt& r, rlp::Encoder& out);

/// Decodes a receipt envelope: an RLP list (legacy), or a type byte 0x01-0x04 followed by one
/// RLP list, covering all of `in`. Strict: canonical RLP, exactly four fields; status empty (0),
/// 0x01 (1) or a 32-byte state root; cumulative gas at most 64 bits; bloom 256 bytes; each log
/// exactly [20-byte address, list of 32-byte topics, data]. Offsets start at `base_offset`.
/// Errors: type_not_supported (field receipt type; detail: the first byte: 0x00, 0x05-0xbf),
/// rlp (field receipt for the envelope and the list itself; otherwise the field at fault),
/// too_few_fields, too_many_fields (also of a log: field receipt log), invalid_receipt_status
/// (detail: its size), integer_overflow, too_short, too_long. On failure nothing is returned but
/// the error; a success allocates the logs, their topics and data.
[[nodiscard]] Result<Receipt, Error> decode_receipt(BytesView in,
                                                    std::size_t base_offset = 0) noexcept;

/// Decodes one element of a list of receipts: an RLP list (legacy) or an RLP string holding a
/// typed envelope, covering all of `item`. Errors: those of decode_receipt(), and
/// type_not_supported for a string that holds no typed envelope.
[[nodiscard]] Result<Receipt, Error> decode_receipt_item(BytesView item,
                                                         std::size_t base_offset = 0) noexcept;

/// One log as views into stored receipt bytes (nothing copied): what a log filter looks at;
/// to_log() copies it out when it is wanted.
struct LogView {
    Address address;
    BytesView topics_rlp;  ///< the topics' RLP items back to back: each 0xa0 and 32 bytes
    std::size_t topic_count = 0;
    BytesView data;

    /// Topic `i` (< topic_count).
    BytesView topic(std::size_t i) const noexcept { return topics_rlp.subspan(33 * i + 1, 32); }
    Log to_log() const;
};

/// Reads the logs of a stored list of receipts (legacy receipts as lists, typed ones as strings
/// holding their envelope: the form encode_item() writes) one after the other, without decoding
/// the receipts: no allocation, the logs seen in place. For eth_getLogs, whose filters reject
/// most logs. Each receipt's four fields are checked for their shape (status and bloom are not
/// read); each log's address must be 20 bytes, its topics 32. Errors are decode_receipt()'s
/// (field and offset in `receipts`).
class ReceiptLogReader {
  public:
    /// Errors: `receipts` is not one RLP list.
    [[nodiscard]] static Result<ReceiptLogReader, Error> open(BytesView receipts) noexcept;

    /// The next log, nullopt after the last receipt's last log.
    [[nodiscard]] Result<std::optional<LogView>, Error> next() noexcept;

    /// The receipts opened so far: the last log came from receipt receipts() - 1; after the
    /// end, the number of receipts in the list.
    std::size_t receipts() const noexcept { return receipts_; }

  private:
    explicit ReceiptLogReader(rlp::Decoder list) noexcept : list_(list) {}
    rlp::Decoder list_;
    rlp::Decoder logs_;
    std::size_t receipts_ = 0;
};

/// Sets the three bloom bits of `entry` (an address or a topic): for i in 0, 2, 4 the bit
/// numbered by the low 11 bits of keccak256(entry)[i, i+1], bit 0 being the lowest bit of the
/// last byte (YP §4.3.1, eq. 29-30, M3:2048).
void bloom_add(Bloom& bloom, BytesView entry) noexcept;

/// Whether `bloom` has the three bits of `entry`: false means no log in it has this address or
/// topic; true means one may (eth_getLogs reads the receipts of such blocks only).
bool bloom_may_contain(const Bloom& bloom, BytesView entry) noexcept;

/// The bloom of `logs`: M3:2048 of every log's address and topics, ORed (YP eq. 26-28).
Bloom logs_bloom(std::span<const Log> logs) noexcept;

/// A block header's logs bloom: the OR of its receipts' blooms (YP §4.3, eq. 35's H_b).
Bloom block_bloom(std::span<const Receipt> receipts) noexcept;

/// The receipts root: trie root of RLP(i) -> envelope of receipts[i] (YP §4.3, eq. 33).
/// `builder` is reused for its buffers (see trie::RootBuilder).
Hash32 receipts_root(std::span<const Receipt> receipts, trie::RootBuilder& builder);

/// As above with a fresh builder.
Hash32 receipts_root(std::span<const Receipt> receipts);

}  // namespace keel::eth
