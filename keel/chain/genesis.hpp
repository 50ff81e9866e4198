#pragma once
/// A chain's genesis from a genesis file in go-ethereum's format (core/genesis.go: `config`,
/// `alloc` and the header fields), as geth, Besu and the networks themselves publish them: the
/// chain config, the allocated accounts and the genesis header with its state root.
///
/// One reader for every user: `keel init`, the blockchain-test runner, the tracer fixtures and
/// the RPC test chain all start from parse_genesis(); `apps/` only calls it.
///
/// The header follows go-ethereum's Genesis.ToBlock: gasLimit 5,000 when absent or zero,
/// difficulty 131,072 when absent (0 when absent beside a non-zero mixHash), and the fields of the
/// forks active at block 0 and the genesis timestamp: a base fee (1 gwei unless `baseFeePerGas`
/// says otherwise) from London, the empty withdrawals root from Shanghai, blob gas used and excess
/// blob gas (0 unless given) and a zero parent beacon block root from Cancun, the empty requests
/// hash (EIP-7685) from Prague.
///
/// The Merge: a `terminalTotalDifficulty` of 0 makes Paris active with London (Holesky, Hoodi:
/// from block 0); a larger one leaves Paris to the total difficulty (mainnet, Sepolia:
/// chain::BlockTree applies Paris's rules from the first block whose parent reached it); without
/// one, a chain with a time fork (a devnet's `shanghaiTime: 0`) takes Paris with London.
/// `mergeNetsplitBlock` (Besu: `mergeNetSplitBlock`, `preMergeForkBlock`) only splits the fork id
/// and is not a rule change.
///
/// Numbers are read as go-ethereum reads them: "0x" hex or decimal strings, or JSON numbers of
/// any size (a terminal total difficulty of 5.875e22 is read exactly, not through a double).
/// Object keys match without regard to case, as Go's encoding/json matches them (`mixhash`).
/// A key naming a fork keel does not implement (`amsterdamTime`, `verkleTime`) is refused rather
/// than ignored: keel would run that fork's blocks by the wrong rules.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/eth/chain_config.hpp"
#include "keel/eth/header.hpp"
#include "keel/state/memory_state.hpp"

namespace keel::chain {

/// Why a genesis file cannot be read: the field ("config.cancunTime", "alloc.0x00…01.balance",
/// "gasLimit"; empty for the text as a whole) and what is wrong with it. to_string() gives the
/// one line the CLI prints: "genesis: config.cancunTime: expected a number, got true".
struct GenesisError {
    std::string field;
    std::string detail;
};

std::string to_string(const GenesisError& e);

struct Genesis {
    eth::ChainConfig config;
    state::MemoryState alloc;
    eth::Header header;  ///< the genesis block's header; its state_root is alloc's
};

/// Reads a genesis file's text. Bounded work for any input: the JSON parser's, then one pass
/// over the accounts (their state root: one trie build).
[[nodiscard]] Result<Genesis, GenesisError> parse_genesis(std::string_view json_text);

/// The public networks whose genesis keel knows.
enum class Network : std::uint8_t { mainnet, sepolia, holesky, hoodi };

/// "mainnet", "sepolia", "holesky", "hoodi".
std::string_view network_name(Network n) noexcept;
/// The network of a name network_name() gives, std::nullopt for any other.
std::optional<Network> parse_network(std::string_view name) noexcept;
/// The network's chain id (1, 11155111, 17000, 560048).
std::uint64_t network_chain_id(Network n) noexcept;
/// The network's genesis block hash as the network publishes it: mainnet
/// 0xd4e56740…cb8fa3, Sepolia 0x25a5cc10…3e6dd9, Holesky 0xb5f7f912…61bde4, Hoodi
/// 0xbbe31286…7c971b.
Hash32 network_genesis_hash(Network n) noexcept;
/// The network's genesis file (go-ethereum's format, Besu's current schedule; compiled in from
/// keel/chain/networks/), for parse_genesis().
std::string_view network_genesis_json(Network n) noexcept;

}  // namespace keel::chain
