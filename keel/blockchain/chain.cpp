#include "keel/blockchain/chain.hpp"

#include <vector>

#include "keel/common/hex.hpp"
#include "keel/eth/header.hpp"
#include "keel/store/state_store.hpp"

namespace keel::blockchain {
namespace {

std::unexpected<ExecError> other(std::string m) {
    return std::unexpected(ExecError{std::nullopt, std::move(m)});
}

std::unexpected<ExecError> store_fail(const store::StoreError& e) {
    return other(e.message);
}

// A stored block by hash: number, header and body.
struct StoredBlock {
    std::uint64_t number = 0;
    eth::Block block;
};

Result<StoredBlock, ExecError> load_block(const store::ChainStore& store, const Hash32& hash) {
    auto n = store.block_number(hash);
    if (!n) return store_fail(n.error());
    if (!n->found())
        return other("block " + hex::encode(hash.view(), {.prefix = true}) + " is not stored");
    auto header_rlp = store.header_by_hash(hash);
    if (!header_rlp) return store_fail(header_rlp.error());
    auto body_rlp = store.body_at(n->value, hash);
    if (!body_rlp) return store_fail(body_rlp.error());
    if (!header_rlp->found() || !body_rlp->found()) {
        return other("block " + std::to_string(n->value) + " (" +
                     hex::encode(hash.view(), {.prefix = true}) + ") is incomplete in the store");
    }
    auto header = eth::decode_header(header_rlp->value);
    auto body = eth::decode_body(body_rlp->value);
    if (!header || !body) {
        return other("block " + std::to_string(n->value) + " does not decode from the store");
    }
    return StoredBlock{n->value,
                       eth::Block{.header = std::move(*header), .body = std::move(*body)}};
}

std::vector<Hash32> tx_hashes_of(const eth::Block& b) {
    std::vector<Hash32> out;
    out.reserve(b.body.transactions.size());
    for (const auto& tx : b.body.transactions) out.push_back(tx.hash());
    return out;
}

}  // namespace

Result<Chain, std::string> Chain::open(store::ChainStore& store, eth::ChainConfig config,
                                       std::uint64_t keep_history) {
    auto state = store::state_head(store);
    if (!state) return unexpected(state.error().message);
    if (!*state) return unexpected(std::string("the store holds no state (keel init makes it)"));
    auto head = store.head();
    if (!head) return unexpected(head.error().message);
    if (!*head || **head != (*state)->number) {
        return unexpected("the state is at block " + std::to_string((*state)->number) +
                          ", the chain head elsewhere: finish with keel storage rewind");
    }
    auto td = store.total_difficulty_at((*state)->number, (*state)->hash);
    if (!td) return unexpected(td.error().message);
    if (!td->found()) return unexpected(std::string("the head's total difficulty is not stored"));
    return Chain(store, std::move(config), Head{(*state)->number, (*state)->hash, td->value},
                 keep_history);
}

Result<void, ExecError> Chain::unwind_one() {
    auto top = load_block(*store_, head_.hash);
    if (!top) return std::unexpected(top.error());
    const eth::Header& h = top->block.header;
    auto parent_rlp = store_->header_by_hash(h.parent_hash);
    if (!parent_rlp) return store_fail(parent_rlp.error());
    if (!parent_rlp->found()) return other("the parent of the head is not stored");
    auto parent = eth::decode_header(parent_rlp->value);
    if (!parent) return other("the parent of the head does not decode");
    auto u = store::prepare_state_unwind(*store_, head_.number, h.parent_hash, parent->state_root);
    if (!u) return store_fail(u.error());
    const std::vector<Hash32> txs = tx_hashes_of(top->block);
    if (auto w = store_->unwind_head(*u, txs); !w) return store_fail(w.error());
    auto td = store_->total_difficulty_at(head_.number - 1, h.parent_hash);
    if (!td) return store_fail(td.error());
    head_ = Head{head_.number - 1, h.parent_hash, td->value};
    ++reorg_blocks_;
    return {};
}

Result<void, ExecError> Chain::store_canonical(const eth::Block& block, const Hash32& hash,
                                               const Uint256& td, Executed executed) {
    const Bytes header_rlp = eth::encode(block.header);
    const Bytes body_rlp = eth::encode(block.body);
    const std::vector<Hash32> txs = tx_hashes_of(block);
    const store::BlockToStore row{.number = block.header.number,
                                  .hash = hash,
                                  .header_rlp = header_rlp,
                                  .body_rlp = body_rlp,
                                  .receipts_rlp = executed.receipts_rlp,
                                  .total_difficulty = td,
                                  .tx_hashes = txs};
    if (auto w = store_->put_blocks(std::span(&row, 1), &executed.state); !w) {
        return store_fail(w.error());
    }
    head_ = Head{block.header.number, hash, td};
    return {};
}

Result<void, ExecError> Chain::execute_stored(const Hash32& hash) {
    auto b = load_block(*store_, hash);
    if (!b) return std::unexpected(b.error());
    auto td = store_->total_difficulty_at(b->number, hash);
    if (!td) return store_fail(td.error());
    if (!td->found()) return other("block " + std::to_string(b->number) + "'s TD is not stored");
    auto executed = execute_on_head(*store_, config_, b->block, hash, 0, &times_, keep_history_);
    if (!executed) return std::unexpected(executed.error());
    ++reorg_blocks_;
    return store_canonical(b->block, hash, td->value, std::move(*executed));
}

Result<void, ExecError> Chain::set_head(const Hash32& target) {
    if (target == head_.hash) return {};
    auto n = store_->block_number(target);
    if (!n) return store_fail(n.error());
    if (!n->found())
        return other("set head: block " + hex::encode(target.view(), {.prefix = true}) +
                     " is not stored");
    // The target's branch back to the canonical chain.
    std::vector<Hash32> branch;
    Hash32 at = target;
    std::uint64_t number = n->value;
    while (true) {
        auto c = store_->canonical_hash(number);
        if (!c) return store_fail(c.error());
        if (c->found() && c->value == at && number <= head_.number) break;
        branch.push_back(at);
        auto h = store_->header_by_hash(at);
        if (!h) return store_fail(h.error());
        if (!h->found() || number == 0) return other("set head: no common ancestor");
        auto header = eth::decode_header(h->value);
        if (!header) return other("set head: a stored header does not decode");
        at = header->parent_hash;
        --number;
    }
    while (head_.number > number) {
        if (auto r = unwind_one(); !r) return r;
    }
    for (auto it = branch.rbegin(); it != branch.rend(); ++it) {
        if (auto r = execute_stored(*it); !r) return r;
    }
    return {};
}

Result<Hash32, ExecError> Chain::build(eth::Block& block) {
    auto executed = build_on_head(*store_, config_, block, &times_, keep_history_);
    if (!executed) return std::unexpected(executed.error());
    const Hash32 hash = executed->state.block_hash;
    const Uint256 td = head_.total_difficulty + block.header.difficulty;
    if (auto r = store_canonical(block, hash, td, std::move(*executed)); !r) {
        return std::unexpected(r.error());
    }
    return hash;
}

Result<Placed, ExecError> Chain::insert(const eth::Block& block, std::size_t encoded_size) {
    const eth::Header& h = block.header;
    const Hash32 hash = h.hash();
    auto known = store_->block_number(hash);
    if (!known) return store_fail(known.error());
    if (known->found()) return Placed::known;
    auto parent_number = store_->block_number(h.parent_hash);
    if (!parent_number) return store_fail(parent_number.error());
    if (!parent_number->found()) {
        return std::unexpected(
            ExecError{chain::BlockError{.code = chain::Errc::unknown_parent, .number = h.number},
                      "unknown parent " + hex::encode(h.parent_hash.view(), {.prefix = true})});
    }
    auto parent_td = store_->total_difficulty_at(parent_number->value, h.parent_hash);
    if (!parent_td) return store_fail(parent_td.error());
    if (!parent_td->found()) return other("the parent's total difficulty is not stored");

    const Head old = head_;
    if (h.parent_hash != head_.hash) {
        if (auto r = set_head(h.parent_hash); !r) return std::unexpected(r.error());
    }
    auto executed =
        execute_on_head(*store_, config_, block, hash, encoded_size, &times_, keep_history_);
    if (!executed) {
        ExecError e = std::move(executed.error());
        if (head_.hash != old.hash) {
            if (auto r = set_head(old.hash); !r) return std::unexpected(r.error());
        }
        return std::unexpected(std::move(e));
    }
    const Uint256 td = parent_td->value + h.difficulty;
    // Fork choice: after the Merge the newest block; before it the greater total difficulty, on
    // a tie the lower block (geth's ForkChoice without its coin toss: the head stays).
    const bool proof_of_stake = config_.fork_at(h.number, h.timestamp) >= eth::Fork::paris ||
                                (config_.terminal_total_difficulty &&
                                 parent_td->value >= *config_.terminal_total_difficulty);
    const bool wins = proof_of_stake || td > old.total_difficulty ||
                      (td == old.total_difficulty && h.number < old.number);
    if (wins) {
        if (auto r = store_canonical(block, hash, td, std::move(*executed)); !r) {
            return std::unexpected(r.error());
        }
        return Placed::canonical;
    }
    const Bytes header_rlp = eth::encode(block.header);
    const Bytes body_rlp = eth::encode(block.body);
    const store::BlockToStore row{.number = h.number,
                                  .hash = hash,
                                  .header_rlp = header_rlp,
                                  .body_rlp = body_rlp,
                                  .receipts_rlp = executed->receipts_rlp,
                                  .total_difficulty = td,
                                  .tx_hashes = {}};
    if (auto w = store_->put_side_block(row); !w) return store_fail(w.error());
    if (head_.hash != old.hash) {
        if (auto r = set_head(old.hash); !r) return std::unexpected(r.error());
    }
    return Placed::side;
}

}  // namespace keel::blockchain
