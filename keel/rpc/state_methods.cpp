#include "keel/rpc/state_methods.hpp"

#include "keel/blockchain/reads.hpp"
#include "keel/common/hex.hpp"
#include "keel/rpc/params.hpp"
#include "keel/store/state_store.hpp"

namespace keel::rpc {

using nlohmann::json;

void add_state_methods(Dispatcher& d, const store::ChainStore& store,
                       const eth::ChainConfig& config, const txpool::Pool* pool) {
    enum class Field { balance, nonce, code, storage };
    const auto account_method = [&store, pool](Field field) {
        const std::size_t block_at = field == Field::storage ? 2 : 1;
        return [&store, pool, field, block_at](const json& p,
                                               keel::json::Writer& w) -> Result<void, RpcError> {
            if (auto r = at_most(p, block_at + 1); !r) return r;
            auto address = address_param(p, 0);
            if (!address) return std::unexpected(address.error());
            Uint256 slot;
            if (field == Field::storage) {
                if (p.size() < 2 || !p[1].is_string())
                    return std::unexpected(
                        invalid_argument(1, "missing or non-string storage key"));
                const auto v = parse_word(p[1].get_ref<const std::string&>());
                if (!v)
                    return std::unexpected(
                        invalid_argument(1, "unable to decode storage key: hex string invalid"));
                slot = *v;
            }
            auto number = block_param(p, block_at, store);
            if (!number) return std::unexpected(number.error());
            auto view = store::StateView::open(store, *number);
            if (!view) return std::unexpected(server_error(view.error().message));
            const state::Account acc = view->account(*address).value_or(state::Account{});
            switch (field) {
                case Field::balance:
                    w.quantity(acc.balance);
                    break;
                case Field::nonce: {
                    // "pending": past the sender's transactions waiting in the pool, as geth
                    // answers it (a wallet's next nonce).
                    const bool pending = p.size() > block_at && p[block_at] == "pending";
                    w.quantity(pending && pool != nullptr ? pool->next_nonce(*address, acc.nonce)
                                                          : acc.nonce);
                    break;
                }
                case Field::code:
                    w.data(*view->code(acc.code_hash));
                    break;
                case Field::storage:
                    w.data(view->storage(*address, slot).to_bytes32().view());
                    break;
            }
            if (auto f = view->failure()) return std::unexpected(internal_error(*f));
            return {};
        };
    };
    d.add("eth_getBalance", account_method(Field::balance));
    d.add("eth_getTransactionCount", account_method(Field::nonce));
    d.add("eth_getCode", account_method(Field::code));
    d.add("eth_getStorageAt", account_method(Field::storage));

    d.add("eth_getTransactionReceipt",
          [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              auto hash = hash_param(p, 0);
              if (!hash) return std::unexpected(hash.error());
              // Not found and pruned are known before anything is written (reads.hpp).
              if (auto r = blockchain::write_transaction_receipt(w, store, config, *hash); !r) {
                  if (!r.error().not_found && !r.error().pruned)
                      return std::unexpected(internal_error(r.error().message));
                  w.null();
              }
              return {};
          });
    d.add("eth_getBlockReceipts",
          [&store, &config](const json& p, keel::json::Writer& w) -> Result<void, RpcError> {
              if (auto r = at_most(p, 1); !r) return r;
              auto number = block_param(p, 0, store);
              if (!number) {
                  if (number.error().code == ErrorCode::server_error) {
                      w.null();
                      return {};
                  }
                  return std::unexpected(number.error());
              }
              std::uint64_t n = 0;
              if (*number) {
                  n = **number;
              } else {
                  auto head = head_number(store);
                  if (!head) return std::unexpected(head.error());
                  n = *head;
              }
              if (auto r = blockchain::write_block_receipts(w, store, config, n); !r) {
                  if (!r.error().not_found && !r.error().pruned)
                      return std::unexpected(internal_error(r.error().message));
                  w.null();
              }
              return {};
          });
}

}  // namespace keel::rpc
