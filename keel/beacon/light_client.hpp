#pragma once
/// Light-client sync-protocol containers (consensus-specs specs/altair/light-client/
/// sync-protocol.md, and capella/deneb's light-client/sync-protocol.md for the header with the
/// execution payload header, and electra's for the deeper branches), altair through fulu. They
/// are templates on the preset, the LightClientHeader of the fork and the branch depths; the
/// aliases at the end name each fork's set. The branch depths are floorlog2 of the generalized
/// indices of the fields in the fork's BeaconState: electra's state has more than 32 fields,
/// which adds one level.

#include <string_view>
#include <tuple>

#include "keel/beacon/altair.hpp"
#include "keel/beacon/capella.hpp"
#include "keel/beacon/common_types.hpp"
#include "keel/beacon/deneb.hpp"
#include "keel/beacon/presets.hpp"
#include "keel/ssz/ssz.hpp"

namespace keel::beacon::light_client {

/// floorlog2(CURRENT_SYNC_COMMITTEE_GINDEX = 54) and floorlog2(NEXT_SYNC_COMMITTEE_GINDEX = 55).
inline constexpr std::size_t kSyncCommitteeBranchDepth = 5;
/// floorlog2(FINALIZED_ROOT_GINDEX = 105).
inline constexpr std::size_t kFinalityBranchDepth = 6;
/// floorlog2(EXECUTION_PAYLOAD_GINDEX = 25) (capella).
inline constexpr std::size_t kExecutionBranchDepth = 4;
/// electra/light-client/sync-protocol.md: floorlog2(CURRENT_SYNC_COMMITTEE_GINDEX_ELECTRA = 86)
/// and floorlog2(NEXT_SYNC_COMMITTEE_GINDEX_ELECTRA = 87).
inline constexpr std::size_t kSyncCommitteeBranchDepthElectra = 6;
/// floorlog2(FINALIZED_ROOT_GINDEX_ELECTRA = 169).
inline constexpr std::size_t kFinalityBranchDepthElectra = 7;

/// LightClientHeader (altair, bellatrix): the beacon block header only.
struct AltairHeader {
    phase0::BeaconBlockHeader beacon;

    static constexpr std::string_view ssz_name = "LightClientHeader";
    static constexpr auto ssz_fields() {
        using T = AltairHeader;
        return std::tuple{ssz::field("beacon", &T::beacon)};
    }
};

/// LightClientHeader (capella, deneb): the beacon header, the fork's execution payload header
/// and its branch against the body root.
template <class ExecutionHeader>
struct ExecutionHeaderOf {
    phase0::BeaconBlockHeader beacon;
    ExecutionHeader execution;
    ssz::Vector<Bytes32, kExecutionBranchDepth> execution_branch;

    static constexpr std::string_view ssz_name = "LightClientHeader";
    static constexpr auto ssz_fields() {
        using T = ExecutionHeaderOf;
        return std::tuple{ssz::field("beacon", &T::beacon), ssz::field("execution", &T::execution),
                          ssz::field("execution_branch", &T::execution_branch)};
    }
};

/// LightClientBootstrap: a trusted header and its current sync committee with proof.
template <class P, class Header, std::size_t SyncDepth = kSyncCommitteeBranchDepth>
struct LightClientBootstrap {
    Header header;
    altair::SyncCommittee<P> current_sync_committee;
    ssz::Vector<Bytes32, SyncDepth> current_sync_committee_branch;

    static constexpr std::string_view ssz_name = "LightClientBootstrap";
    static constexpr auto ssz_fields() {
        using T = LightClientBootstrap;
        return std::tuple{
            ssz::field("header", &T::header),
            ssz::field("current_sync_committee", &T::current_sync_committee),
            ssz::field("current_sync_committee_branch", &T::current_sync_committee_branch)};
    }
};

/// LightClientUpdate: an attested header, the next sync committee, the finalized header, and the
/// sync aggregate that signed them.
template <class P, class Header, std::size_t SyncDepth = kSyncCommitteeBranchDepth,
          std::size_t FinalityDepth = kFinalityBranchDepth>
struct LightClientUpdate {
    Header attested_header;
    altair::SyncCommittee<P> next_sync_committee;
    ssz::Vector<Bytes32, SyncDepth> next_sync_committee_branch;
    Header finalized_header;
    ssz::Vector<Bytes32, FinalityDepth> finality_branch;
    altair::SyncAggregate<P> sync_aggregate;
    Slot signature_slot = 0;

    static constexpr std::string_view ssz_name = "LightClientUpdate";
    static constexpr auto ssz_fields() {
        using T = LightClientUpdate;
        return std::tuple{ssz::field("attested_header", &T::attested_header),
                          ssz::field("next_sync_committee", &T::next_sync_committee),
                          ssz::field("next_sync_committee_branch", &T::next_sync_committee_branch),
                          ssz::field("finalized_header", &T::finalized_header),
                          ssz::field("finality_branch", &T::finality_branch),
                          ssz::field("sync_aggregate", &T::sync_aggregate),
                          ssz::field("signature_slot", &T::signature_slot)};
    }
};

/// LightClientFinalityUpdate: an update without the next sync committee.
template <class P, class Header, std::size_t FinalityDepth = kFinalityBranchDepth>
struct LightClientFinalityUpdate {
    Header attested_header;
    Header finalized_header;
    ssz::Vector<Bytes32, FinalityDepth> finality_branch;
    altair::SyncAggregate<P> sync_aggregate;
    Slot signature_slot = 0;

    static constexpr std::string_view ssz_name = "LightClientFinalityUpdate";
    static constexpr auto ssz_fields() {
        using T = LightClientFinalityUpdate;
        return std::tuple{ssz::field("attested_header", &T::attested_header),
                          ssz::field("finalized_header", &T::finalized_header),
                          ssz::field("finality_branch", &T::finality_branch),
                          ssz::field("sync_aggregate", &T::sync_aggregate),
                          ssz::field("signature_slot", &T::signature_slot)};
    }
};

/// LightClientOptimisticUpdate: an attested header and its sync aggregate.
template <class P, class Header>
struct LightClientOptimisticUpdate {
    Header attested_header;
    altair::SyncAggregate<P> sync_aggregate;
    Slot signature_slot = 0;

    static constexpr std::string_view ssz_name = "LightClientOptimisticUpdate";
    static constexpr auto ssz_fields() {
        using T = LightClientOptimisticUpdate;
        return std::tuple{ssz::field("attested_header", &T::attested_header),
                          ssz::field("sync_aggregate", &T::sync_aggregate),
                          ssz::field("signature_slot", &T::signature_slot)};
    }
};

/// LightClientUpdatesByRange (specs/altair/light-client/p2p-interface.md,
/// "LightClientUpdatesByRange"): the request for the updates of sync committee periods
/// [start_period, start_period + count). The same in every fork from altair on.
struct LightClientUpdatesByRange {
    std::uint64_t start_period = 0;
    std::uint64_t count = 0;

    static constexpr std::string_view ssz_name = "LightClientUpdatesByRange";
    static constexpr auto ssz_fields() {
        using T = LightClientUpdatesByRange;
        return std::tuple{ssz::field("start_period", &T::start_period),
                          ssz::field("count", &T::count)};
    }
};

/// The light-client containers of one fork: `Types<P, Header>::Update`, ...
template <class P, class Header, std::size_t SyncDepth = kSyncCommitteeBranchDepth,
          std::size_t FinalityDepth = kFinalityBranchDepth>
struct Types {
    using LightClientHeader = Header;
    using LightClientBootstrap = light_client::LightClientBootstrap<P, Header, SyncDepth>;
    using LightClientUpdate = light_client::LightClientUpdate<P, Header, SyncDepth, FinalityDepth>;
    using LightClientFinalityUpdate =
        light_client::LightClientFinalityUpdate<P, Header, FinalityDepth>;
    using LightClientOptimisticUpdate = light_client::LightClientOptimisticUpdate<P, Header>;
};

/// altair and bellatrix light-client containers of preset P.
template <class P>
using Altair = Types<P, AltairHeader>;
/// capella light-client containers of preset P.
template <class P>
using Capella = Types<P, ExecutionHeaderOf<capella::ExecutionPayloadHeader<P>>>;
/// deneb light-client containers of preset P.
template <class P>
using Deneb = Types<P, ExecutionHeaderOf<deneb::ExecutionPayloadHeader<P>>>;
/// electra (and fulu) light-client containers of preset P: deneb's header (the execution payload
/// header did not change), deeper sync committee and finality branches.
template <class P>
using Electra = Types<P, ExecutionHeaderOf<deneb::ExecutionPayloadHeader<P>>,
                      kSyncCommitteeBranchDepthElectra, kFinalityBranchDepthElectra>;

}  // namespace keel::beacon::light_client
