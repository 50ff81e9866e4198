#pragma once
/// The consensus presets (consensus-specs presets/{mainnet,minimal}/*.yaml): the compile-time
/// constants that size the beacon containers. Every container in this module is a template on
/// one of these structs, e.g. `deneb::BeaconBlock<Mainnet>`.
///
/// Only the constants that appear in an SSZ type are listed; the run-time configuration (fork
/// epochs, genesis, ...) is not a preset. Values are those of consensus-specs **v1.6.1**
/// (https://github.com/ethereum/consensus-specs/tree/v1.6.1/presets), checked constant by constant
/// against presets/{mainnet,minimal}/*.yaml; presets_test.cpp pins each one. Changes since v1.5.0
/// (all in the minimal preset): MAX_DEPOSIT_REQUESTS_PER_PAYLOAD 4 -> 8192 and
/// MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD 2 -> 16 (v1.6.0-alpha.0, consensus-specs#4291: no longer
/// customized), MAX_BLOB_COMMITMENTS_PER_BLOCK 32 -> 4096 and KZG_COMMITMENT_INCLUSION_PROOF_DEPTH
/// 10 -> 17 (consensus-specs#4508, #4510); fulu's preset (presets/*/fulu.yaml) is new.

#include <cstdint>
#include <string_view>

namespace keel::beacon {

/// The mainnet preset.
struct Mainnet {
    static constexpr std::string_view kName = "mainnet";

    // phase0 (presets/mainnet/phase0.yaml)
    static constexpr std::uint64_t MAX_COMMITTEES_PER_SLOT = 64;
    static constexpr std::uint64_t MAX_VALIDATORS_PER_COMMITTEE = 2048;
    static constexpr std::uint64_t SLOTS_PER_EPOCH = 32;
    static constexpr std::uint64_t EPOCHS_PER_ETH1_VOTING_PERIOD = 64;
    static constexpr std::uint64_t SLOTS_PER_HISTORICAL_ROOT = 8192;
    static constexpr std::uint64_t EPOCHS_PER_HISTORICAL_VECTOR = 65536;
    static constexpr std::uint64_t EPOCHS_PER_SLASHINGS_VECTOR = 8192;
    static constexpr std::uint64_t HISTORICAL_ROOTS_LIMIT = 1ull << 24;
    static constexpr std::uint64_t VALIDATOR_REGISTRY_LIMIT = 1ull << 40;
    static constexpr std::uint64_t MAX_PROPOSER_SLASHINGS = 16;
    static constexpr std::uint64_t MAX_ATTESTER_SLASHINGS = 2;
    static constexpr std::uint64_t MAX_ATTESTATIONS = 128;
    static constexpr std::uint64_t MAX_DEPOSITS = 16;
    static constexpr std::uint64_t MAX_VOLUNTARY_EXITS = 16;
    static constexpr std::uint64_t MIN_SEED_LOOKAHEAD = 1;  // sizes fulu's proposer_lookahead

    // altair (presets/mainnet/altair.yaml)
    static constexpr std::uint64_t SYNC_COMMITTEE_SIZE = 512;

    // bellatrix (presets/mainnet/bellatrix.yaml)
    static constexpr std::uint64_t MAX_BYTES_PER_TRANSACTION = 1ull << 30;
    static constexpr std::uint64_t MAX_TRANSACTIONS_PER_PAYLOAD = 1ull << 20;
    static constexpr std::uint64_t BYTES_PER_LOGS_BLOOM = 256;
    static constexpr std::uint64_t MAX_EXTRA_DATA_BYTES = 32;

    // capella (presets/mainnet/capella.yaml)
    static constexpr std::uint64_t MAX_BLS_TO_EXECUTION_CHANGES = 16;
    static constexpr std::uint64_t MAX_WITHDRAWALS_PER_PAYLOAD = 16;

    // deneb (presets/mainnet/deneb.yaml)
    static constexpr std::uint64_t FIELD_ELEMENTS_PER_BLOB = 4096;
    static constexpr std::uint64_t MAX_BLOB_COMMITMENTS_PER_BLOCK = 4096;
    static constexpr std::uint64_t KZG_COMMITMENT_INCLUSION_PROOF_DEPTH = 17;

    // electra (presets/mainnet/electra.yaml)
    static constexpr std::uint64_t PENDING_DEPOSITS_LIMIT = 1ull << 27;
    static constexpr std::uint64_t PENDING_PARTIAL_WITHDRAWALS_LIMIT = 1ull << 27;
    static constexpr std::uint64_t PENDING_CONSOLIDATIONS_LIMIT = 1ull << 18;
    static constexpr std::uint64_t MAX_ATTESTER_SLASHINGS_ELECTRA = 1;
    static constexpr std::uint64_t MAX_ATTESTATIONS_ELECTRA = 8;
    static constexpr std::uint64_t MAX_DEPOSIT_REQUESTS_PER_PAYLOAD = 8192;
    static constexpr std::uint64_t MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD = 16;
    static constexpr std::uint64_t MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD = 2;

    // fulu (presets/mainnet/fulu.yaml)
    static constexpr std::uint64_t KZG_COMMITMENTS_INCLUSION_PROOF_DEPTH = 4;
    static constexpr std::uint64_t FIELD_ELEMENTS_PER_CELL = 64;
    static constexpr std::uint64_t FIELD_ELEMENTS_PER_EXT_BLOB = 8192;
    static constexpr std::uint64_t CELLS_PER_EXT_BLOB = 128;
    static constexpr std::uint64_t NUMBER_OF_COLUMNS = 128;
};

/// The minimal preset (small committees and vectors, for tests); values marked [customized]
/// in presets/minimal/*.yaml differ from mainnet.
struct Minimal {
    static constexpr std::string_view kName = "minimal";

    // phase0 (presets/minimal/phase0.yaml)
    static constexpr std::uint64_t MAX_COMMITTEES_PER_SLOT = 4;
    static constexpr std::uint64_t MAX_VALIDATORS_PER_COMMITTEE = 2048;
    static constexpr std::uint64_t SLOTS_PER_EPOCH = 8;
    static constexpr std::uint64_t EPOCHS_PER_ETH1_VOTING_PERIOD = 4;
    static constexpr std::uint64_t SLOTS_PER_HISTORICAL_ROOT = 64;
    static constexpr std::uint64_t EPOCHS_PER_HISTORICAL_VECTOR = 64;
    static constexpr std::uint64_t EPOCHS_PER_SLASHINGS_VECTOR = 64;
    static constexpr std::uint64_t HISTORICAL_ROOTS_LIMIT = 1ull << 24;
    static constexpr std::uint64_t VALIDATOR_REGISTRY_LIMIT = 1ull << 40;
    static constexpr std::uint64_t MAX_PROPOSER_SLASHINGS = 16;
    static constexpr std::uint64_t MAX_ATTESTER_SLASHINGS = 2;
    static constexpr std::uint64_t MAX_ATTESTATIONS = 128;
    static constexpr std::uint64_t MAX_DEPOSITS = 16;
    static constexpr std::uint64_t MAX_VOLUNTARY_EXITS = 16;
    static constexpr std::uint64_t MIN_SEED_LOOKAHEAD = 1;  // sizes fulu's proposer_lookahead

    // altair (presets/minimal/altair.yaml)
    static constexpr std::uint64_t SYNC_COMMITTEE_SIZE = 32;

    // bellatrix (presets/minimal/bellatrix.yaml)
    static constexpr std::uint64_t MAX_BYTES_PER_TRANSACTION = 1ull << 30;
    static constexpr std::uint64_t MAX_TRANSACTIONS_PER_PAYLOAD = 1ull << 20;
    static constexpr std::uint64_t BYTES_PER_LOGS_BLOOM = 256;
    static constexpr std::uint64_t MAX_EXTRA_DATA_BYTES = 32;

    // capella (presets/minimal/capella.yaml)
    static constexpr std::uint64_t MAX_BLS_TO_EXECUTION_CHANGES = 16;
    static constexpr std::uint64_t MAX_WITHDRAWALS_PER_PAYLOAD = 4;

    // deneb (presets/minimal/deneb.yaml)
    static constexpr std::uint64_t FIELD_ELEMENTS_PER_BLOB = 4096;
    static constexpr std::uint64_t MAX_BLOB_COMMITMENTS_PER_BLOCK = 4096;
    static constexpr std::uint64_t KZG_COMMITMENT_INCLUSION_PROOF_DEPTH = 17;

    // electra (presets/minimal/electra.yaml)
    static constexpr std::uint64_t PENDING_DEPOSITS_LIMIT = 1ull << 27;
    static constexpr std::uint64_t PENDING_PARTIAL_WITHDRAWALS_LIMIT = 64;
    static constexpr std::uint64_t PENDING_CONSOLIDATIONS_LIMIT = 64;
    static constexpr std::uint64_t MAX_ATTESTER_SLASHINGS_ELECTRA = 1;
    static constexpr std::uint64_t MAX_ATTESTATIONS_ELECTRA = 8;
    static constexpr std::uint64_t MAX_DEPOSIT_REQUESTS_PER_PAYLOAD = 8192;
    static constexpr std::uint64_t MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD = 16;
    static constexpr std::uint64_t MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD = 2;

    // fulu (presets/minimal/fulu.yaml)
    static constexpr std::uint64_t KZG_COMMITMENTS_INCLUSION_PROOF_DEPTH = 4;
    static constexpr std::uint64_t FIELD_ELEMENTS_PER_CELL = 64;
    static constexpr std::uint64_t FIELD_ELEMENTS_PER_EXT_BLOB = 8192;
    static constexpr std::uint64_t CELLS_PER_EXT_BLOB = 128;
    static constexpr std::uint64_t NUMBER_OF_COLUMNS = 128;
};

}  // namespace keel::beacon
