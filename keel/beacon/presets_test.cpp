// Every preset constant against the value in consensus-specs v1.6.1 presets/{mainnet,minimal}/
// <fork>.yaml (the numbers below were read from those files, one by one). A constant changed
// since v1.5.0 is marked; the test fails on the old values.
#include "keel/beacon/presets.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string_view>

namespace keel::beacon {
namespace {

struct Pin {
    std::string_view name;
    std::uint64_t got;
    std::uint64_t yaml;
};

void check(std::string_view preset, std::initializer_list<Pin> pins) {
    for (const Pin& p : pins) {
        EXPECT_EQ(p.got, p.yaml) << preset << " " << p.name;
    }
}

#define KEEL_PIN(P, NAME, VALUE) \
    Pin {                        \
        #NAME, P::NAME, VALUE    \
    }

TEST(BeaconPresets, MainnetMatchesV161Yaml) {
    using P = Mainnet;
    EXPECT_EQ(P::kName, "mainnet");
    check("mainnet",
          {// phase0.yaml
           KEEL_PIN(P, MAX_COMMITTEES_PER_SLOT, 64),
           KEEL_PIN(P, MAX_VALIDATORS_PER_COMMITTEE, 2048), KEEL_PIN(P, SLOTS_PER_EPOCH, 32),
           KEEL_PIN(P, MIN_SEED_LOOKAHEAD, 1), KEEL_PIN(P, EPOCHS_PER_ETH1_VOTING_PERIOD, 64),
           KEEL_PIN(P, SLOTS_PER_HISTORICAL_ROOT, 8192),
           KEEL_PIN(P, EPOCHS_PER_HISTORICAL_VECTOR, 65536),
           KEEL_PIN(P, EPOCHS_PER_SLASHINGS_VECTOR, 8192),
           KEEL_PIN(P, HISTORICAL_ROOTS_LIMIT, 16777216),
           KEEL_PIN(P, VALIDATOR_REGISTRY_LIMIT, 1099511627776),
           KEEL_PIN(P, MAX_PROPOSER_SLASHINGS, 16), KEEL_PIN(P, MAX_ATTESTER_SLASHINGS, 2),
           KEEL_PIN(P, MAX_ATTESTATIONS, 128), KEEL_PIN(P, MAX_DEPOSITS, 16),
           KEEL_PIN(P, MAX_VOLUNTARY_EXITS, 16),
           // altair.yaml
           KEEL_PIN(P, SYNC_COMMITTEE_SIZE, 512),
           // bellatrix.yaml
           KEEL_PIN(P, MAX_BYTES_PER_TRANSACTION, 1073741824),
           KEEL_PIN(P, MAX_TRANSACTIONS_PER_PAYLOAD, 1048576),
           KEEL_PIN(P, BYTES_PER_LOGS_BLOOM, 256), KEEL_PIN(P, MAX_EXTRA_DATA_BYTES, 32),
           // capella.yaml
           KEEL_PIN(P, MAX_BLS_TO_EXECUTION_CHANGES, 16),
           KEEL_PIN(P, MAX_WITHDRAWALS_PER_PAYLOAD, 16),
           // deneb.yaml
           KEEL_PIN(P, FIELD_ELEMENTS_PER_BLOB, 4096),
           KEEL_PIN(P, MAX_BLOB_COMMITMENTS_PER_BLOCK, 4096),
           KEEL_PIN(P, KZG_COMMITMENT_INCLUSION_PROOF_DEPTH, 17),
           // electra.yaml
           KEEL_PIN(P, PENDING_DEPOSITS_LIMIT, 134217728),
           KEEL_PIN(P, PENDING_PARTIAL_WITHDRAWALS_LIMIT, 134217728),
           KEEL_PIN(P, PENDING_CONSOLIDATIONS_LIMIT, 262144),
           KEEL_PIN(P, MAX_ATTESTER_SLASHINGS_ELECTRA, 1), KEEL_PIN(P, MAX_ATTESTATIONS_ELECTRA, 8),
           KEEL_PIN(P, MAX_DEPOSIT_REQUESTS_PER_PAYLOAD, 8192),
           KEEL_PIN(P, MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD, 16),
           KEEL_PIN(P, MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD, 2),
           // fulu.yaml (new)
           KEEL_PIN(P, KZG_COMMITMENTS_INCLUSION_PROOF_DEPTH, 4),
           KEEL_PIN(P, FIELD_ELEMENTS_PER_CELL, 64), KEEL_PIN(P, FIELD_ELEMENTS_PER_EXT_BLOB, 8192),
           KEEL_PIN(P, CELLS_PER_EXT_BLOB, 128), KEEL_PIN(P, NUMBER_OF_COLUMNS, 128)});
}

TEST(BeaconPresets, MinimalMatchesV161Yaml) {
    using P = Minimal;
    EXPECT_EQ(P::kName, "minimal");
    check(
        "minimal",
        {// phase0.yaml
         KEEL_PIN(P, MAX_COMMITTEES_PER_SLOT, 4), KEEL_PIN(P, MAX_VALIDATORS_PER_COMMITTEE, 2048),
         KEEL_PIN(P, SLOTS_PER_EPOCH, 8), KEEL_PIN(P, MIN_SEED_LOOKAHEAD, 1),
         KEEL_PIN(P, EPOCHS_PER_ETH1_VOTING_PERIOD, 4), KEEL_PIN(P, SLOTS_PER_HISTORICAL_ROOT, 64),
         KEEL_PIN(P, EPOCHS_PER_HISTORICAL_VECTOR, 64),
         KEEL_PIN(P, EPOCHS_PER_SLASHINGS_VECTOR, 64),
         KEEL_PIN(P, HISTORICAL_ROOTS_LIMIT, 16777216),
         KEEL_PIN(P, VALIDATOR_REGISTRY_LIMIT, 1099511627776),
         KEEL_PIN(P, MAX_PROPOSER_SLASHINGS, 16), KEEL_PIN(P, MAX_ATTESTER_SLASHINGS, 2),
         KEEL_PIN(P, MAX_ATTESTATIONS, 128), KEEL_PIN(P, MAX_DEPOSITS, 16),
         KEEL_PIN(P, MAX_VOLUNTARY_EXITS, 16),
         // altair.yaml
         KEEL_PIN(P, SYNC_COMMITTEE_SIZE, 32),
         // bellatrix.yaml
         KEEL_PIN(P, MAX_BYTES_PER_TRANSACTION, 1073741824),
         KEEL_PIN(P, MAX_TRANSACTIONS_PER_PAYLOAD, 1048576), KEEL_PIN(P, BYTES_PER_LOGS_BLOOM, 256),
         KEEL_PIN(P, MAX_EXTRA_DATA_BYTES, 32),
         // capella.yaml
         KEEL_PIN(P, MAX_BLS_TO_EXECUTION_CHANGES, 16), KEEL_PIN(P, MAX_WITHDRAWALS_PER_PAYLOAD, 4),
         // deneb.yaml: both changed in v1.6.0 (consensus-specs#4508, #4510; were 32 and 10)
         KEEL_PIN(P, FIELD_ELEMENTS_PER_BLOB, 4096),
         KEEL_PIN(P, MAX_BLOB_COMMITMENTS_PER_BLOCK, 4096),
         KEEL_PIN(P, KZG_COMMITMENT_INCLUSION_PROOF_DEPTH, 17),
         // electra.yaml: the deposit and withdrawal request limits are mainnet's since
         // v1.6.0-alpha.0 (were customized to 4 and 2)
         KEEL_PIN(P, PENDING_DEPOSITS_LIMIT, 134217728),
         KEEL_PIN(P, PENDING_PARTIAL_WITHDRAWALS_LIMIT, 64),
         KEEL_PIN(P, PENDING_CONSOLIDATIONS_LIMIT, 64),
         KEEL_PIN(P, MAX_ATTESTER_SLASHINGS_ELECTRA, 1), KEEL_PIN(P, MAX_ATTESTATIONS_ELECTRA, 8),
         KEEL_PIN(P, MAX_DEPOSIT_REQUESTS_PER_PAYLOAD, 8192),
         KEEL_PIN(P, MAX_WITHDRAWAL_REQUESTS_PER_PAYLOAD, 16),
         KEEL_PIN(P, MAX_CONSOLIDATION_REQUESTS_PER_PAYLOAD, 2),
         // fulu.yaml (new)
         KEEL_PIN(P, KZG_COMMITMENTS_INCLUSION_PROOF_DEPTH, 4),
         KEEL_PIN(P, FIELD_ELEMENTS_PER_CELL, 64), KEEL_PIN(P, FIELD_ELEMENTS_PER_EXT_BLOB, 8192),
         KEEL_PIN(P, CELLS_PER_EXT_BLOB, 128), KEEL_PIN(P, NUMBER_OF_COLUMNS, 128)});
}

#undef KEEL_PIN

}  // namespace
}  // namespace keel::beacon
