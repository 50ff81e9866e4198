#pragma once
/// The contracts of the contract-heavy devnet (contract_chain.hpp): their creation code,
/// compiled from the Solidity sources beside it in keel/devnet/contracts/ (Token.sol and
/// Token.bin, ...; scripts/compile_contracts.sh makes the .bin files with a pinned solc), and
/// the ABI encoding of the calls the generator makes.

#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"

namespace keel::devnet {

/// The compiled contracts.
enum class Contract : std::uint8_t {
    token,    ///< ERC-20 with an open mint (Token.sol)
    pair,     ///< constant-product market maker of two tokens (Pair.sol)
    nft,      ///< ERC-721-style mint and transfer (Nft.sol)
    churn,    ///< storage-heavy loops (Churn.sol)
    factory,  ///< CREATE, CREATE2 and SELFDESTRUCT of children (Factory.sol)
    batch,    ///< EIP-7702 delegation target paying out to new accounts (Batch.sol)
};

/// The contract's creation code (constructor arguments not included).
Bytes creation_code(Contract c);

/// One ABI word: an unsigned number, an address or a boolean, 32 bytes big-endian.
class AbiWord {
  public:
    AbiWord(const Uint256& v) noexcept : bytes_(v.to_bytes32()) {}  // NOLINT: implicit by design
    AbiWord(std::uint64_t v) noexcept : AbiWord(Uint256(v)) {}      // NOLINT
    AbiWord(const Address& a) noexcept;                             // NOLINT
    AbiWord(const Bytes32& b) noexcept : bytes_(b) {}               // NOLINT
    static AbiWord boolean(bool b) noexcept { return AbiWord(std::uint64_t{b ? 1u : 0u}); }
    const Bytes32& bytes() const noexcept { return bytes_; }

  private:
    Bytes32 bytes_;
};

/// The calldata of a call to `signature` ("transfer(address,uint256)"): the first four bytes
/// of its Keccak-256, then the arguments, all static (one word each).
Bytes abi_call(std::string_view signature, std::initializer_list<AbiWord> args);

/// Creation code followed by its constructor's static arguments.
Bytes with_arguments(Contract c, std::initializer_list<AbiWord> args);

}  // namespace keel::devnet
