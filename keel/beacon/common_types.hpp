#pragma once
/// The consensus layer's custom types and constants shared by every fork (consensus-specs
/// phase0/beacon-chain.md "Custom types" and "Constants", plus the later forks' additions).
/// They are aliases of SSZ basic types and byte vectors, so any of them can be encoded alone.

#include <cstddef>
#include <cstdint>

#include "keel/common/bytes.hpp"
#include "keel/common/uint256.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon {

using Slot = std::uint64_t;               ///< a slot number
using Epoch = std::uint64_t;              ///< an epoch number
using CommitteeIndex = std::uint64_t;     ///< a committee index at a slot
using ValidatorIndex = std::uint64_t;     ///< a validator registry index
using Gwei = std::uint64_t;               ///< an amount in Gwei
using Root = Bytes32;                     ///< a Merkle root
using Version = FixedBytes<4>;            ///< a fork version
using DomainType = FixedBytes<4>;         ///< a signature domain type
using ForkDigest = FixedBytes<4>;         ///< a fork digest
using Domain = Bytes32;                   ///< a signature domain
using BLSPubkey = Bytes48;                ///< a compressed BLS12-381 public key
using BLSSignature = Bytes96;             ///< a compressed BLS12-381 signature
using ParticipationFlags = std::uint8_t;  ///< altair: per-validator participation bits
using ExecutionAddress = Address;         ///< bellatrix: a 20-byte execution address
using WithdrawalIndex = std::uint64_t;    ///< capella: a withdrawal's sequence number
using BlobIndex = std::uint64_t;          ///< deneb: a blob's index in its block
using KZGCommitment = Bytes48;            ///< deneb: a KZG commitment to a blob
using KZGProof = Bytes48;                 ///< deneb: a KZG proof

/// phase0 constants that size SSZ types.
inline constexpr std::size_t kDepositContractTreeDepth = 32;  ///< DEPOSIT_CONTRACT_TREE_DEPTH
inline constexpr std::size_t kJustificationBitsLength = 4;    ///< JUSTIFICATION_BITS_LENGTH
/// deneb: BYTES_PER_FIELD_ELEMENT (polynomial-commitments.md).
inline constexpr std::size_t kBytesPerFieldElement = 32;

}  // namespace keel::beacon
