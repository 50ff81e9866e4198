// Transaction decoder fuzz target. Properties:
//   - no input crashes or reads out of bounds (ASan/UBSan), through any of the three decoders;
//   - a failure names an offset inside the input and prints as one line;
//   - an accepted envelope re-encodes from its decoded fields to exactly the input, its hash is
//     keccak256 of the input, and every view (data, access list, blob hashes, authorizations)
//     reads inside it; validation and intrinsic gas run at every fork without crashing;
//   - an accepted block-body item re-encodes (encode_item) to exactly the input, and an
//     accepted network form (encode_network) too.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "keel/crypto/keccak.hpp"
#include "keel/eth/fork.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/eth/tx_validation.hpp"
#include "keel/rlp/encode.hpp"

namespace {

using keel::Bytes;
using keel::BytesView;
using namespace keel::eth;

void check(bool ok) {
    if (!ok) std::abort();
}

bool same(BytesView a, BytesView b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0);
}

void check_error(const Error& e, std::size_t size) {
    check(e.offset <= size);
    check(!to_string(e).empty());
}

// Reads everything a decoded transaction exposes.
void exercise(const Transaction& tx) {
    volatile std::size_t sink = 0;
    sink = sink + tx.data().size() + tx.data_zero_bytes();
    std::size_t keys = 0;
    for (const AccessListEntryView entry : tx.access_list()) {
        sink = sink + entry.address[19];
        for (const keel::Hash32 key : entry.storage_keys) sink = sink + key[31];
        keys += entry.storage_keys.size();
    }
    check(keys == tx.access_list().storage_key_count());
    for (const keel::Hash32 h : tx.blob_versioned_hashes()) sink = sink + h[0];
    std::size_t auths = 0;
    for (auto it = tx.authorization_list().begin(); it != tx.authorization_list().end(); ++it) {
        const Authorization a = *it;
        sink = sink + a.signing_hash()[0] + it.encoded().size();
        ++auths;
    }
    check(auths == tx.authorization_list().size());
    sink = sink + tx.signing_hash()[0] + tx.y_parity();
    (void)tx.chain_id();
    for (const Fork f : kForks) {
        sink = sink + intrinsic_gas(tx, f) + floor_data_gas(tx);
        if (auto v = validate(tx, f); !v) check(!to_string(v.error()).empty());
    }
    for (std::size_t i = 0; i <= static_cast<std::size_t>(Field::s); ++i) {
        sink = sink + tx.offset_of(static_cast<Field>(i));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const BytesView in(data, size);

    if (auto tx = decode_transaction(in); tx) {
        check(same(tx->encoded(), in));
        check(tx->hash() == keel::crypto::keccak256(in));
        const Bytes again = encode(*tx);
        check(same(again, in));
        keel::rlp::Encoder e;
        encode_item(*tx, e);
        auto item = decode_transaction_item(e.view());
        check(item.has_value() && item->hash() == tx->hash());
        exercise(*tx);
    } else {
        check_error(tx.error(), size);
    }

    if (auto tx = decode_transaction_item(in); tx) {
        keel::rlp::Encoder e;
        encode_item(*tx, e);
        check(same(e.view(), in));
        check(tx->hash() == keel::crypto::keccak256(tx->encoded()));
    } else {
        check_error(tx.error(), size);
    }

    if (auto tx = decode_transaction_network(in); tx) {
        check(same(encode_network(*tx), in));
        check(tx->hash() == keel::crypto::keccak256(tx->encoded()));
        exercise(*tx);
    } else {
        check_error(tx.error(), size);
    }
    return 0;
}
