#include "keel/devnet/scripted_chain.hpp"

#include <nlohmann/json.hpp>

#include <map>

#include "keel/blockchain/chain.hpp"
#include "keel/chain/difficulty.hpp"
#include "keel/common/hex.hpp"
#include "keel/devnet/signer.hpp"
#include "keel/eth/sender.hpp"
#include "keel/store/state_store.hpp"

namespace keel::devnet {
namespace {

using nlohmann::json;

Result<Bytes, std::string> bytes_of(const json& j, const std::string& where) {
    if (!j.is_string()) return unexpected(where + ": not a hex string");
    std::string s = j.get<std::string>();
    if (s.starts_with("0x") || s.starts_with("0X")) s.erase(0, 2);
    auto b = hex::decode(s);
    if (!b) return unexpected(where + ": not hex");
    return std::move(*b);
}

Result<Uint256, std::string> number_of(const json& j, const std::string& where) {
    if (j.is_number_unsigned()) return Uint256(j.get<std::uint64_t>());
    if (!j.is_string()) return unexpected(where + ": not a number");
    auto v = Uint256::from_string(j.get<std::string>());
    if (!v) return unexpected(where + ": not a number");
    return *v;
}

}  // namespace

Result<ScriptedChain, std::string> build_scripted_chain(store::ChainStore& store,
                                                        const eth::ChainConfig& config,
                                                        std::string_view script_json,
                                                        LegacyV legacy_v) {
    const json script = json::parse(script_json, nullptr, false);
    if (script.is_discarded() || !script.is_object() || !script.contains("blocks") ||
        !script["blocks"].is_array()) {
        return unexpected(std::string("script: not an object with a \"blocks\" list"));
    }
    auto chain = blockchain::Chain::open(store, config, 0);
    if (!chain) return unexpected("script: " + chain.error());
    ScriptedChain out;
    for (const json& b : script["blocks"]) {
        const std::string where = "script: block " + std::to_string(out.block_hashes.size() + 1);
        const blockchain::Head& head = chain->head();
        auto parent_rlp = store.header_by_hash(head.hash);
        if (!parent_rlp || !parent_rlp->found()) return unexpected(where + ": no parent header");
        auto parent = eth::decode_header(parent_rlp->value);
        if (!parent) return unexpected(where + ": the parent's header does not decode");
        if (b.contains("number")) {
            auto n = number_of(b["number"], where + ": number");
            if (!n) return unexpected(n.error());
            if (*n != Uint256(parent->number + 1)) {
                return unexpected(where + ": number " + n->to_hex() + " does not follow block " +
                                  std::to_string(parent->number));
            }
        }
        auto view = store::StateView::open(store);
        if (!view) return unexpected(where + ": " + view.error().message);
        std::map<Address, std::uint64_t> nonces;
        eth::Block block;
        const json& txs = b.value("transactions", json::array());
        if (!txs.is_array()) return unexpected(where + ": transactions: not a list");
        for (std::size_t i = 0; i < txs.size(); ++i) {
            const json& t = txs[i];
            const std::string at = where + " transaction " + std::to_string(i);
            if (!t.is_object()) return unexpected(at + ": not an object");
            auto secret_bytes = bytes_of(t.value("secretKey", json()), at + ": secretKey");
            if (!secret_bytes) return unexpected(secret_bytes.error());
            auto secret = Bytes32::from_right_aligned(*secret_bytes);
            if (!secret || secret_bytes->size() != 32) {
                return unexpected(at + ": secretKey: not 32 bytes");
            }
            eth::TransactionFields f;
            f.chain_id = config.chain_id.as_u64();
            auto gas = number_of(t.value("gasLimit", json()), at + ": gasLimit");
            if (!gas) return unexpected(gas.error());
            if (!gas->fits_u64()) return unexpected(at + ": gasLimit: over 64 bits");
            f.gas_limit = (*gas)[0];
            auto price = number_of(t.value("gasPrice", json()), at + ": gasPrice");
            if (!price) return unexpected(price.error());
            f.max_fee_per_gas = *price;
            if (t.contains("value")) {
                auto v = number_of(t["value"], at + ": value");
                if (!v) return unexpected(v.error());
                f.value = *v;
            }
            if (t.contains("data")) {
                auto d = bytes_of(t["data"], at + ": data");
                if (!d) return unexpected(d.error());
                f.data = std::move(*d);
            }
            if (t.contains("to")) {
                auto to = bytes_of(t["to"], at + ": to");
                if (!to) return unexpected(to.error());
                auto a = Address::from_right_aligned(*to);
                if (!a || to->size() != 20) return unexpected(at + ": to: not 20 bytes");
                f.to = *a;
            }
            // The sender first (from a signature with any nonce), then its nonce.
            eth::Transaction tx = sign_transaction(f, *secret, legacy_v);
            auto sender = eth::sender(tx);
            if (!sender) return unexpected(at + ": the signature does not recover");
            auto [it, fresh] = nonces.try_emplace(*sender, 0);
            if (fresh) {
                auto acc = view->account(*sender);
                it->second = acc ? acc->nonce : 0;
            }
            f.nonce = it->second++;
            block.body.transactions.push_back(sign_transaction(f, *secret, legacy_v));
        }
        eth::Header& h = block.header;
        h.timestamp = parent->timestamp + 10;
        h.gas_limit = parent->gas_limit;
        h.beneficiary = parent->beneficiary;
        const eth::Fork fork = config.fork_at(parent->number + 1, h.timestamp);
        if (fork < eth::Fork::paris) {
            h.difficulty =
                chain::expected_difficulty(*parent, parent->number + 1, h.timestamp, fork,
                                           config.bomb_delay(fork, parent->number + 1));
        }
        if (fork >= eth::Fork::shanghai) block.body.withdrawals.emplace();
        if (fork >= eth::Fork::cancun) h.parent_beacon_block_root = Hash32{};
        auto built = chain->build(block);
        if (!built) return unexpected(where + ": " + built.error().message);
        out.block_hashes.push_back(*built);
        std::vector<Hash32> hashes;
        for (const eth::Transaction& tx : block.body.transactions) hashes.push_back(tx.hash());
        out.tx_hashes.push_back(std::move(hashes));
    }
    return out;
}

}  // namespace keel::devnet
