// keel bls ...: Ethereum's BLS signatures (keel/bls, ciphersuite
// BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_) from the command line.
//
//   keel bls keygen [IKM]                  {"secret_key":"0x..","public_key":"0x.."}
//   keel bls pubkey SK                     the 48-byte compressed public key
//   keel bls sign SK MESSAGE               the 96-byte compressed signature
//   keel bls verify PUBKEY MESSAGE SIG     valid (exit 0) or invalid (exit 1)
//   keel bls aggregate SIG...              the aggregate signature
//   keel bls fast-aggregate-verify MESSAGE SIG PUBKEY...   valid / invalid
//   keel bls batch-verify FILE             a JSON list of {pubkey, message, signature}
//
// Every data argument is hex, @file (raw bytes) or - (standard input, for one argument only). A
// message may be empty ("0x", or an empty @file): BLS signs any octet string, and RFC 9380
// defines hash_to_curve for the empty one (its G2 test vectors start with msg = ""), so an empty
// message is accepted, signed and verified as blst and the consensus specs do. A wrong length, an
// invalid point or secret key is bad data (exit 1, one line naming the argument and the rule);
// a signature that does not verify prints "invalid" and exits 1 with one line on stderr.
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "apps/keel/commands.hpp"
#include "apps/keel/input.hpp"
#include "keel/bls/batch_verify.hpp"
#include "keel/bls/serialize.hpp"
#include "keel/bls/signature.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/random.hpp"

namespace keel::cli {
namespace {

/// Overwrites secret bytes in a way the compiler keeps.
void wipe(MutableBytesView b) {
    volatile std::uint8_t* p = b.data();
    for (std::size_t i = 0; i < b.size(); ++i) p[i] = 0;
}

/// "<describe>" plus, for a length error, the length found and the lengths accepted.
std::string point_error(const bls::Error& e, std::size_t size, std::string_view lengths) {
    if (e.code == bls::Errc::bad_length) {
        return fmt::format("{} bytes, want {}", size, lengths);
    }
    std::string out(bls::describe(e.code));
    if (e.offset != 0) out += fmt::format(" at offset {}", e.offset);
    return out;
}

bls::PublicKey decode_pubkey(BytesView in, std::string_view where) {
    auto pk = bls::PublicKey::from_bytes(in);
    if (!pk) {
        throw Failure{kExitBadData,
                      fmt::format("{}: {}", where, point_error(pk.error(), in.size(), "48 or 96"))};
    }
    return *pk;
}

bls::Signature decode_signature(BytesView in, std::string_view where) {
    auto sig = bls::Signature::from_bytes(in);
    if (!sig) {
        throw Failure{kExitBadData, fmt::format("{}: {}", where,
                                                point_error(sig.error(), in.size(), "96 or 192"))};
    }
    return *sig;
}

/// A secret key argument: 32 big-endian bytes of a value in 1..r-1.
bls::SecretKey read_secret_key(const std::string& arg, std::string_view cmd) {
    Bytes raw = read_data_arg(arg, fmt::format("bls {}: secret key", cmd));
    if (raw.size() != 32) {
        const std::size_t n = raw.size();
        wipe(raw);
        throw Failure{kExitBadData, fmt::format("bls {}: secret key: {} bytes, want 32", cmd, n)};
    }
    bool zero = true;
    for (std::uint8_t b : raw) zero = zero && b == 0;
    auto sk = bls::SecretKey::from_bytes(raw);
    wipe(raw);
    if (!sk) {
        throw Failure{kExitBadData,
                      fmt::format("bls {}: secret key: {}", cmd,
                                  zero ? "is zero" : "is not below the group order r")};
    }
    return std::move(*sk);
}

void run_keygen(const std::optional<std::string>& ikm_arg) {
    Bytes ikm;
    if (ikm_arg) {
        ikm = read_data_arg(*ikm_arg, "bls keygen: IKM");
        if (ikm.size() < 32) {
            const std::size_t n = ikm.size();
            wipe(ikm);
            throw Failure{kExitBadData,
                          fmt::format("bls keygen: IKM: {} bytes, want at least 32", n)};
        }
    } else {
        ikm.resize(32);
        if (auto r = crypto::random_bytes(ikm); !r) {
            throw Failure{kExitBadData,
                          fmt::format("bls keygen: {}", crypto::to_string(r.error()))};
        }
    }
    auto sk = bls::SecretKey::key_gen(ikm);
    wipe(ikm);
    if (!sk) throw Failure{kExitBadData, "bls keygen: KeyGen failed"};
    auto sk_bytes = sk->to_bytes();
    std::string sk_hex = hex::encode_prefixed(sk_bytes);
    wipe(sk_bytes);
    std::printf("{\"secret_key\":\"%s\",\"public_key\":\"%s\"}\n", sk_hex.c_str(),
                hex::encode_prefixed(sk->public_key().to_bytes()).c_str());
    std::fflush(stdout);
    wipe(MutableBytesView(reinterpret_cast<std::uint8_t*>(sk_hex.data()), sk_hex.size()));
}

void run_pubkey(const std::string& sk_arg) {
    const bls::SecretKey sk = read_secret_key(sk_arg, "pubkey");
    print_hex_line(sk.public_key().to_bytes());
}

void run_sign(const std::string& sk_arg, const std::string& msg_arg) {
    // Refused before anything is read: standard input holds one argument, the key would take
    // all of it, and the message would be empty (it used to be signed as such).
    if (sk_arg == "-" && msg_arg == "-") {
        throw Failure{kExitUsage,
                      "bls sign: message: standard input (-) is already read for bls sign: secret "
                      "key; give this one as hex or @file"};
    }
    const bls::SecretKey sk = read_secret_key(sk_arg, "sign");
    const Bytes msg = read_data_arg(msg_arg, "bls sign: message");
    print_hex_line(bls::sign(sk, msg).to_bytes());
}

void run_verify(const std::string& pk_arg, const std::string& msg_arg, const std::string& sig_arg) {
    const Bytes pk_raw = read_data_arg(pk_arg, "bls verify: public key");
    const Bytes msg = read_data_arg(msg_arg, "bls verify: message");
    const Bytes sig_raw = read_data_arg(sig_arg, "bls verify: signature");
    const bls::PublicKey pk = decode_pubkey(pk_raw, "bls verify: public key");
    const bls::Signature sig = decode_signature(sig_raw, "bls verify: signature");
    report_validity(bls::verify(pk, msg, sig), "bls verify", "the signature does not verify");
}

void run_aggregate(const std::vector<std::string>& args) {
    std::vector<bls::Signature> sigs;
    sigs.reserve(args.size());
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string where =
            fmt::format("bls aggregate: signature {} of {}", i + 1, args.size());
        const Bytes raw = read_data_arg(args[i], where);
        sigs.push_back(decode_signature(raw, where));
    }
    auto agg = bls::aggregate(sigs);
    if (!agg) throw Failure{kExitUsage, "bls aggregate: no signatures"};
    print_hex_line(agg->to_bytes());
}

void run_fast_aggregate_verify(const std::string& msg_arg, const std::string& sig_arg,
                               const std::vector<std::string>& pk_args) {
    const Bytes msg = read_data_arg(msg_arg, "bls fast-aggregate-verify: message");
    const Bytes sig_raw = read_data_arg(sig_arg, "bls fast-aggregate-verify: signature");
    const bls::Signature sig = decode_signature(sig_raw, "bls fast-aggregate-verify: signature");
    std::vector<bls::PublicKey> pks;
    pks.reserve(pk_args.size());
    for (std::size_t i = 0; i < pk_args.size(); ++i) {
        const std::string where =
            fmt::format("bls fast-aggregate-verify: public key {} of {}", i + 1, pk_args.size());
        const Bytes raw = read_data_arg(pk_args[i], where);
        pks.push_back(decode_pubkey(raw, where));
    }
    report_validity(bls::fast_aggregate_verify(pks, msg, sig), "bls fast-aggregate-verify",
                    "the signature does not verify");
}

/// The hex string field `key` of set `i`, decoded.
Bytes set_field(const nlohmann::json& set, std::size_t i, const char* key) {
    const std::string where = fmt::format("bls batch-verify: set {}: {}", i, key);
    auto it = set.find(key);
    if (it == set.end()) throw Failure{kExitBadData, fmt::format("{}: missing", where)};
    if (!it->is_string()) {
        throw Failure{kExitBadData, fmt::format("{}: want a hex string", where)};
    }
    auto decoded = hex::decode(it->get_ref<const std::string&>());
    if (!decoded) {
        throw Failure{kExitBadData, fmt::format("{}: {}", where, to_string(decoded.error()))};
    }
    return std::move(*decoded);
}

void run_batch_verify(const std::string& file) {
    const std::string text = read_text_arg(file == "-" ? file : "@" + file, "bls batch-verify");
    nlohmann::json doc = parse_json(text, fmt::format("bls batch-verify: {}", file));
    if (!doc.is_array()) {
        throw Failure{kExitBadData,
                      fmt::format("bls batch-verify: {}: want a JSON list of "
                                  "{{\"pubkey\", \"message\", \"signature\"}} objects",
                                  file)};
    }
    if (doc.empty()) {
        throw Failure{kExitBadData, fmt::format("bls batch-verify: {}: no signature sets", file)};
    }
    const std::size_t n = doc.size();
    std::vector<Bytes> messages(n);  // sized once: the sets borrow these views
    std::vector<bls::SignatureSet> sets;
    sets.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const nlohmann::json& s = doc[i];
        if (!s.is_object()) {
            throw Failure{kExitBadData,
                          fmt::format("bls batch-verify: set {}: want an object with pubkey, "
                                      "message and signature",
                                      i)};
        }
        const Bytes pk_raw = set_field(s, i, "pubkey");
        messages[i] = set_field(s, i, "message");
        const Bytes sig_raw = set_field(s, i, "signature");
        bls::PublicKey pk =
            decode_pubkey(pk_raw, fmt::format("bls batch-verify: set {}: pubkey", i));
        bls::Signature sig =
            decode_signature(sig_raw, fmt::format("bls batch-verify: set {}: signature", i));
        sets.push_back(bls::SignatureSet{pk, messages[i], sig});
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto ok = bls::batch_verify(sets);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!ok) {
        throw Failure{kExitBadData,
                      fmt::format("bls batch-verify: {}", crypto::to_string(ok.error()))};
    }
    if (*ok) {
        std::printf("valid: %zu sets in %.3f ms\n", n, ms);
        return;
    }
    std::printf("invalid\n");
    std::fflush(stdout);
    const auto bad = bls::find_invalid_set(sets);
    if (bad) {
        throw Failure{kExitBadData, fmt::format("bls batch-verify: set {} does not verify ({} "
                                                "sets, {:.3f} ms)",
                                                *bad, n, ms)};
    }
    // Every set verifies alone but the batch fails: not expected outside a 2^-64 chance.
    throw Failure{kExitBadData,
                  fmt::format("bls batch-verify: the batch does not verify, though every set "
                              "does alone ({} sets, {:.3f} ms)",
                              n, ms)};
}

}  // namespace

void add_bls_command(CLI::App& app) {
    auto* bls_cmd = app.add_subcommand(
        "bls", "BLS12-381 signatures as Ethereum uses them (keys, sign, verify, aggregate, batch)");
    bls_cmd->require_subcommand(1);
    const char* data = "hex, @file (raw bytes) or - (stdin)";

    auto ikm = std::make_shared<std::optional<std::string>>();
    auto* keygen = bls_cmd->add_subcommand(
        "keygen", "KeyGen: print {\"secret_key\", \"public_key\"} as one line of JSON");
    keygen->add_option("ikm", *ikm,
                       "input keying material, at least 32 bytes: hex, @file or - "
                       "(default: 32 bytes from the OS)");
    keygen->callback([ikm] { run_keygen(*ikm); });

    auto pk_sk = std::make_shared<std::string>();
    auto* pubkey =
        bls_cmd->add_subcommand("pubkey", "Print the 48-byte public key of a secret key");
    pubkey->add_option("secret_key", *pk_sk, "32 bytes, big-endian: hex, @file or -")->required();
    pubkey->callback([pk_sk] { run_pubkey(*pk_sk); });

    auto sign_args = std::make_shared<std::array<std::string, 2>>();
    auto* sign = bls_cmd->add_subcommand(
        "sign",
        "Print the 96-byte signature of a message (an empty message, 0x, is legal: RFC 9380 "
        "hashes it like any other)");
    sign->add_option("secret_key", (*sign_args)[0], "32 bytes, big-endian: hex, @file or -")
        ->required();
    sign->add_option("message", (*sign_args)[1], data)->required();
    sign->callback([sign_args] { run_sign((*sign_args)[0], (*sign_args)[1]); });

    auto verify_args = std::make_shared<std::array<std::string, 3>>();
    auto* verify = bls_cmd->add_subcommand(
        "verify", "Verify a signature: print valid (exit 0) or invalid (exit 1)");
    verify->add_option("pubkey", (*verify_args)[0], "48 (or 96) bytes: hex, @file or -")
        ->required();
    verify->add_option("message", (*verify_args)[1], data)->required();
    verify->add_option("signature", (*verify_args)[2], "96 (or 192) bytes: hex, @file or -")
        ->required();
    verify->callback(
        [verify_args] { run_verify((*verify_args)[0], (*verify_args)[1], (*verify_args)[2]); });

    auto agg_sigs = std::make_shared<std::vector<std::string>>();
    auto* aggregate =
        bls_cmd->add_subcommand("aggregate", "Print the aggregate (sum) of signatures");
    aggregate->add_option("signatures", *agg_sigs, "one or more signatures: hex, @file or -")
        ->required();
    aggregate->callback([agg_sigs] { run_aggregate(*agg_sigs); });

    struct FavArgs {
        std::string message, signature;
        std::vector<std::string> pubkeys;
    };
    auto fav_args = std::make_shared<FavArgs>();
    auto* fav = bls_cmd->add_subcommand(
        "fast-aggregate-verify",
        "FastAggregateVerify: one message signed by every key; print valid or invalid");
    fav->add_option("message", fav_args->message, data)->required();
    fav->add_option("signature", fav_args->signature, "the aggregate signature: hex, @file or -")
        ->required();
    fav->add_option("pubkeys", fav_args->pubkeys, "one or more public keys: hex, @file or -")
        ->required();
    fav->callback([fav_args] {
        run_fast_aggregate_verify(fav_args->message, fav_args->signature, fav_args->pubkeys);
    });

    auto batch_file = std::make_shared<std::string>();
    auto* batch = bls_cmd->add_subcommand(
        "batch-verify",
        "Verify a JSON list of {pubkey, message, signature} at once (random scalars); name the "
        "first bad set on failure");
    batch->add_option("file", *batch_file, "JSON file; - for stdin")->required();
    batch->callback([batch_file] { run_batch_verify(*batch_file); });
}

}  // namespace keel::cli
