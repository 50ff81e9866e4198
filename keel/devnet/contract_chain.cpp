#include "keel/devnet/contract_chain.hpp"

#include <algorithm>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include "keel/blockchain/chain.hpp"
#include "keel/blockchain/init.hpp"
#include "keel/chain/genesis.hpp"
#include "keel/common/assert.hpp"
#include "keel/common/hex.hpp"
#include "keel/common/parallel.hpp"
#include "keel/devnet/accounts.hpp"
#include "keel/devnet/contracts.hpp"
#include "keel/devnet/detail/rng.hpp"
#include "keel/devnet/signer.hpp"
#include "keel/eth/block.hpp"
#include "keel/eth/contract_address.hpp"
#include "keel/eth/receipt.hpp"
#include "keel/rlp/decode.hpp"
#include "keel/rlp/encode.hpp"
#include "keel/store/chain_store.hpp"

namespace keel::devnet {
namespace {

using detail::Domain;
using detail::Rng;
using eth::TxType;

constexpr std::uint64_t kGwei = 1'000'000'000;
constexpr std::uint64_t kGenesisTime = 1'700'000'000;
constexpr std::uint64_t kSlotSeconds = 12;
constexpr std::uint64_t kMaxFee = 10 * kGwei;  // the base fee starts at 1 gwei and never rises
constexpr std::uint64_t kPriorityFee = kGwei;
constexpr std::size_t kWithdrawalsPerBlock = 16;
constexpr std::size_t kMaxBlobsPerBlock = 6;  // Prague's target: the excess stays zero
constexpr std::size_t kMaxTxsPerContractBlock = 5000;
constexpr std::uint64_t kStateHistory = 16;  // the generator's store keeps little history
// Each sender's and authority's genesis balance: 10^26 wei (100 million ether).
const Uint256 kFunding = Uint256(10'000'000'000'000ULL) * Uint256(10'000'000'000'000ULL);
// Tokens minted to each sender, and the pair's first liquidity.
const Uint256 kMinted = Uint256(1'000'000'000'000'000ULL) * Uint256(1'000'000'000'000'000ULL);
const Uint256 kLiquidity = Uint256(1'000'000'000'000'000ULL) * Uint256(100'000'000'000'000ULL);

// Mix of the steady blocks: percent of the drawn transactions, by TxKind from new_account.
constexpr std::array<std::uint8_t, kTxKindCount> kWeights = {
    0,   // setup
    36,  // new_account
    4,   // transfer
    16,  // erc20
    10,  // swap
    8,   // nft_mint
    5,   // storage_loop
    3,   // create2
    2,   // create_destroy
    1,   // factory_create
    1,   // destroy_old
    1,   // deploy
    5,   // blob
    3,   // delegate
    5,   // payout
};

// Deployment order of block 1 (sender 0's nonces 0..6).
enum Deployed : std::uint8_t { token0, token1, nft, churn, factory, batch, pair, kDeployedCount };

// A transaction planned in order, signed later on any thread.
struct Planned {
    eth::TransactionFields fields;
    const Bytes32* secret = nullptr;
    TxKind kind = TxKind::setup;
};

TxKind draw_kind(Rng& rng) {
    std::uint64_t roll = rng.below(100);
    for (std::size_t k = 0; k < kTxKindCount; ++k) {
        if (roll < kWeights[k]) return static_cast<TxKind>(k);
        roll -= kWeights[k];
    }
    return TxKind::new_account;
}

std::string hex_quantity(const Uint256& v) {
    return v.to_hex();
}

std::string hex_data(BytesView b) {
    return hex::encode_prefixed(b);
}

}  // namespace

std::string_view kind_name(TxKind k) noexcept {
    static constexpr std::array<std::string_view, kTxKindCount> kNames = {
        "setup",       "new_account",  "transfer", "erc20",          "swap",
        "nft_mint",    "storage_loop", "create2",  "create_destroy", "factory_create",
        "destroy_old", "deploy",       "blob",     "delegate",       "payout"};
    return kNames[static_cast<std::size_t>(k)];
}

struct ContractChainGenerator::State {
    ContractChainSpec spec;
    std::filesystem::path work_dir;
    AccountSet accounts;
    std::string genesis_json;
    std::optional<store::ChainStore> store;
    std::optional<blockchain::Chain> chain;
    eth::Block genesis_block;

    std::array<Address, kDeployedCount> deployed{};
    std::vector<std::uint64_t> sender_nonce;
    std::vector<std::uint64_t> authority_nonce;
    std::vector<bool> delegated;
    // The block whose planning last signed an authorization of each authority. Its payouts
    // wait a block more (the authorization may open the next block, as a pending transaction):
    // a transaction whose nonce an authorization earlier in its own block raised is valid, but
    // a pool (anvil's, geth's) holds it back as a nonce gap, and peers are fed through pools.
    std::vector<std::uint64_t> authorized_at;
    std::uint64_t planning = 0;    // the block being planned
    std::uint64_t setup_step = 0;  // the next setup transaction
    std::uint64_t unique = 0;      // salts, payout seeds
    std::uint64_t churn_next = 0;  // the first never-written Churn slot
    std::uint64_t withdrawal_index = 0;

    std::vector<Planned> planned;    // reused
    std::optional<Planned> pending;  // planned but left out of the last block: the next one's first
    Bytes out;
    ContractChainStats stats;

    ~State() {
        chain.reset();
        store.reset();
        std::error_code ec;
        std::filesystem::remove_all(work_dir, ec);
    }

    std::uint64_t setup_count() const noexcept { return kDeployedCount + 4 * kSenderCount + 1; }

    eth::TransactionFields call_fields(std::uint64_t nonce, const Address& to, Bytes data,
                                       std::uint64_t gas) const {
        eth::TransactionFields f;
        f.type = TxType::dynamic_fee;
        f.chain_id = spec.chain_id;
        f.nonce = nonce;
        f.max_fee_per_gas = kMaxFee;
        f.max_priority_fee_per_gas = kPriorityFee;
        f.gas_limit = gas;
        f.to = to;
        f.data = std::move(data);
        return f;
    }

    Planned from_sender(std::size_t s, std::optional<Address> to, Bytes data, std::uint64_t gas,
                        TxKind kind) {
        Planned p;
        p.fields = call_fields(sender_nonce[s]++, Address{}, std::move(data), gas);
        p.fields.to = to;
        p.secret = &accounts.senders[s].secret;
        p.kind = kind;
        return p;
    }

    // Adds the block's reverted transactions, read back from its stored receipts, to the stats.
    Result<void, std::string> count_failures(std::uint64_t number) {
        auto rlp = store->receipts(number);
        if (!rlp || !rlp->found())
            return unexpected("devnet gen: block " + std::to_string(number) +
                              ": receipts not stored");
        auto list = rlp::open_list(rlp->value);
        std::size_t i = 0;
        while (list && !list->empty()) {
            auto item = list->next();
            auto r = item ? eth::decode_receipt_item(item->encoded()) : unexpected(eth::Error{});
            if (!r || i >= planned.size())
                return unexpected("devnet gen: block " + std::to_string(number) +
                                  ": stored receipts do not decode");
            if (!r->success) ++stats.failed[static_cast<std::size_t>(planned[i].kind)];
            ++i;
        }
        return {};
    }

    Planned setup_tx(std::uint64_t step);
    std::optional<Planned> steady_tx(TxKind kind, Rng& rng, std::size_t& blobs);
    std::string make_genesis_json() const;
};

Planned ContractChainGenerator::State::setup_tx(std::uint64_t step) {
    if (step < kDeployedCount) {  // sender 0 deploys, nonces 0..6
        const auto d = static_cast<Deployed>(step);
        Bytes code;
        switch (d) {
            case token0:
            case token1:
                code = creation_code(Contract::token);
                break;
            case nft:
                code = creation_code(Contract::nft);
                break;
            case churn:
                code = creation_code(Contract::churn);
                break;
            case factory:
                code = creation_code(Contract::factory);
                break;
            case batch:
                code = creation_code(Contract::batch);
                break;
            case pair:
                code = with_arguments(Contract::pair, {deployed[token0], deployed[token1]});
                break;
            case kDeployedCount:
                break;
        }
        return from_sender(0, std::nullopt, std::move(code), 3'000'000, TxKind::setup);
    }
    step -= kDeployedCount;
    if (step < 4 * kSenderCount) {  // each sender: mint both tokens, approve the pair for both
        const std::size_t s = step / 4;
        const Address& self = accounts.senders[s].address;
        const Address& token = deployed[(step % 2) == 0 ? token0 : token1];
        Bytes data = (step % 4) < 2
                         ? abi_call("mint(address,uint256)", {self, kMinted})
                         : abi_call("approve(address,uint256)", {deployed[pair], ~Uint256{}});
        return from_sender(s, token, std::move(data), (step % 4) < 2 ? 80'000 : 60'000,
                           TxKind::setup);
    }
    return from_sender(0, deployed[pair],
                       abi_call("addLiquidity(uint256,uint256)", {kLiquidity, kLiquidity}), 300'000,
                       TxKind::setup);
}

std::optional<Planned> ContractChainGenerator::State::steady_tx(TxKind kind, Rng& rng,
                                                                std::size_t& blobs) {
    const std::size_t s = rng.below(kSenderCount);
    const Address& self = accounts.senders[s].address;
    auto fresh = [&rng] { return rng.fixed<20>(); };
    auto some_sender = [&] { return accounts.senders[rng.below(kSenderCount)].address; };
    switch (kind) {
        case TxKind::setup:
            break;
        case TxKind::new_account:
        case TxKind::transfer: {
            Planned p = from_sender(s, kind == TxKind::new_account ? fresh() : some_sender(), {},
                                    21'000, kind);
            p.fields.value = Uint256(rng.between(1, kGwei * kGwei));
            const std::uint64_t type = rng.below(10);  // legacy 20 %, access list 10 %
            if (type < 2) p.fields.type = TxType::legacy;
            if (type == 2) p.fields.type = TxType::access_list;
            if (kind == TxKind::new_account) ++stats.new_accounts;
            return p;
        }
        case TxKind::erc20: {
            const Address to = rng.chance(50) ? fresh() : some_sender();
            Planned p = from_sender(
                s, deployed[rng.chance(50) ? token0 : token1],
                abi_call("transfer(address,uint256)", {to, Uint256(rng.between(1, kGwei * kGwei))}),
                65'000, kind);
            if (rng.chance(10)) {
                p.fields.type = TxType::access_list;
                p.fields.access_list.push_back({*p.fields.to, {}});
            }
            return p;
        }
        case TxKind::swap: {
            const bool zero_for_one = rng.chance(50);
            const Uint256 amount(
                rng.between(1'000'000'000'000'000ULL, 10'000'000'000'000'000'000ULL));
            const Address to = rng.chance(80) ? self : fresh();
            return from_sender(s, deployed[pair],
                               abi_call("swap(bool,uint256,uint256,address)",
                                        {AbiWord::boolean(zero_for_one), amount, 0u, to}),
                               130'000, kind);
        }
        case TxKind::nft_mint:
            return from_sender(s, deployed[nft],
                               abi_call("mint(address)", {rng.chance(50) ? self : fresh()}),
                               130'000, kind);
        case TxKind::storage_loop: {
            const std::uint64_t count = rng.between(4, 32);
            std::uint64_t start = churn_next;
            if (churn_next > count && rng.chance(30)) {  // update earlier slots
                start = rng.below(churn_next - count);
            } else {
                churn_next += count;
            }
            return from_sender(s, deployed[churn],
                               abi_call("write(uint256,uint256)", {start, count}),
                               40'000 + 24'000 * count, kind);
        }
        case TxKind::create2:
            return from_sender(
                s, deployed[factory],
                abi_call("create2(bytes32,uint256)", {Uint256(++unique).to_bytes32(), rng.next()}),
                200'000, kind);
        case TxKind::create_destroy: {
            Planned p = from_sender(s, deployed[factory],
                                    abi_call("createAndDestroy(bytes32,uint256)",
                                             {Uint256(++unique).to_bytes32(), rng.next()}),
                                    200'000, kind);
            p.fields.value = Uint256(rng.between(1, kGwei));  // sent back by the SELFDESTRUCT
            return p;
        }
        case TxKind::factory_create:
            return from_sender(s, deployed[factory], abi_call("create(uint256)", {rng.next()}),
                               200'000, kind);
        case TxKind::destroy_old:
            return from_sender(s, deployed[factory], abi_call("destroyLast(address)", {self}),
                               60'000, kind);
        case TxKind::deploy:
            return from_sender(s, std::nullopt, creation_code(Contract::churn), 220'000, kind);
        case TxKind::blob: {
            if (!spec.blobs) return std::nullopt;
            const std::size_t n = rng.between(1, 2);
            if (blobs + n > kMaxBlobsPerBlock) return std::nullopt;
            blobs += n;
            Planned p = from_sender(s, some_sender(), {}, 21'000, kind);
            p.fields.type = TxType::blob;
            p.fields.max_fee_per_blob_gas = Uint256(kGwei);
            for (std::size_t i = 0; i < n; ++i) {
                Hash32 h = rng.fixed<32>();
                h[0] = 0x01;  // VERSIONED_HASH_VERSION_KZG
                p.fields.blob_versioned_hashes.push_back(h);
            }
            stats.blobs += n;
            return p;
        }
        case TxKind::delegate: {
            Planned p = from_sender(s, self, {}, 80'000, kind);
            p.fields.type = TxType::set_code;
            const std::size_t count = rng.between(1, 2);
            const std::size_t first = rng.below(kAuthorityCount);
            for (std::size_t i = 0; i < count; ++i) {
                const std::size_t a = (first + i) % kAuthorityCount;
                eth::Authorization auth;
                auth.chain_id = spec.chain_id;
                auth.address = deployed[batch];
                auth.nonce = authority_nonce[a]++;
                p.fields.authorization_list.push_back(
                    sign_authorization(auth, accounts.authorities[a].secret));
                delegated[a] = true;
                authorized_at[a] = planning;
            }
            return p;
        }
        case TxKind::payout: {
            const std::size_t a = rng.below(kAuthorityCount);
            if (!delegated[a] || planning - authorized_at[a] <= 1) return std::nullopt;
            const std::uint64_t count = rng.between(4, 16);
            const Address& authority = accounts.authorities[a].address;
            Planned p;
            p.fields = call_fields(
                authority_nonce[a]++, authority,
                abi_call("payout(uint256,uint256,uint256)", {++unique, count, Uint256(kGwei)}),
                50'000 + 38'000 * count);
            p.secret = &accounts.authorities[a].secret;
            p.kind = kind;
            stats.new_accounts += count;
            return p;
        }
    }
    return std::nullopt;
}

std::string ContractChainGenerator::State::make_genesis_json() const {
    std::string j;
    j += "{\n  \"config\": {\n    \"chainId\": " + std::to_string(spec.chain_id) + ",\n";
    for (const char* fork :
         {"homestead", "eip150", "eip155", "eip158", "byzantium", "constantinople", "petersburg",
          "istanbul", "berlin", "london", "mergeNetsplit"}) {
        j += std::string("    \"") + fork + "Block\": 0,\n";
    }
    j += "    \"terminalTotalDifficulty\": 0,\n";
    j += "    \"shanghaiTime\": 0,\n    \"cancunTime\": 0,\n    \"pragueTime\": 0,\n";
    j += "    \"depositContractAddress\": \"0x00000000219ab540356cbb839cbe05303d7705fa\",\n";
    j += "    \"blobSchedule\": {\n"
         "      \"cancun\": {\"target\": 3, \"max\": 6, \"baseFeeUpdateFraction\": 3338477},\n"
         "      \"prague\": {\"target\": 6, \"max\": 9, \"baseFeeUpdateFraction\": 5007716}\n"
         "    }\n  },\n";
    j += "  \"nonce\": \"0x0\",\n  \"timestamp\": \"" + Uint256(kGenesisTime).to_hex() + "\",\n";
    j += "  \"extraData\": \"" + hex_data(as_bytes("keel devnet")) + "\",\n";
    j += "  \"gasLimit\": \"" + Uint256(spec.gas_limit).to_hex() + "\",\n";
    j += "  \"difficulty\": \"0x0\",\n  \"baseFeePerGas\": \"" + Uint256(kGwei).to_hex() + "\",\n";
    j += "  \"mixHash\": \"" + hex_data(Hash32{}.view()) + "\",\n";
    j += "  \"coinbase\": \"" + hex_data(Address{}.view()) + "\",\n  \"alloc\": {\n";
    bool first = true;
    auto entry = [&](const Address& a, const std::string& body) {
        j += first ? "" : ",\n";
        first = false;
        j += "    \"" + hex_data(a.view()) + "\": {" + body + "}";
    };
    const std::string funded = "\"balance\": \"" + hex_quantity(kFunding) + "\"";
    for (const Account& a : accounts.senders) entry(a.address, funded);
    for (const Account& a : accounts.authorities) entry(a.address, funded);
    // The system contracts (EIP-4788, EIP-2935, EIP-7002, EIP-7251): their code as the public
    // networks deploy it, taken from the compiled-in Hoodi genesis.
    auto hoodi = chain::parse_genesis(chain::network_genesis_json(chain::Network::hoodi));
    KEEL_ASSERT(hoodi.has_value());
    const eth::SystemContracts& sc = hoodi->config.system_contracts;
    for (const Address& a :
         {sc.beacon_roots, sc.history_storage, sc.withdrawal_requests, sc.consolidation_requests}) {
        const auto account = hoodi->alloc.account(a);
        KEEL_ASSERT(account.has_value());
        const state::Code code = hoodi->alloc.code(account->code_hash);
        entry(a, "\"balance\": \"0x0\", \"nonce\": \"0x1\", \"code\": \"" + hex_data(*code) + "\"");
    }
    j += "\n  }\n}\n";
    return j;
}

ContractChainGenerator::ContractChainGenerator(std::unique_ptr<State> state) noexcept
    : state_(std::move(state)) {}
ContractChainGenerator::ContractChainGenerator(ContractChainGenerator&&) noexcept = default;
ContractChainGenerator& ContractChainGenerator::operator=(ContractChainGenerator&&) noexcept =
    default;
ContractChainGenerator::~ContractChainGenerator() = default;

Result<ContractChainGenerator, ContractChainError> ContractChainGenerator::create(
    const ContractChainSpec& spec, const std::filesystem::path& work_dir) {
    if (spec.blocks < 2 || spec.blocks > kMaxBlocks) {
        return unexpected("--blocks " + std::to_string(spec.blocks) + ": want 2.." +
                          std::to_string(kMaxBlocks) + " (the genesis and at least one block)");
    }
    if (spec.gas_limit < kMinContractGasLimit || spec.gas_limit > kMaxContractGasLimit) {
        return unexpected("--gas-limit " + std::to_string(spec.gas_limit) + ": want " +
                          std::to_string(kMinContractGasLimit) + ".." +
                          std::to_string(kMaxContractGasLimit));
    }
    if (spec.chain_id == 0 || spec.chain_id > kMaxChainId) {
        return unexpected("--chain-id " + std::to_string(spec.chain_id) + ": want 1.." +
                          std::to_string(kMaxChainId));
    }
    auto s = std::make_unique<State>();
    s->spec = spec;
    s->accounts = AccountSet::derive(spec.seed);
    s->sender_nonce.assign(kSenderCount, 0);
    s->authority_nonce.assign(kAuthorityCount, 0);
    s->authorized_at.assign(kAuthorityCount, 0);
    s->delegated.assign(kAuthorityCount, false);
    const Address& deployer = s->accounts.senders[0].address;
    for (std::size_t i = 0; i < kDeployedCount; ++i) {
        s->deployed[i] = eth::contract_address(deployer, i);
    }
    s->genesis_json = s->make_genesis_json();
    auto genesis = chain::parse_genesis(s->genesis_json);
    KEEL_ASSERT(genesis.has_value());  // made above

    auto store = store::ChainStore::create(work_dir);
    if (!store) return unexpected("devnet work folder: " + store.error().message);
    s->work_dir = work_dir;
    s->store.emplace(std::move(*store));
    auto init = blockchain::init_store(*s->store, *genesis, s->genesis_json);
    if (!init) return unexpected("devnet work folder: " + init.error());
    auto chain = blockchain::Chain::open(*s->store, genesis->config, kStateHistory);
    if (!chain) return unexpected("devnet work folder: " + chain.error());
    s->chain.emplace(std::move(*chain));
    s->genesis_block.header = genesis->header;
    s->genesis_block.body.withdrawals.emplace();
    return ContractChainGenerator(std::move(s));
}

const std::string& ContractChainGenerator::genesis_json() const noexcept {
    return state_->genesis_json;
}

bool ContractChainGenerator::done() const noexcept {
    return state_->stats.blocks >= state_->spec.blocks;
}

const ContractChainSpec& ContractChainGenerator::spec() const noexcept {
    return state_->spec;
}

const ContractChainStats& ContractChainGenerator::stats() const noexcept {
    return state_->stats;
}

Result<BytesView, std::string> ContractChainGenerator::next() {
    State& s = *state_;
    KEEL_ASSERT(!done());
    const std::uint64_t number = s.stats.blocks;
    eth::Block block;
    if (number == 0) {
        block = s.genesis_block;
    } else {
        // Sequential: which transactions, from whom, with which nonces.
        Rng rng(s.spec.seed, Domain::content, number, 0x636f6e7472616374);  // "contract"
        s.planned.clear();
        s.planning = number;
        std::uint64_t budget = s.spec.gas_limit / 2;
        std::size_t blobs = 0;
        while (s.planned.size() < kMaxTxsPerContractBlock) {
            std::optional<Planned> p;
            if (s.pending) {
                p = std::move(s.pending);
                s.pending.reset();
            } else if (s.setup_step < s.setup_count()) {
                // Setup: sender 0's deployments and mints come before its liquidity.
                p = s.setup_tx(s.setup_step++);
            } else {
                p = s.steady_tx(draw_kind(rng), rng, blobs);
                if (!p) continue;
            }
            if (p->fields.gas_limit > budget) {
                // Does not fit: it opens the next block (its nonces are already taken).
                s.pending = std::move(p);
                break;
            }
            budget -= p->fields.gas_limit;
            s.planned.push_back(std::move(*p));
        }
        // Parallel: signatures.
        std::vector<std::optional<eth::Transaction>> signed_txs(s.planned.size());
        parallel::for_each_index(s.planned.size(), 8, [&](std::size_t i) {
            const LegacyV v = LegacyV::eip155;
            signed_txs[i].emplace(sign_transaction(s.planned[i].fields, *s.planned[i].secret, v));
        });
        block.body.transactions.reserve(s.planned.size());
        for (std::size_t i = 0; i < s.planned.size(); ++i) {
            block.body.transactions.push_back(std::move(*signed_txs[i]));
            ++s.stats.kinds[static_cast<std::size_t>(s.planned[i].kind)];
        }
        Rng wrng(s.spec.seed, Domain::withdrawal, number, 0x636f6e7472616374);
        block.body.withdrawals.emplace();
        for (std::size_t i = 0; i < kWithdrawalsPerBlock; ++i) {
            block.body.withdrawals->push_back(
                eth::Withdrawal{.index = s.withdrawal_index++,
                                .validator_index = wrng.below(1 << 20),
                                .address = wrng.fixed<20>(),
                                .amount_gwei = wrng.between(1, kGwei)});
        }
        s.stats.new_accounts += kWithdrawalsPerBlock;
        Rng hrng(s.spec.seed, Domain::header, number, 0x636f6e7472616374);
        eth::Header& h = block.header;
        h.timestamp = kGenesisTime + kSlotSeconds * number;
        h.gas_limit = s.spec.gas_limit;
        h.beneficiary = s.accounts.miners[number % s.accounts.miners.size()];
        h.mix_hash = hrng.fixed<32>();
        h.parent_beacon_block_root = hrng.fixed<32>();
        const std::string_view extra = "keel devnet";
        h.extra_data.assign(extra.begin(), extra.end());
        auto built = s.chain->build(block);
        if (!built) {
            return unexpected("devnet gen: block " + std::to_string(number) + ": " +
                              built.error().message);
        }
        if (auto f = s.count_failures(number); !f) return unexpected(std::move(f.error()));
    }
    s.out.clear();
    {
        rlp::Encoder enc(s.out);
        enc.reserve(eth::encoded_size(block));
        eth::encode(block, enc);
    }
    s.stats.blocks += 1;
    s.stats.transactions += block.body.transactions.size();
    s.stats.bytes += s.out.size();
    s.stats.gas_used += block.header.gas_used;
    return BytesView(s.out);
}

}  // namespace keel::devnet
