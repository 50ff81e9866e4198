#pragma once
/// Ethereum transactions of every type: decoding, hashing, encoding.
///
/// Types (EIP-2718 envelope: a legacy transaction is an RLP list; a typed one is the type byte
/// followed by the RLP list of its payload):
///   0 legacy       [nonce, gas_price, gas_limit, to, value, data, v, r, s]          (YP §4.2,
///                  EIP-155: v = chain_id * 2 + 35 + y_parity, or 27 + y_parity without chain id)
///   1 access_list  [chain_id, nonce, gas_price, gas_limit, to, value, data, access_list,
///                   y_parity, r, s]                                                 (EIP-2930)
///   2 dynamic_fee  [chain_id, nonce, max_priority_fee_per_gas, max_fee_per_gas, gas_limit, to,
///                   value, data, access_list, y_parity, r, s]                       (EIP-1559)
///   3 blob         [... access_list, max_fee_per_blob_gas, blob_versioned_hashes,
///                   y_parity, r, s]; network form [payload, blobs, commitments, proofs]
///                   (EIP-4844) or [payload, 1, blobs, commitments, cell_proofs] (EIP-7594)
///   4 set_code     [... access_list, authorization_list, y_parity, r, s]; authorization
///                   [chain_id, address, nonce, y_parity, r, s]                      (EIP-7702)
///
/// Decoding is strict: canonical RLP everywhere (YP app. B), the exact number of fields for the
/// type, integers without leading zeros and within their width (64 bits for nonce, gas limit,
/// chain id and authorization nonce; 256 bits otherwise), addresses of exactly 20 bytes (or empty
/// for a contract creation, which types 3 and 4 do not allow), hashes of exactly 32 bytes, no
/// trailing bytes, no unknown type. It checks form, not validity: signature ranges, chain id,
/// fork rules and gas live in tx_validation.hpp.
///
/// Memory: a Transaction owns one copy of its envelope bytes (one allocation); numbers are
/// decoded into plain fields, and data, access list, blob hashes and authorizations are views
/// over that buffer, reached through offsets (so copies of a Transaction stay valid). Its hash
/// (keccak256 of the envelope) is computed while decoding; the signing hash only on demand.
///
/// Threading: a const Transaction may be read from many threads, sender recovery included: the
/// recovered sender is published once, atomically (SenderSlot), and no const holder can write it.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/common/uint256.hpp"
#include "keel/eth/errors.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::eth {

/// EIP-2718 transaction types keel knows.
enum class TxType : std::uint8_t {
    legacy = 0,       ///< no envelope type byte (YP §4.2, EIP-155)
    access_list = 1,  ///< EIP-2930
    dynamic_fee = 2,  ///< EIP-1559
    blob = 3,         ///< EIP-4844
    set_code = 4,     ///< EIP-7702
};

/// EIP-4844 sizes of a blob sidecar's items.
inline constexpr std::size_t kBlobSize = 131072;    ///< FIELD_ELEMENTS_PER_BLOB * 32
inline constexpr std::size_t kCommitmentSize = 48;  ///< KZG commitment (a G1 point)
inline constexpr std::size_t kProofSize = 48;       ///< KZG proof (a G1 point)
/// EIP-7594 cell proofs per blob (CELLS_PER_EXT_BLOB) in the version-1 network form.
inline constexpr std::size_t kCellProofsPerBlob = 128;

/// A view of consecutive RLP strings of exactly N bytes each (storage keys, blob hashes, blobs,
/// commitments, proofs) inside a decoded transaction's buffer. Valid while that transaction
/// lives. Elements are views (as_view) or copies (operator[], iteration).
template <std::size_t N>
class FixedItemsView {
  public:
    /// Encoded size of one item: its RLP header and N bytes.
    static constexpr std::size_t kStride = rlp::header_length(N) + N;

    /// An empty view.
    FixedItemsView() noexcept = default;

    /// The items encoded back to back at `items` (count of them). Trusted: decode built it.
    FixedItemsView(const std::uint8_t* items, std::size_t count) noexcept
        : items_(items), count_(count) {}

    /// Number of items.
    std::size_t size() const noexcept { return count_; }
    /// True when there are none.
    bool empty() const noexcept { return count_ == 0; }
    /// Item i (copied). Precondition: i < size().
    FixedBytes<N> operator[](std::size_t i) const noexcept {
        FixedBytes<N> out;
        std::memcpy(out.data(), items_ + i * kStride + (kStride - N), N);
        return out;
    }
    /// Item i as a view into the transaction's buffer. Precondition: i < size().
    BytesView as_view(std::size_t i) const noexcept {
        return {items_ + i * kStride + (kStride - N), N};
    }

    /// Forward iterator yielding copies of the items.
    class iterator {
      public:
        /// Forward-iterator members: traits, a default (singular) iterator, increments, equality.
        using value_type = FixedBytes<N>;
        using difference_type = std::ptrdiff_t;
        iterator() noexcept = default;
        explicit iterator(const std::uint8_t* p) noexcept : p_(p) {}
        FixedBytes<N> operator*() const noexcept {
            FixedBytes<N> out;
            std::memcpy(out.data(), p_ + (kStride - N), N);
            return out;
        }
        iterator& operator++() noexcept {
            p_ += kStride;
            return *this;
        }
        iterator operator++(int) noexcept {
            iterator old = *this;
            p_ += kStride;
            return old;
        }
        friend bool operator==(const iterator&, const iterator&) = default;

      private:
        const std::uint8_t* p_ = nullptr;
    };
    /// The first item.
    iterator begin() const noexcept { return iterator(items_); }
    /// Past the last item.
    iterator end() const noexcept { return iterator(items_ + count_ * kStride); }

  private:
    const std::uint8_t* items_ = nullptr;
    std::size_t count_ = 0;
};

/// Storage keys of one access-list entry (EIP-2930).
using StorageKeysView = FixedItemsView<32>;
/// Blob versioned hashes (EIP-4844).
using BlobHashesView = FixedItemsView<32>;

/// One access-list entry: an address and the storage keys it pre-warms (EIP-2930).
struct AccessListEntryView {
    Address address;               ///< the account
    StorageKeysView storage_keys;  ///< its storage keys (views into the transaction)
};

/// The access list of a decoded transaction (empty for legacy ones). Valid while the
/// transaction lives.
class AccessListView {
  public:
    /// An empty list.
    AccessListView() noexcept = default;
    /// Entries encoded back to back in [begin, end), `count` of them; trusted (decode built it).
    AccessListView(const std::uint8_t* begin, const std::uint8_t* end, std::size_t count,
                   std::size_t storage_keys) noexcept
        : begin_(begin), end_(end), count_(count), keys_(storage_keys) {}

    /// Number of entries (addresses, duplicates counted).
    std::size_t size() const noexcept { return count_; }
    /// True when there are no entries.
    bool empty() const noexcept { return count_ == 0; }
    /// Number of storage keys over all entries (duplicates counted).
    std::size_t storage_key_count() const noexcept { return keys_; }

    /// Forward iterator over the entries (each parsed on dereference).
    class iterator {
      public:
        /// Forward-iterator members: traits, a default (singular) iterator, increments, equality.
        using value_type = AccessListEntryView;
        using difference_type = std::ptrdiff_t;
        iterator() noexcept = default;
        explicit iterator(const std::uint8_t* p) noexcept : p_(p) {}
        AccessListEntryView operator*() const noexcept;
        iterator& operator++() noexcept;
        iterator operator++(int) noexcept {
            iterator old = *this;
            ++*this;
            return old;
        }
        friend bool operator==(const iterator&, const iterator&) = default;

      private:
        const std::uint8_t* p_ = nullptr;
    };
    /// The first entry.
    iterator begin() const noexcept { return iterator(begin_); }
    /// Past the last entry.
    iterator end() const noexcept { return iterator(end_); }

  private:
    const std::uint8_t* begin_ = nullptr;
    const std::uint8_t* end_ = nullptr;
    std::size_t count_ = 0;
    std::size_t keys_ = 0;
};

/// An EIP-7702 authorization: the authority (the account that signs it) lets its code be
/// set to a delegation to `address`. Bounds are checked at decode (chain id and r, s below
/// 2^256, nonce below 2^64, y_parity below 2^8); the signature itself is checked when the
/// transaction is processed, where an invalid authorization is skipped, not fatal.
struct Authorization {
    Uint256 chain_id;  ///< 0: valid on any chain
    Address address;   ///< the delegation target
    std::uint64_t nonce = 0;
    std::uint8_t y_parity = 0;
    Uint256 r;
    Uint256 s;

    /// keccak256(MAGIC || rlp([chain_id, address, nonce])) with MAGIC = 0x05: the hash the
    /// authority signed (EIP-7702).
    Hash32 signing_hash() const noexcept;

    friend bool operator==(const Authorization&, const Authorization&) = default;
};

/// The authorization list of a decoded set-code transaction (empty for other types). Valid
/// while the transaction lives.
class AuthorizationListView {
  public:
    /// An empty list.
    AuthorizationListView() noexcept = default;
    /// Tuples encoded back to back in [begin, end), `count` of them; trusted (decode built it).
    AuthorizationListView(const std::uint8_t* begin, const std::uint8_t* end,
                          std::size_t count) noexcept
        : begin_(begin), end_(end), count_(count) {}

    /// Number of authorizations.
    std::size_t size() const noexcept { return count_; }
    /// True when there are none.
    bool empty() const noexcept { return count_ == 0; }

    /// Forward iterator yielding each authorization decoded (a value).
    class iterator {
      public:
        /// Forward-iterator members: traits, a default (singular) iterator, increments, equality.
        using value_type = Authorization;
        using difference_type = std::ptrdiff_t;
        iterator() noexcept = default;
        explicit iterator(const std::uint8_t* p) noexcept : p_(p) {}
        Authorization operator*() const noexcept;
        /// The tuple's RLP encoding (a view into the transaction's buffer).
        BytesView encoded() const noexcept;
        iterator& operator++() noexcept;
        iterator operator++(int) noexcept {
            iterator old = *this;
            ++*this;
            return old;
        }
        friend bool operator==(const iterator&, const iterator&) = default;

      private:
        const std::uint8_t* p_ = nullptr;
    };
    /// The first authorization.
    iterator begin() const noexcept { return iterator(begin_); }
    /// Past the last authorization.
    iterator end() const noexcept { return iterator(end_); }

  private:
    const std::uint8_t* begin_ = nullptr;
    const std::uint8_t* end_ = nullptr;
    std::size_t count_ = 0;
};

class Transaction;

namespace detail {
/// Sets each transaction's hash to keccak256(encoded()), eight at a time with
/// crypto::keccak256_many() (for decoders that parse first and hash after).
void hash_transactions(std::span<Transaction> txs) noexcept;
}  // namespace detail

/// The sender a Transaction remembers after recovery: empty until keel/eth/sender.hpp publishes
/// the recovered address, then that address for good. Publishing is once and atomic: of two
/// threads recovering the same transaction, the first to claim the slot writes it and the other
/// keeps its own (equal) result; a reader sees either nothing or the whole address (acquire /
/// release on the state byte). Nothing but sender recovery can publish (see Key), so a const
/// Transaction cannot be given a sender that its signature does not yield.
class SenderSlot {
  public:
    SenderSlot() noexcept = default;
    /// Copies carry a published sender (and not one being written at that moment).
    SenderSlot(const SenderSlot& o) noexcept { copy_from(o); }
    SenderSlot& operator=(const SenderSlot& o) noexcept {
        if (this != &o) copy_from(o);
        return *this;
    }
    ~SenderSlot() = default;

    /// The published sender, or nullopt.
    std::optional<Address> get() const noexcept {
        if (state_.load(std::memory_order_acquire) != kReady) return std::nullopt;
        return address_;
    }

    /// Only sender recovery makes one (keel/eth/sender.cpp).
    class Key {
        Key() = default;
        friend struct SenderPublisher;
    };
    /// Publishes `a` unless a sender is published or being published already (then the slot
    /// keeps that one: every recovery of a transaction yields the same address).
    void publish(Key, const Address& a) const noexcept {
        std::uint8_t expected = kEmpty;
        // Claim first, write, then release: the address is written by one thread only, and a
        // reader that sees kReady sees the bytes written before it.
        if (!state_.compare_exchange_strong(expected, kWriting, std::memory_order_acquire,
                                            std::memory_order_relaxed)) {
            return;
        }
        address_ = a;
        state_.store(kReady, std::memory_order_release);
    }

    /// Forgets the sender. Needs a non-const Transaction, i.e. sole ownership (benchmarks that
    /// recover the same transactions again, tests).
    void clear() noexcept {
        state_.store(kEmpty, std::memory_order_relaxed);
        address_ = Address{};
    }

  private:
    static constexpr std::uint8_t kEmpty = 0, kWriting = 1, kReady = 2;

    void copy_from(const SenderSlot& o) noexcept {
        if (o.state_.load(std::memory_order_acquire) == kReady) {
            address_ = o.address_;
            state_.store(kReady, std::memory_order_relaxed);
        } else {
            address_ = Address{};
            state_.store(kEmpty, std::memory_order_relaxed);
        }
    }

    mutable Address address_{};
    mutable std::atomic<std::uint8_t> state_{kEmpty};
};

/// The authorities of a set-code transaction's EIP-7702 authorizations, recovered once and
/// published into the transaction as its sender is (keel/eth/sender.hpp: authorities()): a
/// replay of a stored block, or a traced one, then costs no signature recovery per
/// authorization. The list is published whole, once (compare-and-swap of a pointer; a thread
/// that loses the race drops its own, equal, list), and freed with the slot.
class AuthoritySlot {
  public:
    /// Each authorization's authority, in list order; nullopt where its signature is invalid.
    using List = std::vector<std::optional<Address>>;

    AuthoritySlot() noexcept = default;
    /// Copies carry a published list (a copy of it).
    AuthoritySlot(const AuthoritySlot& o) : list_(o.copy()) {}
    AuthoritySlot& operator=(const AuthoritySlot& o) {
        if (this != &o) reset(o.copy());
        return *this;
    }
    AuthoritySlot(AuthoritySlot&& o) noexcept
        : list_(o.list_.exchange(nullptr, std::memory_order_acq_rel)) {}
    AuthoritySlot& operator=(AuthoritySlot&& o) noexcept {
        if (this != &o) reset(o.list_.exchange(nullptr, std::memory_order_acq_rel));
        return *this;
    }
    ~AuthoritySlot() { delete list_.load(std::memory_order_acquire); }

    /// The published list, or null.
    const List* get() const noexcept { return list_.load(std::memory_order_acquire); }

    /// Only recovery makes one (keel/eth/sender.cpp).
    class Key {
        Key() = default;
        friend struct SenderPublisher;
    };
    /// Publishes `list` unless a list is published already; returns the one published.
    const List* publish(Key, std::unique_ptr<List> list) const noexcept {
        const List* expected = nullptr;
        if (list_.compare_exchange_strong(expected, list.get(), std::memory_order_acq_rel,
                                          std::memory_order_acquire)) {
            return list.release();
        }
        return expected;
    }

    /// Forgets the list (sole owners only, as SenderSlot::clear()).
    void clear() noexcept { reset(nullptr); }

  private:
    const List* copy() const {
        const List* l = get();
        return l == nullptr ? nullptr : new List(*l);
    }
    void reset(const List* l) noexcept { delete list_.exchange(l, std::memory_order_acq_rel); }

    mutable std::atomic<const List*> list_{nullptr};
};

/// A decoded transaction of any type. Created by decode_transaction() or
/// decode_transaction_network(); immutable afterwards (the sender, once recovered, is published
/// into it once; see SenderSlot).
///
/// Accessors of fields a type does not have return zero/empty values: chain_id() is nullopt
/// for a legacy transaction without EIP-155 chain id; gas_price(), max_fee_per_gas() and
/// max_priority_fee_per_gas() follow EIP-1559's reading of older types (both fee caps are the
/// gas price).
class Transaction {
  public:
    /// Copies own a copy of the buffer (views into the copy stay valid after the original is
    /// gone, and carry the cached sender); moves keep the buffer, so views stay valid too.
    Transaction(const Transaction&) = default;
    Transaction(Transaction&&) noexcept = default;
    Transaction& operator=(const Transaction&) = default;
    Transaction& operator=(Transaction&&) noexcept = default;
    ~Transaction() = default;

    /// The EIP-2718 type.
    TxType type() const noexcept { return type_; }

    /// The chain id: the field of typed transactions; for legacy ones the EIP-155 chain id
    /// (v - 35) / 2 when v >= 35 and it fits in 64 bits, std::nullopt otherwise (v = 27/28).
    std::optional<std::uint64_t> chain_id() const noexcept {
        if (has_chain_id_) return chain_id_;
        return std::nullopt;
    }
    /// The sender's nonce.
    std::uint64_t nonce() const noexcept { return nonce_; }
    /// Gas price of types 0 and 1; max_fee_per_gas of types 2-4.
    const Uint256& gas_price() const noexcept { return max_fee_; }
    /// max_fee_per_gas of types 2-4; the gas price of types 0 and 1 (EIP-1559).
    const Uint256& max_fee_per_gas() const noexcept { return max_fee_; }
    /// max_priority_fee_per_gas of types 2-4; the gas price of types 0 and 1 (EIP-1559).
    const Uint256& max_priority_fee_per_gas() const noexcept { return max_priority_fee_; }
    /// The gas limit.
    std::uint64_t gas_limit() const noexcept { return gas_limit_; }
    /// The recipient; std::nullopt for a contract creation.
    std::optional<Address> to() const noexcept {
        if (is_create_) return std::nullopt;
        return to_;
    }
    /// True for a contract creation (empty `to`).
    bool is_create() const noexcept { return is_create_; }
    /// The value transferred, in wei.
    const Uint256& value() const noexcept { return value_; }
    /// Call data or init code (a view into this transaction's buffer).
    BytesView data() const noexcept { return {buf_.data() + data_off_, data_len_}; }
    /// The access list (types 1-4; empty for legacy).
    AccessListView access_list() const noexcept {
        const std::uint8_t* p = buf_.data() + access_list_off_;
        return {p, p + access_list_len_, access_list_count_, storage_key_count_};
    }
    /// max_fee_per_blob_gas of a blob transaction; zero otherwise.
    const Uint256& max_fee_per_blob_gas() const noexcept { return max_fee_per_blob_gas_; }
    /// The blob versioned hashes of a blob transaction; empty otherwise.
    BlobHashesView blob_versioned_hashes() const noexcept {
        return {buf_.data() + blob_hashes_off_, blob_hash_count_};
    }
    /// The authorization list of a set-code transaction; empty otherwise.
    AuthorizationListView authorization_list() const noexcept {
        const std::uint8_t* p = buf_.data() + authorizations_off_;
        return {p, p + authorizations_len_, authorization_count_};
    }

    /// The raw v of a legacy transaction (27/28, or EIP-155 chain_id * 2 + 35/36; any value the
    /// input held); the y_parity field of a typed one.
    const Uint256& v() const noexcept { return v_; }
    /// The signature's y parity: typed: the field's low bit; legacy: 0 for odd v (27, 35 + 2k),
    /// 1 for even v. Meaningful for a transaction that passed validate().
    std::uint8_t y_parity() const noexcept {
        if (type_ == TxType::legacy) return static_cast<std::uint8_t>(1 - (v_[0] & 1));
        return static_cast<std::uint8_t>(v_[0] & 1);
    }
    /// Signature r.
    const Uint256& r() const noexcept { return r_; }
    /// Signature s.
    const Uint256& s() const noexcept { return s_; }

    /// keccak256 of the canonical envelope (encoded()): the transaction hash, computed during
    /// decode. It never involves the sender.
    const Hash32& hash() const noexcept { return hash_; }

    /// The hash the sender signed, computed on each call (no allocation):
    ///   legacy with v = 27/28 (or any v below 35): keccak256(rlp([nonce, gas_price, gas_limit,
    ///     to, value, data]))                                            (YP §4.2, eq. 245)
    ///   legacy with v >= 35: keccak256(rlp([..., data, chain_id, 0, 0])), chain_id = (v-35)/2
    ///                                                                   (EIP-155)
    ///   typed: keccak256(type || rlp([fields without y_parity, r, s]))  (EIP-2718)
    Hash32 signing_hash() const noexcept;

    /// The canonical envelope: the RLP list of a legacy transaction, or type || rlp(payload).
    /// This is what the hash covers and what a block body carries (wrapped in an RLP string for
    /// typed transactions). For a transaction decoded from the network form it excludes the
    /// blob sidecar.
    BytesView encoded() const noexcept { return {buf_.data(), envelope_len_}; }

    /// True when the transaction came from the network form with its blob sidecar.
    bool has_sidecar() const noexcept { return has_sidecar_; }
    /// Sidecar wrapper version: 0 for EIP-4844's [payload, blobs, commitments, proofs], 1 for
    /// EIP-7594's cell-proof form. Meaningful when has_sidecar().
    std::uint8_t wrapper_version() const noexcept { return wrapper_version_; }
    /// The sidecar's blobs (empty without a sidecar).
    FixedItemsView<kBlobSize> blobs() const noexcept {
        return {buf_.data() + blobs_off_, sidecar_blob_count_};
    }
    /// The sidecar's KZG commitments, one per blob (empty without a sidecar).
    FixedItemsView<kCommitmentSize> commitments() const noexcept {
        return {buf_.data() + commitments_off_, sidecar_blob_count_};
    }
    /// The sidecar's KZG proofs: one per blob (version 0) or kCellProofsPerBlob per blob
    /// (version 1); empty without a sidecar.
    FixedItemsView<kProofSize> proofs() const noexcept {
        return {buf_.data() + proofs_off_, proof_count_};
    }

    /// Absolute offset (in the input decode was given, plus its base_offset) of the item of
    /// top-level field `f` (Field::none and Field::type: the envelope's start). Used by
    /// validate() to say where a bad field is. For fields the type lacks: the envelope's start.
    std::size_t offset_of(Field f) const noexcept;

    /// Number of zero bytes in data() (calldata gas, EIP-2028/7623), counted on each call.
    std::size_t data_zero_bytes() const noexcept;

    /// The sender recovered earlier by keel/eth/sender.hpp (sender(), recover_senders()), or
    /// nullopt when none has been. Safe from any thread. Copies carry it with them.
    std::optional<Address> cached_sender() const noexcept { return sender_.get(); }
    /// The slot sender recovery publishes into (only it holds the key that writes).
    const SenderSlot& sender_slot() const noexcept { return sender_; }
    /// Forgets the recovered sender and authorities (sole owners only: the transaction is not
    /// const).
    void clear_cached_sender() noexcept {
        sender_.clear();
        authorities_.clear();
    }
    /// The slot authorities() publishes into (keel/eth/sender.hpp).
    const AuthoritySlot& authority_slot() const noexcept { return authorities_; }

    /// A key only the decoders can make: Transactions are created by decoding.
    class Key {
        Key() = default;
        friend struct TxDecoder;
    };
    /// An empty transaction, for the decoders (see Key).
    explicit Transaction(Key) noexcept {}

  private:
    friend struct TxDecoder;
    // Sets hash_ to keccak256(encoded()) for transactions decoded without it, many at a time.
    friend std::size_t decode_transactions(std::span<const BytesView> envelopes,
                                           std::vector<Result<Transaction, Error>>& out) noexcept;
    friend void detail::hash_transactions(std::span<Transaction> txs) noexcept;

    Bytes buf_;  // the envelope, (network form) the sidecar's three lists, 8 zero bytes
    Hash32 hash_;
    Uint256 max_fee_;           // gas price (types 0, 1) or max_fee_per_gas
    Uint256 max_priority_fee_;  // gas price (types 0, 1) or max_priority_fee_per_gas
    Uint256 max_fee_per_blob_gas_;
    Uint256 value_;
    Uint256 v_;
    Uint256 r_;
    Uint256 s_;
    std::uint64_t chain_id_ = 0;
    std::uint64_t nonce_ = 0;
    std::uint64_t gas_limit_ = 0;
    std::size_t base_offset_ = 0;
    Address to_;
    SenderSlot sender_;
    AuthoritySlot authorities_;
    TxType type_ = TxType::legacy;
    bool has_chain_id_ = false;
    bool is_create_ = false;
    bool has_sidecar_ = false;
    std::uint8_t wrapper_version_ = 0;
    // Offsets into buf_. Envelopes are limited to 2^32 - 1 bytes.
    std::uint32_t envelope_len_ = 0;
    std::uint32_t payload_off_ = 0;  // first field of the RLP list
    std::uint32_t sig_off_ = 0;      // the v / y_parity item (end of the signed fields)
    std::uint32_t data_off_ = 0;
    std::uint32_t data_len_ = 0;
    std::uint32_t access_list_off_ = 0;  // payload of the access-list list
    std::uint32_t access_list_len_ = 0;
    std::uint32_t access_list_count_ = 0;
    std::uint32_t storage_key_count_ = 0;
    std::uint32_t blob_hashes_off_ = 0;  // payload of the blob-hash list
    std::uint32_t blob_hash_count_ = 0;
    std::uint32_t authorizations_off_ = 0;
    std::uint32_t authorizations_len_ = 0;
    std::uint32_t authorization_count_ = 0;
    std::uint32_t blobs_off_ = 0;
    std::uint32_t commitments_off_ = 0;
    std::uint32_t proofs_off_ = 0;
    std::uint32_t sidecar_blob_count_ = 0;
    std::uint32_t proof_count_ = 0;
    // Offset of each top-level field's item in the caller's input, minus base_offset_, indexed
    // by Field (none .. s).
    std::uint32_t field_off_[static_cast<std::size_t>(Field::s) + 1] = {};
};

/// Decodes a transaction envelope as a block body or eth_sendRawTransaction carries it: an RLP
/// list (legacy), or a type byte 0x01-0x04 followed by one RLP list. Strict (see the top of
/// this file). `base_offset` is added to every offset reported (and kept for offset_of()), so a
/// caller decoding a transaction inside a block can report offsets in the block.
/// Errors (offset: the item at fault): rlp (any RLP rule; field none for the envelope's own
/// framing, including trailing bytes), type_not_supported (first byte 0x00, 0x05-0xbf),
/// too_few_fields, too_many_fields, integer_overflow, too_short, too_long, create_not_allowed.
/// A blob transaction must be in its canonical form here (no sidecar).
/// On failure nothing is returned but the error.
[[nodiscard]] Result<Transaction, Error> decode_transaction(BytesView envelope,
                                                            std::size_t base_offset = 0) noexcept;

/// Decodes many envelopes: appends, for each of `envelopes` in order, exactly what
/// decode_transaction(envelope) returns (the same Transaction, hash included, or the same
/// Error; offsets are relative to each envelope, base_offset 0) to `out`, and returns how many
/// decoded. Faster than one call per envelope: the envelopes are parsed first and the
/// successful ones hashed together with crypto::keccak256_many(), eight Keccak states at a time
/// where the CPU has AVX-512F. One reserve() of `out`, no other allocation but each
/// Transaction's own buffer. A Transaction is only ever returned with its hash set.
std::size_t decode_transactions(std::span<const BytesView> envelopes,
                                std::vector<Result<Transaction, Error>>& out) noexcept;

namespace detail {
/// decode_transaction() without computing the hash (hash() stays zero): for benchmarks that
/// separate the cost of parsing from the cost of Keccak. Not for other use.
[[nodiscard]] Result<Transaction, Error> decode_transaction_unhashed(
    BytesView envelope, std::size_t base_offset = 0) noexcept;

/// decode_transaction_item() without computing the hash: block decoding parses a body's
/// transactions, then hashes them together with hash_transactions().
[[nodiscard]] Result<Transaction, Error> decode_transaction_item_unhashed(
    BytesView item, std::size_t base_offset = 0) noexcept;
}  // namespace detail

/// Decodes one element of a block body's transaction list (EIP-2718): an RLP list (a legacy
/// transaction) or an RLP string holding a typed envelope. The element must cover `item`
/// exactly (rlp trailing_bytes otherwise, reported after any error inside it). Errors: those of
/// decode_transaction(); type_not_supported when a string holds no typed envelope.
[[nodiscard]] Result<Transaction, Error> decode_transaction_item(
    BytesView item, std::size_t base_offset = 0) noexcept;

/// Decodes the network (pooled-transactions, eth/68 and eth/69) form: identical to the envelope
/// for types 0, 1, 2 and 4; a blob transaction must carry its sidecar:
///   0x03 || rlp([tx_payload_body, blobs, commitments, proofs])             (EIP-4844)
///   0x03 || rlp([tx_payload_body, 1, blobs, commitments, cell_proofs])     (EIP-7594)
/// Checks sizes (blob 131072, commitment 48, proof 48 bytes) and counts (one commitment per
/// blob hash and blob; one proof per blob, or 128 per blob in version 1); it does not verify
/// the KZG commitments or proofs. The hash and encoded() cover the canonical envelope only.
/// Errors: those of decode_transaction(), wrong_wrapper_version, sidecar_count_mismatch.
[[nodiscard]] Result<Transaction, Error> decode_transaction_network(BytesView network) noexcept;

/// The fields of a transaction as owned values, to build one (tests, tools, signing). Fields a
/// type does not have are ignored when encoding.
struct TransactionFields {
    TxType type = TxType::legacy;  ///< the EIP-2718 type
    /// Typed: the chain id. Legacy: not encoded (the chain id lives in v).
    std::uint64_t chain_id = 1;
    std::uint64_t nonce = 0;  ///< the sender's nonce
    /// Types 0, 1: the gas price. Types 2-4: max_fee_per_gas.
    Uint256 max_fee_per_gas;
    /// Types 2-4: max_priority_fee_per_gas.
    Uint256 max_priority_fee_per_gas;
    std::uint64_t gas_limit = 0;  ///< the gas limit
    std::optional<Address> to;    ///< std::nullopt: contract creation
    Uint256 value;                ///< wei transferred
    Bytes data;                   ///< call data or init code
    /// One access-list entry (EIP-2930).
    struct AccessListEntry {
        Address address;                   ///< the account
        std::vector<Hash32> storage_keys;  ///< its storage keys

        friend bool operator==(const AccessListEntry&, const AccessListEntry&) = default;
    };
    std::vector<AccessListEntry> access_list;       ///< types 1-4
    Uint256 max_fee_per_blob_gas;                   ///< type 3
    std::vector<Hash32> blob_versioned_hashes;      ///< type 3
    std::vector<Authorization> authorization_list;  ///< type 4
    /// Legacy: raw v (27/28 or EIP-155's chain_id * 2 + 35/36); typed: y_parity.
    Uint256 v;
    Uint256 r;  ///< signature r
    Uint256 s;  ///< signature s
};

/// Appends the canonical envelope of `f` (rlp list, or type || rlp list) to `out`. The result
/// decodes with decode_transaction() when the fields are within the decoder's rules (a blob or
/// set-code transaction needs `to`).
void encode(const TransactionFields& f, rlp::Encoder& out);

/// The canonical envelope of `f`, sized exactly up front.
Bytes encode(const TransactionFields& f);

/// Appends the canonical envelope of `tx`, re-encoded from its decoded fields (not copied from
/// encoded(), though equal to it: decode then encode gives the input back).
void encode(const Transaction& tx, rlp::Encoder& out);

/// The canonical envelope of `tx`, re-encoded from its fields.
Bytes encode(const Transaction& tx);

/// Appends `tx` as one element of a block body's transaction list (EIP-2718): the envelope
/// itself for a legacy transaction, an RLP string holding it for a typed one.
void encode_item(const Transaction& tx, rlp::Encoder& out);

/// The network form of `tx` (with its sidecar for a blob transaction that has one; otherwise
/// the envelope).
Bytes encode_network(const Transaction& tx);

}  // namespace keel::eth
