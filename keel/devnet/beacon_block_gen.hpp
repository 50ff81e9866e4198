#pragma once
/// A deterministic generated beacon block, for benchmarks of SSZ decoding and hash_tree_root on
/// realistic input: a mainnet-preset SignedBeaconBlock of deneb (default) or electra, at a slot
/// of that fork on mainnet (generated_slot()), shaped like a busy mainnet block:
///
///   attestations   deneb: 128 of one committee each (488-489 bits, mostly set); electra: 8
///                  (MAX_ATTESTATIONS_ELECTRA), each spanning the committees its committee_bits
///                  names, with aggregation bits over all of them (beacon_attestations.hpp)
///   payload        200 real signed transactions of 100 B to 10 KB, mostly small
///                  (beacon_payload_txs.hpp); 16 withdrawals; gas, base fee, block number and
///                  timestamp consistent with the slot and the transactions
///   blobs          6 KZG commitments (2 per blob transaction, whose versioned hashes match)
///   sync aggregate 512 bits, each set with probability 95%
///   operations     1 proposer slashing (optional), 3 voluntary exits, 4 BLS-to-execution
///                  changes; electra: execution requests (2 deposits, 2 withdrawals, 1
///                  consolidation)
///   other          eth1 data, graffiti "keel devnet", randao reveal, parent and state roots
///
/// With the defaults a deneb block is about 140 KB. Signatures, public keys and KZG commitments
/// are random bytes shaped like compressed BLS12-381 points: they are NOT valid points and
/// nothing in the block verifies (beacon_values.hpp). Roots are random too, except those the
/// block itself determines.
///
/// The output is a pure function of the spec: the same bytes on every run, machine and thread
/// count. Transactions are signed on the oneTBB pool.

#include <cstdint>

#include "keel/common/bytes.hpp"
#include "keel/common/result.hpp"
#include "keel/devnet/beacon_spec.hpp"

namespace keel::devnet {

/// A generated block and the facts a summary line reports.
struct GeneratedBeaconBlock {
    Bytes ssz;               ///< the SignedBeaconBlock's SSZ encoding
    std::uint64_t slot = 0;  ///< the block's slot (generated_slot(fork, seed))
    /// hash_tree_root of the message (the BeaconBlock): the block root, as `keel ssz
    /// block-root` prints it.
    Hash32 block_root;
};

/// The block of `spec`, or the first rule it breaks (check()).
[[nodiscard]] Result<GeneratedBeaconBlock, BeaconSpecError> generate_beacon_block(
    const BeaconBlockSpec& spec);

}  // namespace keel::devnet
