#include "keel/store/era1.hpp"

#include <array>
#include <cstring>
#include <utility>

#include "keel/common/assert.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/sha256.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/store/e2store.hpp"
#include "keel/store/snappy_frame.hpp"

namespace keel::store {
namespace {

constexpr std::size_t kAccumulatorDepth = 13;  // 2^13 = 8192 leaves

std::uint64_t load_le64(const std::uint8_t* p) noexcept {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
    return v;
}

void store_le64(std::uint64_t v, std::uint8_t* p) noexcept {
    for (int i = 0; i < 8; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// zero_hashes[d]: root of a subtree of depth d whose leaves are all zero (SSZ merkleize padding).
struct ZeroHashes {
    std::array<Hash32, kAccumulatorDepth + 1> h{};
    ZeroHashes() noexcept {
        for (std::size_t d = 1; d <= kAccumulatorDepth; ++d) {
            std::uint8_t pair[64];
            std::memcpy(pair, h[d - 1].data(), 32);
            std::memcpy(pair + 32, h[d - 1].data(), 32);
            crypto::sha256_64(pair, h[d].data());
        }
    }
};

const ZeroHashes& zero_hashes() noexcept {
    static const ZeroHashes z;
    return z;
}

Era1Error era1_error(Errc code, std::size_t record, std::size_t offset,
                     std::uint64_t block = Era1Error::kNoBlock) noexcept {
    return Era1Error{code, block, false, record, offset, {}};
}

Era1Error from_record_error(const Error& e) noexcept {
    return era1_error(e.code, e.offset, e.offset);
}

}  // namespace

Hash32 accumulator_root(std::span<const Hash32> hashes, std::span<const Uint256> tds) noexcept {
    KEEL_ASSERT(hashes.size() == tds.size());
    KEEL_ASSERT(hashes.size() <= kEra1MaxBlocks);
    const std::size_t n = hashes.size();
    const ZeroHashes& zero = zero_hashes();
    Hash32 root = zero.h[kAccumulatorDepth];
    if (n > 0) {
        // HeaderRecord roots: sha256(block_hash || td_le32), two 32-byte chunks per leaf.
        std::vector<std::uint8_t> level(2 * 32 * n);
        for (std::size_t i = 0; i < n; ++i) {
            std::uint8_t* p = level.data() + 64 * i;
            std::memcpy(p, hashes[i].data(), 32);
            for (std::size_t k = 0; k < 4; ++k) store_le64(tds[i][k], p + 32 + 8 * k);
        }
        crypto::sha256_64_many(level.data(), level.data(), n);
        // One tree level per call; an odd tail is paired with the zero subtree of its depth.
        std::size_t count = n;
        for (std::size_t d = 0; d < kAccumulatorDepth; ++d) {
            if (count % 2 == 1) {
                std::memcpy(level.data() + 32 * count, zero.h[d].data(), 32);
                ++count;
            }
            crypto::sha256_64_many(level.data(), level.data(), count / 2);
            count /= 2;
        }
        std::memcpy(root.data(), level.data(), 32);
    }
    // mix_in_length: sha256(root || uint256_le(n)).
    std::uint8_t pair[64] = {};
    std::memcpy(pair, root.data(), 32);
    store_le64(n, pair + 32);
    Hash32 out;
    crypto::sha256_64(pair, out.data());
    return out;
}

Result<Era1, Era1Error> Era1::open(BytesView file) noexcept {
    Era1 era;
    era.file_ = file;
    E2Reader reader(file);

    auto version = reader.next();
    if (!version) return unexpected(from_record_error(version.error()));
    if (version->type != e2type::kVersion) {
        return unexpected(era1_error(Errc::missing_version, 0, 0));
    }
    if (!version->value.empty()) {
        return unexpected(era1_error(Errc::bad_record_size, 0, 0));
    }

    // The next record must exist and have type `type`; `block` is a position in the file.
    auto expect = [&](std::uint16_t type, std::uint64_t block) -> Result<E2Record, Era1Error> {
        const std::size_t at = reader.position();
        Era1Error e = era1_error(Errc::missing_record, at, at, block);
        e.block_is_position = block != Era1Error::kNoBlock;
        if (reader.at_end()) return unexpected(e);
        auto r = reader.next();
        if (!r) {
            e.code = r.error().code;
            e.offset = r.error().offset;
            return unexpected(e);
        }
        if (r->type != type) {
            e.code = Errc::unexpected_record;
            return unexpected(e);
        }
        return *r;
    };

    // Block tuples, then other entries, until the Accumulator.
    bool found_accumulator = false;
    while (!reader.at_end()) {
        const std::size_t at = reader.position();
        auto r = reader.next();
        if (!r) {
            Era1Error e = from_record_error(r.error());
            // A broken CompressedHeader record (the common truncation) names its block.
            if (file.size() - at >= 2 && file[at] == 0x03 && file[at + 1] == 0x00) {
                e.block = era.blocks_.size();
                e.block_is_position = true;
            }
            return unexpected(e);
        }
        if (r->type == e2type::kAccumulator) {
            if (r->value.size() != 32) {
                return unexpected(era1_error(Errc::bad_record_size, at, at));
            }
            std::memcpy(era.accumulator_.data(), r->value.data(), 32);
            era.accumulator_offset_ = at;
            found_accumulator = true;
            break;
        }
        if (r->type != e2type::kCompressedHeader) {
            // other-entries: unknown types are skipped; a known one here is out of order.
            switch (r->type) {
                case e2type::kVersion:
                case e2type::kCompressedBody:
                case e2type::kCompressedReceipts:
                case e2type::kTotalDifficulty:
                case e2type::kBlockIndex:
                    return unexpected(era1_error(Errc::unexpected_record, at, at));
                default:
                    continue;
            }
        }
        // The block number is not known until the index is read: errors name the position.
        const std::uint64_t pos = era.blocks_.size();
        if (pos == kEra1MaxBlocks) return unexpected(era1_error(Errc::too_many_blocks, at, at));
        Entry e;
        e.header = at;
        auto body = expect(e2type::kCompressedBody, pos);
        if (!body) return unexpected(body.error());
        e.body = body->offset;
        auto receipts = expect(e2type::kCompressedReceipts, pos);
        if (!receipts) return unexpected(receipts.error());
        e.receipts = receipts->offset;
        auto td = expect(e2type::kTotalDifficulty, pos);
        if (!td) return unexpected(td.error());
        if (td->value.size() != 32) {
            Era1Error err = era1_error(Errc::bad_record_size, td->offset, td->offset, pos);
            err.block_is_position = true;
            return unexpected(err);
        }
        e.td = td->offset;
        era.blocks_.push_back(e);
    }
    if (!found_accumulator) {
        return unexpected(era1_error(Errc::missing_record, file.size(), file.size()));
    }

    auto index = expect(e2type::kBlockIndex, Era1Error::kNoBlock);
    if (!index) return unexpected(index.error());
    const std::size_t at = index->offset;
    const std::size_t n = era.blocks_.size();
    const BytesView v = index->value;
    if (v.size() < 16 || (v.size() - 16) % 8 != 0) {
        return unexpected(era1_error(Errc::bad_block_index, at, at));
    }
    const std::uint64_t stored_count = load_le64(v.data() + v.size() - 8);
    if (stored_count != (v.size() - 16) / 8) {
        return unexpected(era1_error(Errc::bad_block_index, at, at + kE2HeaderSize + v.size() - 8));
    }
    if (stored_count != n) {
        return unexpected(era1_error(Errc::index_mismatch, at, at + kE2HeaderSize + v.size() - 8));
    }
    era.start_ = load_le64(v.data());
    if (n > 0 && era.start_ > ~std::uint64_t{0} - n) {
        return unexpected(era1_error(Errc::bad_block_index, at, at + kE2HeaderSize));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t slot = 8 + 8 * i;
        const auto rel = static_cast<std::int64_t>(load_le64(v.data() + slot));
        // Offsets are relative to the BlockIndex record's start; compare in unsigned arithmetic
        // so that no input value overflows.
        const std::uint64_t target =
            static_cast<std::uint64_t>(at) + static_cast<std::uint64_t>(rel);
        if (target != era.blocks_[i].header) {
            return unexpected(
                era1_error(Errc::index_mismatch, at, at + kE2HeaderSize + slot, era.start_ + i));
        }
    }
    era.index_offset_ = at;
    if (!reader.at_end()) {
        const std::size_t end = reader.position();
        return unexpected(era1_error(Errc::trailing_records, end, end));
    }
    return era;
}

std::size_t Era1::header_offset(std::size_t i) const noexcept {
    KEEL_ASSERT(i < blocks_.size());
    return blocks_[i].header;
}

Uint256 Era1::total_difficulty(std::size_t i) const noexcept {
    KEEL_ASSERT(i < blocks_.size());
    const std::uint8_t* p = file_.data() + blocks_[i].td + kE2HeaderSize;
    return Uint256::from_limbs(load_le64(p), load_le64(p + 8), load_le64(p + 16),
                               load_le64(p + 24));
}

Result<void, Era1Error> Era1::decompress(std::size_t i, std::size_t record,
                                         Bytes& out) const noexcept {
    // The record was walked by open(): its header and value lie within the file.
    const std::uint8_t* h = file_.data() + record;
    const std::size_t len = static_cast<std::size_t>(h[2]) | static_cast<std::size_t>(h[3]) << 8 |
                            static_cast<std::size_t>(h[4]) << 16 |
                            static_cast<std::size_t>(h[5]) << 24;
    out.clear();
    auto r = decode_snappy_frames(file_.subspan(record + kE2HeaderSize, len), out,
                                  record + kE2HeaderSize);
    if (!r) return unexpected(era1_error(r.error().code, record, r.error().offset, start_ + i));
    return {};
}

Result<Hash32, Era1Error> Era1::header_hash(std::size_t i, Bytes& scratch) const noexcept {
    if (i >= blocks_.size()) {
        return unexpected(era1_error(Errc::block_out_of_range, index_offset_, index_offset_));
    }
    if (auto r = decompress(i, blocks_[i].header, scratch); !r) return unexpected(r.error());
    return crypto::keccak256(scratch);
}

Result<void, Era1Error> Era1::raw_block(std::size_t i, Era1RawBlock& out) const noexcept {
    if (i >= blocks_.size()) {
        return unexpected(era1_error(Errc::block_out_of_range, index_offset_, index_offset_));
    }
    const Entry& e = blocks_[i];
    if (auto r = decompress(i, e.header, out.header); !r) return r;
    if (auto r = decompress(i, e.body, out.body); !r) return r;
    return decompress(i, e.receipts, out.receipts);
}

Result<Era1Block, Era1Error> Era1::block(std::size_t i, Bytes& scratch) const noexcept {
    if (i >= blocks_.size()) {
        return unexpected(era1_error(Errc::block_out_of_range, index_offset_, index_offset_));
    }
    const Entry& e = blocks_[i];
    const std::uint64_t number = start_ + i;
    auto eth_error = [&](const eth::Error& err, std::size_t record) {
        Era1Error out = era1_error(Errc::eth, record, record + kE2HeaderSize, number);
        out.eth = err;
        return unexpected(out);
    };
    Era1Block out;

    if (auto r = decompress(i, e.header, scratch); !r) return unexpected(r.error());
    out.hash = crypto::keccak256(scratch);
    auto header = eth::decode_header(scratch);
    if (!header) return eth_error(header.error(), e.header);
    if (header->number != number) {
        return unexpected(
            era1_error(Errc::block_number_mismatch, e.header, e.header + kE2HeaderSize, number));
    }
    out.header = std::move(*header);

    if (auto r = decompress(i, e.body, scratch); !r) return unexpected(r.error());
    auto body = eth::decode_body(scratch);
    if (!body) return eth_error(body.error(), e.body);
    out.body = std::move(*body);

    // Receipts: an RLP list whose items are legacy receipt lists or strings holding typed
    // envelopes (eth::decode_receipt_item()).
    if (auto r = decompress(i, e.receipts, scratch); !r) return unexpected(r.error());
    auto list = rlp::open_list(scratch);
    if (!list)
        return eth_error(eth::make_rlp_error(list.error(), eth::Field::receipt).error(),
                         e.receipts);
    while (!list->empty()) {
        auto item = list->next();
        if (!item)
            return eth_error(eth::make_rlp_error(item.error(), eth::Field::receipt).error(),
                             e.receipts);
        auto receipt = eth::decode_receipt_item(item->encoded(), item->offset);
        if (!receipt) return eth_error(receipt.error(), e.receipts);
        out.receipts.push_back(std::move(*receipt));
    }

    out.total_difficulty = total_difficulty(i);
    return out;
}

Result<Era1Block, Era1Error> Era1::block(std::size_t i) const noexcept {
    Bytes scratch;
    return block(i, scratch);
}

Result<Hash32, Era1Error> Era1::verify_accumulator() const noexcept {
    const std::size_t n = blocks_.size();
    std::vector<Hash32> hashes(n);
    std::vector<Uint256> tds(n);
    Bytes scratch;
    for (std::size_t i = 0; i < n; ++i) {
        auto h = header_hash(i, scratch);
        if (!h) return unexpected(h.error());
        hashes[i] = *h;
        tds[i] = total_difficulty(i);
    }
    const Hash32 root = accumulator_root(hashes, tds);
    if (root != accumulator_) {
        return unexpected(era1_error(Errc::accumulator_mismatch, accumulator_offset_,
                                     accumulator_offset_ + kE2HeaderSize));
    }
    return root;
}

}  // namespace keel::store
