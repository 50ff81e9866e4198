// keel rlp decode|encode: RLP item trees to JSON and back.
//
// JSON form: an RLP string is a JSON string of 0x-prefixed hex; an RLP list is a JSON array.
// `encode` also takes non-negative JSON integers (encoded as canonical RLP integers) and plain
// JSON strings without a 0x prefix (encoded as their UTF-8 bytes).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"

namespace keel::cli {
namespace {

using Json = nlohmann::json;

// Writes the item tree of `items` (a sequence of already validated items) as JSON into `out`.
// Recursion depth is bounded by rlp::kMaxDepth because the input passed rlp::validate().
void write_items(rlp::Decoder items, std::string& out, bool in_list) {
    bool first = true;
    while (!items.empty()) {
        auto item = items.next();
        KEEL_ASSERT(item.has_value());  // validated before
        if (in_list && !first) out += ',';
        first = false;
        if (item->is_list) {
            out += '[';
            write_items(rlp::Decoder(item->payload, item->offset + item->header_size), out, true);
            out += ']';
        } else {
            out += '"';
            hex::append(out, item->payload, {.prefix = true});
            out += '"';
        }
    }
}

// The JSON value's bytes as an RLP string payload, or an integer; throws Failure naming `path`.
struct Leaf {
    Bytes bytes;
};

Leaf leaf_of(const Json& v, const std::string& path) {
    if (v.is_string()) {
        const auto& s = v.get_ref<const std::string&>();
        if (s.starts_with("0x") || s.starts_with("0X")) {
            auto b = hex::decode(s);
            if (!b) {
                throw Failure{kExitBadData,
                              fmt::format("rlp encode: {} at {}", to_string(b.error()), path)};
            }
            return {std::move(*b)};
        }
        return {Bytes(s.begin(), s.end())};
    }
    if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)) {
        std::uint64_t x = v.get<std::uint64_t>();
        Bytes be;
        for (int shift = 56; shift >= 0; shift -= 8) {
            auto byte = static_cast<std::uint8_t>(x >> shift);
            if (byte != 0 || !be.empty()) be.push_back(byte);
        }
        return {std::move(be)};
    }
    throw Failure{kExitBadData,
                  fmt::format("rlp encode: {} at {}: want a 0x-hex string, a text string, a "
                              "non-negative integer below 2^64 or an array",
                              v.type_name(), path)};
}

// Post-order sizes first so the output buffer is sized once and list headers are written
// before their payloads (no shifting).
std::size_t measure(const Json& v, const std::string& path, std::size_t depth,
                    std::vector<std::size_t>& payloads) {
    if (depth > rlp::kMaxDepth) {
        throw Failure{kExitBadData, fmt::format("rlp encode: nesting deeper than {} at {}",
                                                rlp::kMaxDepth, path)};
    }
    if (!v.is_array()) return rlp::string_length(leaf_of(v, path).bytes);
    std::size_t slot = payloads.size();
    payloads.push_back(0);
    std::size_t payload = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        payload += measure(v[i], fmt::format("{}[{}]", path, i), depth + 1, payloads);
    }
    payloads[slot] = payload;
    return rlp::list_length(payload);
}

void emit(const Json& v, rlp::Encoder& enc, const std::vector<std::size_t>& payloads,
          std::size_t& next_list) {
    if (!v.is_array()) {
        enc.add_string(leaf_of(v, "").bytes);
        return;
    }
    enc.add_list_header(payloads[next_list++]);
    for (const auto& child : v) emit(child, enc, payloads, next_list);
}

void add_decode(CLI::App& rlp) {
    auto* cmd = rlp.add_subcommand("decode", "Decode one RLP item and print its tree as JSON");
    auto input = std::make_shared<std::string>();
    cmd->add_option("input", *input, "hex bytes, @file (raw bytes) or - (stdin, raw bytes)")
        ->required();
    cmd->callback([input] {
        Bytes data = read_data_arg(*input, "rlp input");
        if (auto ok = rlp::validate(data); !ok) {
            throw Failure{kExitBadData, fmt::format("rlp decode: {}", to_string(ok.error()))};
        }
        std::string out;
        out.reserve(data.size() * 2 + 64);
        write_items(rlp::Decoder(data, 0), out, false);
        out += '\n';
        std::fwrite(out.data(), 1, out.size(), stdout);
    });
}

void add_encode(CLI::App& rlp) {
    auto* cmd = rlp.add_subcommand("encode", "Encode a JSON item tree as RLP");
    auto input = std::make_shared<std::string>();
    auto output = std::make_shared<std::string>();
    cmd->add_option("input", *input, "JSON text, @file or - (stdin)")->required();
    cmd->add_option("-o,--output", *output,
                    "write raw RLP bytes to this file (- for stdout) instead of printing hex");
    cmd->callback([input, output] {
        std::string text = read_text_arg(*input, "rlp encode input");
        Json tree = parse_json(text, "rlp encode: input");
        std::vector<std::size_t> payloads;
        std::size_t total = measure(tree, "$", 0, payloads);
        rlp::Encoder enc;
        enc.reserve(total);
        std::size_t next_list = 0;
        emit(tree, enc, payloads, next_list);
        KEEL_ASSERT(enc.view().size() == total);
        if (!output->empty()) {
            write_output(*output, enc.view());
        } else {
            std::printf("%s\n", hex::encode_prefixed(enc.view()).c_str());
        }
    });
}

}  // namespace

void add_rlp_command(CLI::App& app) {
    auto* rlp = app.add_subcommand("rlp", "Recursive Length Prefix encoding");
    rlp->require_subcommand(1);
    add_decode(*rlp);
    add_encode(*rlp);
}

}  // namespace keel::cli
