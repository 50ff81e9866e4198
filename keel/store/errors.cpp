#include "keel/store/errors.hpp"

namespace keel::store {

std::string_view describe(Errc e) noexcept {
    switch (e) {
        case Errc::frame_missing_stream_identifier:
            return "snappy frame stream does not start with a stream identifier";
        case Errc::frame_bad_stream_identifier:
            return "snappy stream identifier chunk is not \"sNaPpY\"";
        case Errc::frame_chunk_truncated:
            return "snappy chunk runs past the end of its input";
        case Errc::frame_reserved_chunk:
            return "reserved unskippable snappy chunk type";
        case Errc::frame_chunk_too_short:
            return "snappy data chunk shorter than its checksum";
        case Errc::frame_chunk_too_large:
            return "snappy data chunk holds more than 65536 bytes";
        case Errc::frame_corrupt_data:
            return "snappy compressed data is corrupt";
        case Errc::frame_checksum_mismatch:
            return "snappy chunk checksum mismatch";
        case Errc::record_header_truncated:
            return "e2store record header runs past the end of the file";
        case Errc::record_past_end:
            return "e2store record runs past the end of the file";
        case Errc::record_reserved_not_zero:
            return "e2store record reserved bytes are not zero";
        case Errc::missing_version:
            return "era1 file does not start with a version record";
        case Errc::unexpected_record:
            return "unexpected e2store record type";
        case Errc::missing_record:
            return "era1 file ends before an expected record";
        case Errc::bad_record_size:
            return "e2store record has the wrong size for its type";
        case Errc::too_many_blocks:
            return "era1 file holds more than 8192 blocks";
        case Errc::bad_block_index:
            return "malformed era1 block index";
        case Errc::index_mismatch:
            return "era1 block index does not match the block records";
        case Errc::trailing_records:
            return "records after the era1 block index";
        case Errc::accumulator_mismatch:
            return "era1 accumulator root does not match the blocks";
        case Errc::block_number_mismatch:
            return "header number does not match the block's position";
        case Errc::block_out_of_range:
            return "block index out of range";
        case Errc::eth:
            return "block data failed to decode";
    }
    return "unknown store error";
}

std::string to_string(const Era1Error& e) {
    std::string out = "era1";
    if (e.block != Era1Error::kNoBlock) {
        out += e.block_is_position ? " block #" : " block ";
        out += std::to_string(e.block);
        if (e.block_is_position) out += " of the file";
    }
    out += " (record at offset ";
    out += std::to_string(e.record);
    out += "): ";
    if (e.code == Errc::eth) {
        out += eth::to_string(e.eth);
        out += " in the decompressed payload";
    } else {
        out += describe(e.code);
        out += " at offset ";
        out += std::to_string(e.offset);
    }
    return out;
}

}  // namespace keel::store
