#include "keel/rpc/engine.hpp"

#include <algorithm>

#include "keel/blockchain/executor.hpp"
#include "keel/blockchain/reads.hpp"
#include "keel/chain/system.hpp"
#include "keel/common/hex.hpp"
#include "keel/crypto/keccak.hpp"
#include "keel/eth/json.hpp"
#include "keel/eth/sender.hpp"
#include "keel/rpc/engine_payload.hpp"
#include "keel/rpc/params.hpp"

namespace keel::rpc {

using nlohmann::json;

namespace {

// The Engine API's own error codes (src/engine/common.md).
constexpr auto kUnknownPayload = static_cast<ErrorCode>(-38001);
constexpr auto kInvalidForkchoice = static_cast<ErrorCode>(-38002);
constexpr auto kInvalidAttributes = static_cast<ErrorCode>(-38003);
constexpr auto kTooLarge = static_cast<ErrorCode>(-38004);
constexpr auto kUnsupportedFork = static_cast<ErrorCode>(-38005);

constexpr std::size_t kMaxBodies = 1024;
constexpr std::size_t kMaxBlobs = 128;
constexpr std::size_t kKeptPayloads = 16;
constexpr std::size_t kKeptInvalid = 512;

const char* const kCapabilities[] = {
    "engine_newPayloadV1",
    "engine_newPayloadV2",
    "engine_newPayloadV3",
    "engine_newPayloadV4",
    "engine_forkchoiceUpdatedV1",
    "engine_forkchoiceUpdatedV2",
    "engine_forkchoiceUpdatedV3",
    "engine_getPayloadV1",
    "engine_getPayloadV2",
    "engine_getPayloadV3",
    "engine_getPayloadV4",
    "engine_getPayloadV5",
    "engine_getPayloadBodiesByHashV1",
    "engine_getPayloadBodiesByRangeV1",
    "engine_getBlobsV1",
    "engine_getBlobsV2",
    "engine_exchangeCapabilities",
    "engine_getClientVersionV1",
};

RpcError unsupported(const std::string& why) {
    return RpcError{kUnsupportedFork, "Unsupported fork: " + why};
}

// The payload status object.
void write_status(keel::json::Writer& w, std::string_view status,
                  const std::optional<Hash32>& latest, const std::optional<std::string>& error) {
    w.begin_object();
    w.key("status");
    w.string(status);
    w.key("latestValidHash");
    if (latest) {
        w.data(latest->view());
    } else {
        w.null();
    }
    w.key("validationError");
    if (error) {
        w.string(*error);
    } else {
        w.null();
    }
    w.end_object();
}

// The fork a block of this number and time on `parent` follows: a chain merged by total
// difficulty takes Paris (and so the time forks) once the parent's stored total difficulty
// reached it (blockchain::merge_rules); a parent not stored: the config as it is.
eth::Fork fork_of(const store::ChainStore& store, const eth::ChainConfig& c, std::uint64_t number,
                  std::uint64_t time, const Hash32& parent) {
    if (number > 0) {
        if (auto merged = blockchain::merge_rules(store, c, number, number - 1, parent);
            merged && *merged) {
            return (*merged)->fork_at(number, time);
        }
    }
    return c.fork_at(number, time);
}

// The newest payload version a fork's blocks take: getPayloadV1 Paris, V2 Shanghai, V3 Cancun,
// V4 Prague, V5 Osaka.
int get_payload_version(eth::Fork f) {
    if (f >= eth::Fork::osaka) return 5;
    if (f >= eth::Fork::prague) return 4;
    if (f >= eth::Fork::cancun) return 3;
    if (f >= eth::Fork::shanghai) return 2;
    return 1;
}

Result<std::optional<Hash32>, RpcError> hash_member(const json& o, const char* name,
                                                    std::size_t index) {
    auto it = o.find(name);
    if (it == o.end() || it->is_null()) return std::optional<Hash32>();
    json single = json::array({*it});
    auto h = hash_param(single, 0);
    if (!h)
        return std::unexpected(
            invalid_argument(index, std::string(name) + ": " + h.error().message));
    return std::optional<Hash32>(*h);
}

// A payload's id: the first 8 bytes of keccak256 over its parent and attributes (the same
// attributes on the same parent give the same id, as geth's).
std::uint64_t payload_id_of(const Hash32& parent, const eth::Block& attrs) {
    Bytes seed(parent.view().begin(), parent.view().end());
    const auto add_u64 = [&seed](std::uint64_t v) {
        for (int i = 0; i < 8; ++i) seed.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    const auto add = [&seed](BytesView b) { seed.insert(seed.end(), b.begin(), b.end()); };
    const eth::Header& h = attrs.header;
    add_u64(h.timestamp);
    add(h.mix_hash.view());
    add(h.beneficiary.view());
    if (h.parent_beacon_block_root) add(h.parent_beacon_block_root->view());
    if (attrs.body.withdrawals) {
        for (const eth::Withdrawal& w : *attrs.body.withdrawals) {
            add_u64(w.index);
            add_u64(w.validator_index);
            add(w.address.view());
            add_u64(w.amount_gwei);
        }
    }
    const Hash32 k = crypto::keccak256(seed);
    std::uint64_t id = 0;
    for (std::size_t i = 0; i < 8; ++i) id = id << 8 | k[i];
    return id;
}

void write_payload_id(keel::json::Writer& w, std::uint64_t id) {
    std::array<std::uint8_t, 8> b{};
    for (int i = 0; i < 8; ++i)
        b[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(id >> (56 - 8 * i));
    w.data(BytesView(b.data(), b.size()));
}

Result<std::uint64_t, RpcError> payload_id_param(const json& p) {
    auto text = string_param(p, 0, "engine.PayloadID");
    if (!text) return std::unexpected(text.error());
    auto b = hex::decode_fixed<FixedBytes<8>>(**text);
    if (!b) return std::unexpected(invalid_argument(0, "invalid payload id"));
    std::uint64_t id = 0;
    for (std::size_t i = 0; i < 8; ++i) id = id << 8 | (*b)[i];
    return id;
}

// geth's CalcGasLimit: from the parent's limit toward `desired` by at most parent/1024 - 1.
std::uint64_t next_gas_limit(std::uint64_t parent, std::uint64_t desired) {
    const std::uint64_t delta = parent / 1024 > 0 ? parent / 1024 - 1 : 0;
    desired = std::max<std::uint64_t>(desired, 5000);
    if (parent < desired) return std::min(parent + delta, desired);
    if (parent > desired) return std::max(parent - delta, desired);
    return parent;
}

// A built block as getPayloadV3..V5 and testing_buildBlockV1 show it.
void write_envelope(keel::json::Writer& w, const Engine::Built& b, int shape, bool requests) {
    w.begin_object();
    w.key("executionPayload");
    write_payload(w, b.block, shape);
    w.member_quantity("blockValue", b.value);
    // The sidecars of the block's blob transactions, as the pool kept them: a proof per blob
    // (V3, V4) or per cell (V5: the pool takes version-1 sidecars from Osaka on).
    w.key("blobsBundle");
    w.begin_object();
    const auto& txs = b.block.body.transactions;
    w.key("commitments");
    w.begin_array();
    for (const eth::Transaction& tx : txs)
        for (std::size_t i = 0; i < tx.commitments().size(); ++i)
            w.data(tx.commitments().as_view(i));
    w.end_array();
    w.key("proofs");
    w.begin_array();
    for (const eth::Transaction& tx : txs)
        for (std::size_t i = 0; i < tx.proofs().size(); ++i) w.data(tx.proofs().as_view(i));
    w.end_array();
    w.key("blobs");
    w.begin_array();
    for (const eth::Transaction& tx : txs)
        for (std::size_t i = 0; i < tx.blobs().size(); ++i) w.data(tx.blobs().as_view(i));
    w.end_array();
    w.end_object();
    w.key("shouldOverrideBuilder");
    w.boolean(false);
    if (requests) {
        w.key("executionRequests");
        write_execution_requests(w, b.requests);
    }
    w.end_object();
}

void write_body(keel::json::Writer& w, const eth::BlockBody& body) {
    w.begin_object();
    w.key("transactions");
    w.begin_array();
    for (const eth::Transaction& tx : body.transactions) w.data(tx.encoded());
    w.end_array();
    w.key("withdrawals");
    if (body.withdrawals) {
        w.begin_array();
        for (const eth::Withdrawal& wd : *body.withdrawals) eth::write_withdrawal(w, wd);
        w.end_array();
    } else {
        w.null();
    }
    w.end_object();
}

}  // namespace

Engine::Engine(blockchain::Chain& chain, store::ChainStore& store, EngineOptions options)
    : chain_(chain), store_(store), options_(std::move(options)) {}

void Engine::log(const std::string& line) const {
    if (options_.log) options_.log(line);
}

Result<void, RpcError> Engine::new_payload(const json& p, int version, keel::json::Writer& w) {
    const std::size_t want = version <= 2 ? 1 : version == 3 ? 3 : 4;
    if (auto r = at_most(p, want); !r) return r;
    if (p.size() < want)
        return std::unexpected(
            RpcError{ErrorCode::invalid_params,
                     "missing value for required argument " + std::to_string(p.size())});
    std::optional<Hash32> beacon_root;
    std::vector<Hash32> expected_hashes;
    std::optional<Hash32> requests_hash;
    if (version >= 3) {
        if (!p[1].is_array())
            return std::unexpected(
                invalid_argument(1, "expectedBlobVersionedHashes: not an array"));
        for (const json& h : p[1]) {
            json single = json::array({h});
            auto hash = hash_param(single, 0);
            if (!hash) return std::unexpected(invalid_argument(1, hash.error().message));
            expected_hashes.push_back(*hash);
        }
        json single = json::array({p[2]});
        auto root = hash_param(single, 0);
        if (!root) return std::unexpected(invalid_argument(2, root.error().message));
        beacon_root = *root;
    }
    if (version >= 4) {
        auto requests = execution_requests_of(p[3], 3);
        if (!requests) return std::unexpected(requests.error());
        requests_hash = chain::requests_hash(*requests);
    }
    const int payload_version = std::min(version, 3);
    // A V2 payload is V1's before Shanghai: its shape is checked by its fork below.
    auto payload = payload_of(p[0], payload_version, beacon_root, requests_hash);
    if (!payload) return std::unexpected(payload.error());
    eth::Block& block = payload->block;
    const eth::ChainConfig& config = chain_.config();
    const eth::Fork fork = fork_of(store_, config, block.header.number, block.header.timestamp,
                                   block.header.parent_hash);
    switch (version) {
        case 1:
            if (fork >= eth::Fork::shanghai)
                return std::unexpected(unsupported("newPayloadV1 after Shanghai"));
            break;
        case 2:
            if (fork >= eth::Fork::cancun)
                return std::unexpected(unsupported("newPayloadV2 from Cancun on"));
            if ((fork >= eth::Fork::shanghai) != block.body.withdrawals.has_value())
                return std::unexpected(invalid_argument(
                    0, fork >= eth::Fork::shanghai ? "nil withdrawals post-shanghai"
                                                   : "non-nil withdrawals pre-shanghai"));
            break;
        case 3:
            if (fork != eth::Fork::cancun)
                return std::unexpected(unsupported("newPayloadV3 is for Cancun"));
            break;
        default:
            if (fork < eth::Fork::prague)
                return std::unexpected(unsupported("newPayloadV4 is for Prague on"));
            break;
    }

    std::lock_guard lock(mutex_);
    const Hash32 hash = block.header.hash();
    if (payload->invalid) {
        write_status(w, "INVALID", std::nullopt, *payload->invalid);
        return {};
    }
    if (hash != payload->claimed_hash) {
        write_status(w, "INVALID", std::nullopt,
                     "blockhash mismatch, want " + hex::encode_prefixed(hash.view()) + ", got " +
                         hex::encode_prefixed(payload->claimed_hash.view()));
        return {};
    }
    std::vector<Hash32> blob_hashes;
    for (const eth::Transaction& tx : block.body.transactions)
        for (const Hash32& h : tx.blob_versioned_hashes()) blob_hashes.push_back(h);
    if (version >= 3 && blob_hashes != expected_hashes) {
        write_status(w, "INVALID", std::nullopt, "invalid blob versioned hashes");
        return {};
    }
    if (auto bad = invalid_.find(hash); bad != invalid_.end()) {
        write_status(w, "INVALID", bad->second.last_valid, bad->second.reason);
        return {};
    }
    if (auto bad = invalid_.find(block.header.parent_hash); bad != invalid_.end()) {
        write_status(w, "INVALID", bad->second.last_valid, "links to invalid block");
        return {};
    }
    auto known = store_.block_number(hash);
    if (!known) return std::unexpected(internal_error(known.error().message));
    if (known->found()) {
        write_status(w, "VALID", hash, std::nullopt);
        return {};
    }
    auto parent = store_.block_number(block.header.parent_hash);
    if (!parent) return std::unexpected(internal_error(parent.error().message));
    if (!parent->found()) {
        write_status(w, "SYNCING", std::nullopt, std::nullopt);
        return {};
    }
    const auto before = chain_.head();
    auto placed = chain_.insert(block);
    if (!placed) {
        if (!placed.error().block) return std::unexpected(internal_error(placed.error().message));
        const std::string reason = chain::to_string(*placed.error().block);
        if (invalid_.size() >= kKeptInvalid) invalid_.erase(invalid_.begin());
        invalid_[hash] = Invalid{block.header.parent_hash, reason};
        log("engine: block " + std::to_string(block.header.number) + " " +
            hex::encode_prefixed(hash.view()) + " invalid: " + reason);
        write_status(w, "INVALID", block.header.parent_hash, reason);
        return {};
    }
    const auto& after = chain_.head();
    log("engine: imported block " + std::to_string(block.header.number) + " " +
        hex::encode_prefixed(hash.view()) + " (" + std::to_string(block.body.transactions.size()) +
        " txs, " + std::to_string(block.header.gas_used) + " gas)" +
        (after.hash != before.hash && after.hash != hash ? " [reorg]" : ""));
    if (after.hash != before.hash && options_.on_head) options_.on_head();
    write_status(w, "VALID", hash, std::nullopt);
    return {};
}

Result<Engine::Built, std::string> Engine::build(eth::Block attributes,
                                                 std::vector<eth::Transaction> txs,
                                                 bool drop_invalid) {
    std::lock_guard lock(mutex_);
    return build_locked(std::move(attributes), std::move(txs), drop_invalid);
}

Result<Engine::Built, std::string> Engine::build_locked(eth::Block attrs,
                                                        std::vector<eth::Transaction> txs,
                                                        bool drop_invalid) {
    auto parent = blockchain::canonical_header(store_, chain_.head().number);
    if (!parent) return unexpected(parent.error().message);
    eth::Block b = std::move(attrs);
    b.header.gas_limit = next_gas_limit(parent->header.gas_limit, options_.gas_ceiling);
    b.header.extra_data = options_.extra_data;
    b.header.difficulty = Uint256(0);
    b.header.ommers_hash = eth::kEmptyOmmersHash;
    b.body.transactions = std::move(txs);
    if (drop_invalid) {  // a pool's: those whose sidecar the block's fork cannot carry go
        txpool::keep_carriable(b.body.transactions,
                               fork_of(store_, chain_.config(), parent->header.number + 1,
                                       b.header.timestamp, parent->hash));
    }
    for (;;) {
        eth::Block attempt = b;
        auto r = blockchain::build_on_head(store_, chain_.config(), attempt, nullptr);
        if (r) {
            Built out{std::move(attempt), Uint256(0), std::move(r->requests)};
            const Uint256 base = out.block.header.base_fee_per_gas.value_or(Uint256(0));
            std::uint64_t before = 0;
            for (std::size_t i = 0;
                 i < out.block.body.transactions.size() && i < r->receipts.size(); ++i) {
                const std::uint64_t used = r->receipts[i].cumulative_gas_used - before;
                before = r->receipts[i].cumulative_gas_used;
                const Uint256 price =
                    eth::effective_gas_price(out.block.body.transactions[i], base);
                if (price > base) out.value += Uint256(used) * (price - base);
            }
            return out;
        }
        const auto& e = r.error();
        if (drop_invalid && e.block && e.block->tx && *e.block->tx < b.body.transactions.size()) {
            b.body.transactions.erase(b.body.transactions.begin() +
                                      static_cast<std::ptrdiff_t>(*e.block->tx));
            continue;
        }
        return unexpected(e.block ? chain::to_string(*e.block) : e.message);
    }
}

Result<eth::Block, RpcError> Engine::attributes(const json& a, int version, std::size_t index) {
    if (!a.is_object())
        return std::unexpected(invalid_argument(index, "payloadAttributes: not an object"));
    auto h = blockchain::canonical_header(store_, chain_.head().number);
    if (!h) return std::unexpected(internal_error(h.error().message));
    auto time_text = a.find("timestamp");
    if (time_text == a.end() || !time_text->is_string())
        return std::unexpected(invalid_argument(index, "missing timestamp"));
    auto time = parse_quantity(time_text->get_ref<const std::string&>());
    if (!time) return std::unexpected(invalid_argument(index, "timestamp: " + time.error()));
    auto randao = hash_member(a, "prevRandao", index);
    if (!randao) return std::unexpected(randao.error());
    auto recipient_it = a.find("suggestedFeeRecipient");
    if (!*randao || recipient_it == a.end())
        return std::unexpected(
            invalid_argument(index, "missing prevRandao or suggestedFeeRecipient"));
    json single = json::array({*recipient_it});
    auto recipient = address_param(single, 0);
    if (!recipient) return std::unexpected(invalid_argument(index, recipient.error().message));
    auto beacon = hash_member(a, "parentBeaconBlockRoot", index);
    if (!beacon) return std::unexpected(beacon.error());
    const bool has_withdrawals = a.contains("withdrawals") && !a["withdrawals"].is_null();
    const eth::Fork fork = fork_of(store_, chain_.config(), h->header.number + 1, *time, h->hash);
    if (version == 1 && has_withdrawals)
        return std::unexpected(invalid_argument(index, "withdrawals not supported in V1"));
    if (version == 1 && fork >= eth::Fork::shanghai)
        return std::unexpected(unsupported("forkchoiceUpdatedV1 after Shanghai"));
    if (version == 2 && **beacon != Hash32{} && *beacon)
        return std::unexpected(
            invalid_argument(index, "parentBeaconBlockRoot not supported in V2"));
    if (version == 2 && fork >= eth::Fork::cancun)
        return std::unexpected(unsupported("forkchoiceUpdatedV2 from Cancun on"));
    if (version >= 2 && (fork >= eth::Fork::shanghai) != has_withdrawals)
        return std::unexpected(invalid_argument(index, fork >= eth::Fork::shanghai
                                                           ? "missing withdrawals"
                                                           : "withdrawals before Shanghai"));
    if (version == 3 && (!*beacon || !has_withdrawals))
        return std::unexpected(
            invalid_argument(index, "missing withdrawals or parentBeaconBlockRoot"));
    if (version == 3 && fork < eth::Fork::cancun)
        return std::unexpected(unsupported("forkchoiceUpdatedV3 is for Cancun on"));
    if (*time <= h->header.timestamp)
        return std::unexpected(
            RpcError{kInvalidAttributes, "Invalid payload attributes: timestamp " +
                                             std::to_string(*time) + " is not after the head's " +
                                             std::to_string(h->header.timestamp)});
    eth::Block attrs;
    attrs.header.timestamp = *time;
    attrs.header.mix_hash = **randao;
    attrs.header.beneficiary = *recipient;
    if (version >= 3) attrs.header.parent_beacon_block_root = **beacon;
    if (has_withdrawals) {
        if (!a["withdrawals"].is_array())
            return std::unexpected(invalid_argument(index, "withdrawals: not an array"));
        std::vector<eth::Withdrawal> list;
        for (const json& wd : a["withdrawals"]) {
            if (!wd.is_object())
                return std::unexpected(invalid_argument(index, "withdrawals: not objects"));
            json idx = json::array({wd.value("index", json()), wd.value("validatorIndex", json()),
                                    wd.value("amount", json())});
            auto wd_index = quantity_param(idx, 0, "hexutil.Uint64");
            auto validator = quantity_param(idx, 1, "hexutil.Uint64");
            auto amount = quantity_param(idx, 2, "hexutil.Uint64");
            json addr = json::array({wd.value("address", json())});
            auto address = address_param(addr, 0);
            if (!wd_index || !validator || !amount || !address)
                return std::unexpected(invalid_argument(index, "withdrawals: invalid withdrawal"));
            list.push_back({*wd_index, *validator, *address, *amount});
        }
        attrs.body.withdrawals = std::move(list);
    }
    return attrs;
}

Result<void, RpcError> Engine::forkchoice_updated(const json& p, int version,
                                                  keel::json::Writer& w) {
    if (auto r = at_most(p, 2); !r) return r;
    if (p.empty() || !p[0].is_object())
        return std::unexpected(invalid_argument(0, "forkchoiceState: not an object"));
    auto head_hash = hash_member(p[0], "headBlockHash", 0);
    auto safe_hash = hash_member(p[0], "safeBlockHash", 0);
    auto final_hash = hash_member(p[0], "finalizedBlockHash", 0);
    if (!head_hash) return std::unexpected(head_hash.error());
    if (!safe_hash) return std::unexpected(safe_hash.error());
    if (!final_hash) return std::unexpected(final_hash.error());
    if (!*head_hash) return std::unexpected(invalid_argument(0, "missing headBlockHash"));

    std::lock_guard lock(mutex_);
    const Hash32 head = **head_hash;
    if (auto bad = invalid_.find(head); bad != invalid_.end()) {
        w.begin_object();
        w.key("payloadStatus");
        write_status(w, "INVALID", bad->second.last_valid, bad->second.reason);
        w.key("payloadId");
        w.null();
        w.end_object();
        return {};
    }
    auto number = store_.block_number(head);
    if (!number) return std::unexpected(internal_error(number.error().message));
    if (!number->found()) {
        w.begin_object();
        w.key("payloadStatus");
        write_status(w, "SYNCING", std::nullopt, std::nullopt);
        w.key("payloadId");
        w.null();
        w.end_object();
        return {};
    }
    auto canonical = store_.canonical_hash(number->value);
    if (!canonical) return std::unexpected(internal_error(canonical.error().message));
    const bool is_canonical = canonical->found() && canonical->value == head;
    // A canonical block is the head or an ancestor of it: geth leaves the head where it is for
    // an ancestor; anything else becomes the head (a reorg onto its branch).
    if (!is_canonical) {
        const auto before = chain_.head();
        if (auto r = chain_.set_head(head); !r) {
            if (!r.error().block) return std::unexpected(internal_error(r.error().message));
            const std::string reason = chain::to_string(*r.error().block);
            invalid_[head] = Invalid{before.hash, reason};
            w.begin_object();
            w.key("payloadStatus");
            write_status(w, "INVALID", before.hash, reason);
            w.key("payloadId");
            w.null();
            w.end_object();
            return {};
        }
        if (options_.on_head) options_.on_head();
        log("engine: head " + std::to_string(number->value) + " " +
            hex::encode_prefixed(head.view()) + " (reorg from " + std::to_string(before.number) +
            " " + hex::encode_prefixed(before.hash.view()) + ")");
    } else if (head == chain_.head().hash) {
        // Already the head: nothing to do.
    }
    // Safe and finalized: known canonical blocks (zero: not yet), kept in the store for the
    // "safe" and "finalized" block tags.
    store::ChainStore::Forkchoice named;
    for (const auto& [hash, slot] :
         {std::pair{*safe_hash, &named.safe}, std::pair{*final_hash, &named.finalized}}) {
        if (!hash || hash->is_zero()) continue;
        auto n = store_.block_number(*hash);
        if (!n) return std::unexpected(internal_error(n.error().message));
        auto c =
            n->found() ? store_.canonical_hash(n->value) : decltype(store_.canonical_hash(0))();
        if (!n->found() || !c || !c->found() || c->value != *hash)
            return std::unexpected(RpcError{kInvalidForkchoice, "Invalid forkchoice state"});
        *slot = n->value;
    }
    if (named.safe || named.finalized) {
        if (auto r = store_.set_forkchoice(named); !r)
            return std::unexpected(internal_error(r.error().message));
    }

    std::optional<std::uint64_t> payload_id;
    if (p.size() > 1 && !p[1].is_null()) {
        const json& a = p[1];
        if (!a.is_object())
            return std::unexpected(invalid_argument(1, "payloadAttributes: not an object"));
        auto parsed = attributes(a, version, 1);
        if (!parsed) return std::unexpected(parsed.error());
        eth::Block attrs = std::move(*parsed);
        auto h = blockchain::canonical_header(store_, chain_.head().number);
        if (!h) return std::unexpected(internal_error(h.error().message));
        const std::uint64_t id = payload_id_of(chain_.head().hash, attrs);
        if (!payloads_.contains(id)) {
            std::vector<eth::Transaction> txs;
            if (options_.transactions) txs = options_.transactions(h->header.gas_limit);
            auto built = build_locked(std::move(attrs), std::move(txs), true);
            if (!built)
                return std::unexpected(internal_error("building a payload: " + built.error()));
            log("engine: built payload " + std::to_string(built->block.header.number) + " " +
                hex::encode_prefixed(built->block.header.hash().view()) + " (" +
                std::to_string(built->block.body.transactions.size()) + " txs)");
            if (payload_order_.size() >= kKeptPayloads) {
                payloads_.erase(payload_order_.front());
                payload_order_.erase(payload_order_.begin());
            }
            payloads_.emplace(id, std::move(*built));
            payload_order_.push_back(id);
        }
        payload_id = id;
    }
    w.begin_object();
    w.key("payloadStatus");
    write_status(w, "VALID", head, std::nullopt);
    w.key("payloadId");
    if (payload_id) {
        write_payload_id(w, *payload_id);
    } else {
        w.null();
    }
    w.end_object();
    return {};
}

Result<void, RpcError> Engine::get_payload(const json& p, int version, keel::json::Writer& w) {
    if (auto r = at_most(p, 1); !r) return r;
    auto id = payload_id_param(p);
    if (!id) return std::unexpected(id.error());
    std::lock_guard lock(mutex_);
    auto it = payloads_.find(*id);
    if (it == payloads_.end()) return std::unexpected(RpcError{kUnknownPayload, "Unknown payload"});
    const Built& b = it->second;
    const eth::Fork fork = fork_of(store_, chain_.config(), b.block.header.number,
                                   b.block.header.timestamp, b.block.header.parent_hash);
    const int serves = get_payload_version(fork);
    // V2 serves Paris and Shanghai; every other version its own fork.
    if (!(version == serves || (version == 2 && serves == 1)))
        return std::unexpected(unsupported("getPayloadV" + std::to_string(version) +
                                           " does not serve a " + std::string(eth::name(fork)) +
                                           " payload"));
    const int shape = std::min(serves, 3);
    if (version == 1) {
        write_payload(w, b.block, 1);
        return {};
    }
    if (version >= 3) {
        write_envelope(w, b, shape, version >= 4);
        return {};
    }
    w.begin_object();
    w.key("executionPayload");
    write_payload(w, b.block, shape);
    w.member_quantity("blockValue", b.value);
    w.end_object();
    return {};
}

Result<void, RpcError> Engine::build_block(const json& p, keel::json::Writer& w) {
    if (auto r = at_most(p, 4); !r) return r;
    auto parent = hash_param(p, 0);
    if (!parent) return std::unexpected(parent.error());
    if (p.size() < 2) return std::unexpected(invalid_argument(1, "missing payload attributes"));
    std::lock_guard lock(mutex_);
    if (*parent != chain_.head().hash) {
        return std::unexpected(
            server_error("parent " + hex::encode_prefixed(parent->view()) +
                         " is not the head: keel builds on its head's state only"));
    }
    auto attrs = attributes(p[1], 3, 1);
    if (!attrs) return std::unexpected(attrs.error());
    std::vector<eth::Transaction> txs;
    const bool from_pool = p.size() < 3 || p[2].is_null();
    if (from_pool) {
        auto h = blockchain::canonical_header(store_, chain_.head().number);
        if (!h) return std::unexpected(internal_error(h.error().message));
        if (options_.transactions) txs = options_.transactions(h->header.gas_limit);
    } else {
        if (!p[2].is_array()) return std::unexpected(invalid_argument(2, "expected an array"));
        for (std::size_t i = 0; i < p[2].size(); ++i) {
            json single = json::array({p[2][i]});
            auto raw = data_param(single, 0);
            if (!raw) return std::unexpected(invalid_argument(2, raw.error().message));
            auto tx = eth::decode_transaction(*raw);
            if (!tx)
                return std::unexpected(invalid_argument(
                    2, "transaction " + std::to_string(i) + ": " + eth::to_string(tx.error())));
            txs.push_back(std::move(*tx));
        }
    }
    const Bytes saved_extra = options_.extra_data;
    if (p.size() > 3 && !p[3].is_null()) {
        json single = json::array({p[3]});
        auto extra = data_param(single, 0);
        if (!extra) return std::unexpected(invalid_argument(3, extra.error().message));
        if (extra->size() > 32)
            return std::unexpected(invalid_argument(3, "extraData over 32 bytes"));
        options_.extra_data = std::move(*extra);
    }
    auto built = build_locked(std::move(*attrs), std::move(txs), from_pool);
    options_.extra_data = saved_extra;
    if (!built) return std::unexpected(server_error(built.error()));
    const eth::Fork fork = fork_of(store_, chain_.config(), built->block.header.number,
                                   built->block.header.timestamp, built->block.header.parent_hash);
    write_envelope(w, *built, 3, fork >= eth::Fork::prague);
    return {};
}

void Engine::add_testing_methods(Dispatcher& d) {
    d.add("testing_buildBlockV1",
          [this](const json& p, keel::json::Writer& w) { return build_block(p, w); });
}

void Engine::add_methods(Dispatcher& d) {
    for (int v = 1; v <= 4; ++v) {
        d.add("engine_newPayloadV" + std::to_string(v),
              [this, v](const json& p, keel::json::Writer& w) { return new_payload(p, v, w); });
    }
    for (int v = 1; v <= 3; ++v) {
        d.add("engine_forkchoiceUpdatedV" + std::to_string(v),
              [this, v](const json& p, keel::json::Writer& w) {
                  return forkchoice_updated(p, v, w);
              });
    }
    for (int v = 1; v <= 5; ++v) {
        d.add("engine_getPayloadV" + std::to_string(v),
              [this, v](const json& p, keel::json::Writer& w) { return get_payload(p, v, w); });
    }
    d.add("engine_exchangeCapabilities",
          [](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              w.begin_array();
              for (const char* m : kCapabilities) w.string(m);
              w.end_array();
              return {};
          });
    d.add("engine_getClientVersionV1",
          [this](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              w.begin_array();
              w.begin_object();
              w.key("code");
              w.string("KL");
              w.key("name");
              w.string(options_.client_name);
              w.key("version");
              w.string(options_.client_version);
              w.key("commit");
              w.string("0x" + options_.commit);
              w.end_object();
              w.end_array();
              return {};
          });
    d.add("engine_getPayloadBodiesByHashV1",
          [this](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              if (p.empty() || !p[0].is_array())
                  return std::unexpected(invalid_argument(0, "expected an array of block hashes"));
              if (p[0].size() > kMaxBodies)
                  return std::unexpected(RpcError{kTooLarge, "Too large request"});
              std::vector<Hash32> hashes;
              for (const json& h : p[0]) {
                  json single = json::array({h});
                  auto hash = hash_param(single, 0);
                  if (!hash) return std::unexpected(invalid_argument(0, hash.error().message));
                  hashes.push_back(*hash);
              }
              w.begin_array();
              for (const Hash32& h : hashes) {
                  auto n = store_.block_number(h);
                  auto body = n && n->found() ? store_.body_at(n->value, h)
                                              : decltype(store_.body_at(0, h))();
                  std::optional<eth::BlockBody> decoded;
                  if (body && body->found()) {
                      auto b = eth::decode_body(body->value);
                      if (b) decoded = std::move(*b);
                  }
                  if (decoded) {
                      write_body(w, *decoded);
                  } else {
                      w.null();
                  }
              }
              w.end_array();
              return {};
          });
    d.add("engine_getPayloadBodiesByRangeV1",
          [this](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 2); !r) return r;
              auto start = quantity_param(p, 0, "hexutil.Uint64");
              if (!start) return std::unexpected(start.error());
              auto count = quantity_param(p, 1, "hexutil.Uint64");
              if (!count) return std::unexpected(count.error());
              if (*start == 0 || *count == 0)
                  return std::unexpected(invalid_argument(0, "start and count must be positive"));
              if (*count > kMaxBodies)
                  return std::unexpected(RpcError{kTooLarge, "Too large request"});
              auto head = head_number(store_);
              if (!head) return std::unexpected(head.error());
              w.begin_array();
              for (std::uint64_t n = *start; n < *start + *count && n <= *head; ++n) {
                  auto b = blockchain::stored_block(store_, n);
                  if (b && b->body) {
                      write_body(w, *b->body);
                  } else {
                      w.null();
                  }
              }
              w.end_array();
              return {};
          });
    for (int v = 1; v <= 2; ++v) {
        d.add("engine_getBlobsV" + std::to_string(v),
              [this, v](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
                  if (auto r = at_most(p, 1); !r) return r;
                  if (p.empty() || !p[0].is_array())
                      return std::unexpected(
                          invalid_argument(0, "expected an array of versioned hashes"));
                  if (p[0].size() > kMaxBlobs)
                      return std::unexpected(RpcError{kTooLarge, "Too large request"});
                  std::vector<std::optional<txpool::KeptBlob>> found;
                  for (std::size_t i = 0; i < p[0].size(); ++i) {
                      const json one = json::array({p[0][i]});
                      auto h = hash_param(one, 0);
                      if (!h) return std::unexpected(h.error());
                      auto blob = options_.blobs ? options_.blobs(*h) : std::nullopt;
                      // V1 serves version-0 sidecars (a proof per blob), V2 version-1 ones.
                      if (blob && blob->wrapper_version != v - 1) blob.reset();
                      found.push_back(std::move(blob));
                  }
                  // V2 answers all or nothing: null when any blob is missing.
                  if (v == 2 && std::any_of(found.begin(), found.end(),
                                            [](const auto& b) { return !b.has_value(); })) {
                      w.null();
                      return {};
                  }
                  w.begin_array();
                  for (const auto& b : found) {
                      if (!b) {
                          w.null();
                          continue;
                      }
                      w.begin_object();
                      w.key("blob");
                      w.data(b->blob);
                      if (v == 1) {
                          w.key("proof");
                          w.data(b->proofs.at(0));
                      } else {
                          w.key("proofs");
                          w.begin_array();
                          for (const Bytes& proof : b->proofs) w.data(proof);
                          w.end_array();
                      }
                      w.end_object();
                  }
                  w.end_array();
                  return {};
              });
    }
}

}  // namespace keel::rpc
