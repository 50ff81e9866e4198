#include "apps/keel/statetest.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "apps/keel/fixture_json.hpp"
#include "apps/keel/input.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/crypto/secp256k1.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/transaction.hpp"
#include "keel/evm/transaction.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/state/memory_state.hpp"
#include "keel/trace/eip3155.hpp"

namespace keel::cli {

namespace {

using namespace fixture;

Hash32 logs_hash(std::span<const state::Log> logs) {
    rlp::Encoder enc;
    const auto all = enc.begin_list();
    for (const state::Log& l : logs) {
        const auto one = enc.begin_list();
        enc.add_string(l.address.view());
        const auto topics = enc.begin_list();
        for (const Hash32& t : l.topics) enc.add_string(t.view());
        enc.end_list(topics);
        enc.add_string(l.data);
        enc.end_list(one);
    }
    enc.end_list(all);
    return crypto::keccak256(enc.view());
}

/// The transaction of one post entry, or why it cannot be one (a field too wide to encode).
struct BuiltTx {
    std::optional<eth::Transaction> tx;
    std::string invalid;  ///< why not, when !tx
};

BuiltTx build_tx(const json& t, std::size_t d, std::size_t g, std::size_t v, std::uint64_t chain_id,
                 const std::string& where) {
    eth::TransactionFields f;
    f.chain_id = chain_id;
    const Uint256 nonce = number(field(t, "nonce", where), where + " nonce");
    const Uint256 gas =
        number(element(field(t, "gasLimit", where), g, where + " gasLimit"), where + " gasLimit");
    if (!nonce.fits_u64()) return {std::nullopt, "nonce wider than 64 bits"};
    if (!gas.fits_u64()) return {std::nullopt, "gas limit wider than 64 bits"};
    f.nonce = nonce.as_u64();
    f.gas_limit = gas.as_u64();
    const json& value = element(field(t, "value", where), v, where + " value");
    if (value.is_string() && value.get<std::string>().find(":bigint") != std::string::npos)
        return {std::nullopt, "value wider than 256 bits"};
    // "0x" is a zero value in goevmlab's generated fixtures; geth reads it so too.
    f.value = value == "0x" ? Uint256{} : number(value, where + " value");
    f.data = bytes_of(element(field(t, "data", where), d, where + " data"), where + " data");
    const json& to = field(t, "to", where);
    if (to.is_string() && !to.get<std::string>().empty())
        f.to = fixed_of<Address>(to, where + " to");
    const bool has_access_list = t.contains("accessLists") && t.at("accessLists").is_array() &&
                                 d < t.at("accessLists").size() &&
                                 !t.at("accessLists").at(d).is_null();
    if (t.contains("maxFeePerGas")) {
        f.type = eth::TxType::dynamic_fee;
        f.max_fee_per_gas = number(t.at("maxFeePerGas"), where + " maxFeePerGas");
        f.max_priority_fee_per_gas = number(field(t, "maxPriorityFeePerGas", where), where);
    } else {
        f.type = has_access_list ? eth::TxType::access_list : eth::TxType::legacy;
        f.max_fee_per_gas = number(field(t, "gasPrice", where), where + " gasPrice");
    }
    if (has_access_list) {
        for (const json& e : t.at("accessLists").at(d)) {
            eth::TransactionFields::AccessListEntry entry;
            entry.address = fixed_of<Address>(field(e, "address", where), where + " accessList");
            for (const json& k : field(e, "storageKeys", where))
                entry.storage_keys.push_back(fixed_of<Hash32>(k, where + " storageKeys"));
            f.access_list.push_back(std::move(entry));
        }
    }
    if (t.contains("blobVersionedHashes")) {
        f.type = eth::TxType::blob;
        f.max_fee_per_blob_gas = number(field(t, "maxFeePerBlobGas", where), where);
        for (const json& h : t.at("blobVersionedHashes"))
            f.blob_versioned_hashes.push_back(fixed_of<Hash32>(h, where + " blobVersionedHashes"));
    }
    if (t.contains("authorizationList")) {
        f.type = eth::TxType::set_code;
        for (const json& a : t.at("authorizationList")) {
            eth::Authorization auth;
            auth.chain_id = number(field(a, "chainId", where), where + " chainId");
            auth.address = fixed_of<Address>(field(a, "address", where), where + " address");
            const Uint256 n = number(field(a, "nonce", where), where + " nonce");
            if (!n.fits_u64()) return {std::nullopt, "authorization nonce wider than 64 bits"};
            auth.nonce = n.as_u64();
            const Uint256 yp =
                number(a.contains("yParity") ? a.at("yParity") : field(a, "v", where), where);
            if (!yp.fits_u64() || yp.as_u64() > 255) return {std::nullopt, "y_parity too wide"};
            auth.y_parity = static_cast<std::uint8_t>(yp.as_u64());
            auth.r = number(field(a, "r", where), where + " r");
            auth.s = number(field(a, "s", where), where + " s");
            f.authorization_list.push_back(auth);
        }
    }
    // A placeholder signature: the sender comes from the secret key, not from recovery.
    f.v = f.type == eth::TxType::legacy ? Uint256(27) : Uint256(0);
    f.r = 1;
    f.s = 1;
    if ((f.type == eth::TxType::blob || f.type == eth::TxType::set_code) && !f.to)
        return {std::nullopt, "TransactionException.TYPE_3_TX_CONTRACT_CREATION"};
    const Bytes envelope = eth::encode(f);
    auto tx = eth::decode_transaction(envelope);
    if (!tx) return {std::nullopt, eth::to_string(tx.error())};
    return {std::move(*tx), {}};
}

}  // namespace

namespace {

void run_test(const std::filesystem::path& path, const std::string& name, const json& t,
              const std::string& where, const StateTestOptions& options,
              const std::function<void(const StateTestCase&)>& report) {
    const json& env = field(t, "env", where);
    const json& tj = field(t, "transaction", where);
    const state::MemoryState pre = accounts(field(t, "pre", where), where + " pre");
    std::uint64_t chain_id = 1;
    if (t.contains("config") && t.at("config").contains("chainid"))
        chain_id = u64(t.at("config").at("chainid"), where + " config.chainid");

    evm::BlockEnv block;
    block.coinbase = fixed_of<Address>(field(env, "currentCoinbase", where), where);
    block.number = u64(field(env, "currentNumber", where), where + " currentNumber");
    block.timestamp = u64(field(env, "currentTimestamp", where), where + " currentTimestamp");
    block.gas_limit = u64(field(env, "currentGasLimit", where), where + " currentGasLimit");
    if (env.contains("currentDifficulty"))
        block.difficulty = number(env.at("currentDifficulty"), where + " currentDifficulty");
    if (env.contains("currentRandom"))
        block.prev_randao = fixed_of<Hash32>(env.at("currentRandom"), where + " currentRandom");
    if (env.contains("currentBaseFee"))
        block.base_fee = number(env.at("currentBaseFee"), where + " currentBaseFee");
    block.chain_id = chain_id;
    // State tests' BLOCKHASH: keccak256 of the block number in decimal (geth's test rule).
    block.block_hash = [](std::uint64_t n) {
        const std::string s = std::to_string(n);
        return crypto::keccak256(
            BytesView(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
    };
    const Bytes32 secret = fixed_of<Bytes32>(field(tj, "secretKey", where), where + " secretKey");
    auto sender = crypto::secp256k1::address_of(secret);
    if (!sender) bad(where, "secretKey is not a valid secp256k1 key");

    const json& post_entries = field(t, "post", where);
    if (!post_entries.is_object()) bad(where + " post", "not an object of forks");
    for (const auto& [fork_name, entries] : post_entries.items()) {
        const auto fork = eth::parse_fork(fork_name);
        if (options.fork && fork != options.fork) continue;
        if (!entries.is_array()) bad(where + " post " + printable(fork_name), "not an array");
        std::size_t position = 0;
        for (const json& e : entries) {
            StateTestCase c;
            c.file = path.string();
            c.name = name;
            c.fork = fork_name;
            const std::string w =
                where + " post " + printable(fork_name) + "[" + std::to_string(position++) + "]";
            const json& idx = field(e, "indexes", w);
            c.data = index(field(idx, "data", w + " indexes"), w + " indexes.data");
            c.gas = index(field(idx, "gas", w + " indexes"), w + " indexes.gas");
            c.value = index(field(idx, "value", w + " indexes"), w + " indexes.value");
            const std::string want_root = text(field(e, "hash", w), w + " hash");
            const std::string want_logs = text(field(e, "logs", w), w + " logs");
            const bool expect_invalid = e.contains("expectException");
            if (!fork) {
                c.error = "unknown fork " + printable(fork_name);
                report(c);
                continue;
            }
            if (env.contains("currentExcessBlobGas"))
                block.blob_base_fee = eth::blob_base_fee(
                    u64(env.at("currentExcessBlobGas"), w + " currentExcessBlobGas"),
                    eth::default_blob_params(*fork).base_fee_update_fraction);
            const BuiltTx built = build_tx(tj, c.data, c.gas, c.value, chain_id, w);
            state::MemoryState post = pre;
            std::vector<state::Log> logs;
            std::string tx_error;
            std::optional<trace::Eip3155> tracer;
            if (!built.tx) {
                tx_error = built.invalid;
            } else {
                state::Overlay overlay(post);
                if (options.trace != nullptr)
                    tracer.emplace(options.trace, *fork, options.trace_options);
                auto r = evm::execute_transaction(*built.tx, *sender, block, overlay, *fork,
                                                  tracer ? &*tracer : nullptr);
                if (!r) {
                    tx_error =
                        evm::exception_name(r.error()) + " (" + evm::to_string(r.error()) + ")";
                } else {
                    c.gas_used = r->gas_used;
                    logs = std::move(r->logs);
                    const auto changes = overlay.changes();
                    post.apply(changes);
                }
            }
            // geth's state-test rule, which the fixtures were filled with: a zero reward
            // touches the coinbase after the transaction, valid or not. It only shows
            // before EIP-161, where the touch creates an empty account.
            {
                state::Overlay touch(post);
                touch.add_balance(block.coinbase, Uint256{});
                touch.finalize_transaction({.delete_empty = *fork >= eth::Fork::spurious_dragon});
                const auto changes = touch.changes();
                post.apply(changes);
            }
            const Hash32 root = post.state_root();
            c.state_root = hex32(root);
            c.logs_hash = hex32(logs_hash(logs));
            if (options.trace != nullptr) {
                // geth's line after each case's trace (goevmlab reads it); also after an
                // invalid transaction, which has no other line.
                if (!tracer) tracer.emplace(options.trace, *fork, options.trace_options);
                tracer->line("{\"stateRoot\": \"" + c.state_root + "\"}");
                tracer->flush();
            }
            c.pass = c.state_root == want_root && c.logs_hash == want_logs;
            if (!c.pass) {
                c.error = c.state_root != want_root
                              ? "state root " + c.state_root + ", want " + want_root
                              : "logs hash " + c.logs_hash + ", want " + want_logs;
                if (!tx_error.empty()) c.error += "; transaction invalid: " + tx_error;
            } else if (expect_invalid && tx_error.empty()) {
                c.pass = false;
                c.error = "transaction accepted, want " +
                          printable(text(e.at("expectException"), w + " expectException"));
            } else if (!expect_invalid && !tx_error.empty() && e.contains("txbytes")) {
                // Newer fixtures name every invalid transaction; this one is expected valid.
                c.pass = false;
                c.error = "transaction refused: " + tx_error;
            } else if (!tx_error.empty()) {
                c.error = tx_error;
            }
            report(c);
        }
    }
}

}  // namespace

void run_state_test_file(const std::filesystem::path& path, const StateTestOptions& options,
                         const std::function<void(const StateTestCase&)>& report) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Failure{kExitUsage, printable(path.string()) + ": cannot read"};
    std::stringstream contents;
    contents << in.rdbuf();
    const json file = parse_json(contents.str(), printable(path.string()));
    if (!file.is_object())
        bad(printable(path.string()), "not a state test fixture (an object of tests)");
    const std::string file_name = printable(path.filename().string());
    for (const auto& [name, t] : file.items()) {
        if (options.run && !options.run->search(name)) continue;
        const std::string where = file_name + " " + printable(name);
        // A value of the wrong JSON type deep in a field the helpers do not read: the library's
        // words, named by file and test, on one line.
        try {
            run_test(path, name, t, where, options, report);
        } catch (const json::exception& e) {
            std::string what = e.what();
            if (const auto p = what.find("] "); p != std::string::npos) what.erase(0, p + 2);
            bad(where, printable(what));
        }
    }
}

}  // namespace keel::cli
