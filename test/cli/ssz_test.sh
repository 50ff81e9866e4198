#!/usr/bin/env bash
# Usage: ssz_test.sh PATH_TO_KEEL VECTORS_DIR. `keel ssz root` and `keel ssz block-root` on the
# official and real mainnet vectors (roots from their meta.yaml / roots.yaml), a signed block
# made from a real one, `keel ssz decode` / `keel ssz encode` (JSON) both ways, and the one-line
# errors with their exit codes.
set -uo pipefail
keel=${1:?usage: ssz_test.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: ssz_test.sh PATH_TO_KEEL VECTORS_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"
blocks="$vectors/ssz/mainnet_blocks"

# Every real mainnet block: the root is the canonical block root; the fork comes from the slot.
while IFS=$'\t' read -r fork dir _ _ _ _ _ root; do
    [[ $fork == fork ]] && continue
    expect "block-root-$dir" 0 "$root" "" -- ssz block-root "$blocks/$fork/$dir/block.ssz"
done <"$blocks/INDEX.tsv"

# A SignedBeaconBlock around the deneb block (offset 100, a 96-byte signature): same root.
deneb="$blocks/deneb/slot_11378687/block.ssz"
{ printf '\x64\x00\x00\x00'; head -c 96 /dev/zero; cat "$deneb"; } >"$tmp/signed.ssz"
expect signed-block-root 0 "0x452eb0df043bab8ec645217e50a04ff6bc18ba9898468643e44a186b97bb94f1" "" \
    -- ssz block-root --repeat 3 "$tmp/signed.ssz"
expect block-root-forced-fork 1 "" "ssz block-root:" -- ssz block-root --fork bellatrix "$deneb"

# ssz root on official ssz_static cases (snappy block files).
for t in deneb/SignedBeaconBlock capella/BeaconState bellatrix/ExecutionPayload; do
    case="$vectors/ssz/ssz_static/mainnet/$t/ssz_random/case_0"
    want=$(sed -E "s/.*'(0x[0-9a-f]+)'.*/\1/" "$case/roots.yaml")
    expect "root-${t/\//-}" 0 "$want" "" -- ssz root --type "${t/\//.}" "$case/serialized.ssz_snappy"
done

# Errors: one line, exit 1 (bad data) or 2 (usage).
head -c 1000 "$deneb" >"$tmp/cut.ssz"
expect truncated 1 "" "ssz root: $tmp/cut.ssz: ssz: BeaconBlock" -- ssz root --type deneb.BeaconBlock "$tmp/cut.ssz"
expect unknown-type 2 "" "unknown type 'deneb.Nope'" -- ssz root --type deneb.Nope "$deneb"
# The type is checked before the input is read: a bad name wins over a missing file.
expect unknown-type-first 2 "" "keel: ssz root: unknown type 'fulu.Nope': Nope is not a fulu container" -- ssz root --type fulu.Nope "$tmp/none.ssz"
expect unknown-fork-type 2 "" "unknown type 'gloas.BeaconBlock' (expected <fork>.<Type>" -- ssz root --type gloas.BeaconBlock "$deneb"
expect no-dot-type 2 "" "unknown type 'BeaconBlock'" -- ssz decode --type BeaconBlock "$deneb"
expect bad-preset 2 "" "--preset" -- ssz root --type deneb.BeaconBlock --preset tiny "$deneb"
expect too-short 1 "" "too short for a beacon block" -- ssz block-root /dev/null
expect bad-fork 2 "" "unknown fork 'merge'" -- ssz block-root --fork merge "$deneb"
printf 'not snappy' >"$tmp/x.ssz_snappy"
expect bad-snappy 1 "" "x.ssz_snappy" -- ssz root --type deneb.BeaconBlock "$tmp/x.ssz_snappy"

# expect_exact NAME WANT_RC WANT_STDERR -- ARGS...: exit code, empty stdout, and stderr equal to
# WANT_STDERR (one line).
expect_exact() {
    local name=$1 want_rc=$2 want_err=$3
    shift 4
    run_keel "$@"
    local why=""
    [[ $rc == "$want_rc" ]] || why+=" exit $rc (want $want_rc)"
    [[ -z "$out" ]] || why+=" stdout '$out'"
    [[ "$err" == "$want_err" ]] || why+=" stderr '$err' (want '$want_err')"
    if [[ -z "$why" ]]; then pass; else fail "$name:$why"; fi
}

# hex_of FILE: its bytes as 0x-hex.
hex_of() { printf '0x%s' "$(od -An -v -tx1 "$1" | tr -d ' \n')"; }

# ssz decode / encode: every real block goes to one line of JSON and back to the same bytes.
while IFS=$'\t' read -r fork dir _ _ _ _ _ _; do
    [[ $fork == fork ]] && continue
    block="$blocks/$fork/$dir/block.ssz"
    run_keel ssz decode --type "$fork.BeaconBlock" "$block"
    printf '%s\n' "$out" >"$tmp/$dir.json"
    [[ $rc == 0 && "$out" == '{"slot":"'"${dir#slot_}"'",'* && $(wc -l <"$tmp/$dir.json") == 1 ]]
    check "decode-$dir" $? "exit $rc, $(head -c 100 <<<"$out") $err"
    expect "encode-$dir" 0 "" "" -- ssz encode --type "$fork.BeaconBlock" "$tmp/$dir.json" \
        --out "$tmp/$dir.ssz"
    cmp -s "$block" "$tmp/$dir.ssz"
    check "encode-$dir-same-bytes" $?
done <"$blocks/INDEX.tsv"

# --pretty: indented, and encodes to the same bytes; JSON on standard input.
run_keel ssz decode --pretty --type deneb.BeaconBlock "$deneb"
printf '%s\n' "$out" >"$tmp/pretty.json"
[[ $rc == 0 && $(wc -l <"$tmp/pretty.json") -gt 1000 && "$out" == '{'$'\n''  "slot": "11378687",'* ]]
check decode-pretty $? "exit $rc $err"
expect encode-pretty 0 "" "" -- ssz encode --type deneb.BeaconBlock "$tmp/pretty.json" \
    --out "$tmp/pretty.ssz"
cmp -s "$deneb" "$tmp/pretty.ssz"
check encode-pretty-same-bytes $?

# A snappy ssz_static state: decode, encode, and the root of the result is the official one.
case="$vectors/ssz/ssz_static/mainnet/capella/BeaconState/ssz_random/case_0"
want=$(sed -E "s/.*'(0x[0-9a-f]+)'.*/\1/" "$case/roots.yaml")
run_keel ssz decode --type capella.BeaconState "$case/serialized.ssz_snappy"
printf '%s' "$out" >"$tmp/state.json"
check decode-state $rc "$err"
expect encode-state 0 "" "" -- ssz encode --type capella.BeaconState "$tmp/state.json" \
    --out "$tmp/state.ssz"
expect encode-state-root 0 "$want" "" -- ssz root --type capella.BeaconState "$tmp/state.ssz"

# Small values, both presets: hex on stdout without --out.
head -c 40 "$deneb" >"$tmp/cp.ssz"
cp_json='{"epoch":"11378687","root":"0x3955130000000000663c1c7324b757120ded349256377339721f588378e544a3"}'
expect decode-checkpoint 0 "$cp_json" "" -- ssz decode --type deneb.Checkpoint "$tmp/cp.ssz"
printf '%s' "$cp_json" >"$tmp/cp.json"
expect encode-checkpoint 0 "$(hex_of "$tmp/cp.ssz")" "" \
    -- ssz encode --type deneb.Checkpoint --preset minimal "$tmp/cp.json"
STDIN=$cp_json expect encode-stdin 0 "$(hex_of "$tmp/cp.ssz")" "" -- ssz encode --type deneb.Checkpoint -
printf '{"root":"0x%s","epoch":1}' "$(printf 'AB%.0s' {1..32})" >"$tmp/cp-upper.json"
expect encode-upper-hex-number 0 "0x0100000000000000$(printf 'ab%.0s' {1..32})" "" \
    -- ssz encode --type electra.Checkpoint "$tmp/cp-upper.json"

# Bad input: one exact line, exit 1 (bad data) or 2 (usage); nothing written to --out.
f="$tmp/bad.json"
printf '{"epoch":"1","root":"0xzz%s"}' "$(printf '00%.0s' {1..31})" >"$f"
expect_exact bad-hex 1 "keel: ssz encode: $f: json: Checkpoint.root: invalid hex digit 'z' at character 2" \
    -- ssz encode --type deneb.Checkpoint "$f" --out "$tmp/never.ssz"
[[ ! -e "$tmp/never.ssz" ]]
check bad-hex-no-output $?
printf '{"epoch":"1","root":"%s"}' "$(printf '00%.0s' {1..32})" >"$f"
expect_exact missing-0x 1 "keel: ssz encode: $f: json: Checkpoint.root: hex string \"$(printf '00%.0s' {1..32})\" lacks the 0x prefix" \
    -- ssz encode --type deneb.Checkpoint "$f"
printf '{"epoch":"1"}' >"$f"
expect_exact missing-field 1 "keel: ssz encode: $f: json: Checkpoint.root: missing field" \
    -- ssz encode --type deneb.Checkpoint "$f"
printf '{"epoch":"1","root":"0x%064d","epoh":"2"}' 0 >"$f"
expect_exact unknown-field 1 "keel: ssz encode: $f: json: Checkpoint.epoh: unknown field (Checkpoint has no field of that name)" \
    -- ssz encode --type deneb.Checkpoint "$f"
printf '{"epoch":"18446744073709551616","root":"0x%064d"}' 0 >"$f"
expect_exact uint64-range 1 "keel: ssz encode: $f: json: Checkpoint.epoch: \"18446744073709551616\" is out of range for uint64" \
    -- ssz encode --type deneb.Checkpoint "$f"
printf '{"attesting_indices":[%s],"data":{"slot":"0","index":"0","beacon_block_root":"0x%064d","source":{"epoch":"0","root":"0x%064d"},"target":{"epoch":"0","root":"0x%064d"}},"signature":"0x%0192d"}' \
    "$(seq -s, 0 2048)" 0 0 0 0 >"$f"
expect_exact over-limit 1 "keel: ssz encode: $f: json: IndexedAttestation.attesting_indices: list of 2049 elements is longer than its limit 2048" \
    -- ssz encode --type phase0.IndexedAttestation "$f"
printf '{"epoch": "1", "root": }' >"$f"
expect_exact json-syntax 1 "keel: ssz encode: $f: json: parse error at line 1, column 24: syntax error while parsing value - unexpected '}'; expected '[', '{', or a literal" \
    -- ssz encode --type deneb.Checkpoint "$f"
expect_exact encode-unknown-type 2 "keel: ssz encode: unknown type 'deneb.Nope': Nope is not a deneb container" \
    -- ssz encode --type deneb.Nope "$f"
expect_exact decode-unknown-type 2 "keel: ssz decode: unknown type 'deneb.Nope': Nope is not a deneb container" \
    -- ssz decode --type deneb.Nope "$deneb"

# Containers the registry lacked: electra's AggregateAndProof (electra Attestation inside) and
# fulu's; JSON in, SSZ out, root of that.
agg='{"aggregator_index":"7","aggregate":{"aggregation_bits":"0x0d","data":{"slot":"1","index":"0","beacon_block_root":"0x'"$(printf '11%.0s' {1..32})"'","source":{"epoch":"0","root":"0x'"$(printf '22%.0s' {1..32})"'"},"target":{"epoch":"1","root":"0x'"$(printf '33%.0s' {1..32})"'"}},"signature":"0x'"$(printf '44%.0s' {1..96})"'","committee_bits":"0x0100000000000000"},"selection_proof":"0x'"$(printf '55%.0s' {1..96})"'"}'
printf '%s' "$agg" >"$tmp/agg.json"
run_keel ssz encode --type electra.AggregateAndProof "$tmp/agg.json" --out "$tmp/agg.ssz"
check electra-aggregate-encode $rc "$err"
run_keel ssz root --type electra.AggregateAndProof "$tmp/agg.ssz"
[[ $rc == 0 && "$out" =~ ^0x[0-9a-f]{64}$ ]]; check electra-aggregate-root $? "exit $rc $out $err"
run_keel ssz decode --type electra.AggregateAndProof "$tmp/agg.ssz"
[[ $rc == 0 && "$out" == "$agg" ]]; check electra-aggregate-decode $? "exit $rc $out $err"
# phase0's layout (no committee_bits) is not electra's.
expect deneb-aggregate-is-not-electra 1 "" "ssz decode: $tmp/agg.ssz: ssz: AggregateAndProof" \
    -- ssz decode --type deneb.AggregateAndProof "$tmp/agg.ssz"
printf '{"block_root":"0x%064d","columns":["0","5","127"]}' 0 >"$tmp/ids.json"
expect fulu-by-root-ids 0 "0x$(printf '%064d' 0)24000000000000000000000005000000000000007f00000000000000" "" \
    -- ssz encode --type fulu.DataColumnsByRootIdentifier "$tmp/ids.json"
# Networking payloads, JSON in and SSZ out, with bytes and roots worked out here: fulu's
# MetaData v3 (seq 7, attnets subnets 0 and 63, syncnets subnet 2, custody groups 128) and
# Status v2. Roots: sha256 over the field chunks (sha256sum), four leaves for MetaData, eight
# for StatusV2.
h() { printf '%s%s' "$1" "$2" | xxd -r -p | sha256sum | cut -c1-64; }
chunk() { local c="$1$(printf '%064d' 0)"; printf '%s' "${c:0:64}"; }
printf '{"seq_number":"7","attnets":"0x0100000000000080","syncnets":"0x04","custody_group_count":"128"}' >"$tmp/md.json"
md_hex=07000000000000000100000000000080048000000000000000
expect fulu-metadata-encode 0 "0x$md_hex" "" -- ssz encode --type fulu.MetaData "$tmp/md.json"
printf '%s' "$md_hex" | xxd -r -p >"$tmp/md.ssz"
md_root=$(h "$(h "$(chunk 07)" "$(chunk 0100000000000080)")" "$(h "$(chunk 04)" "$(chunk 80)")")
expect fulu-metadata-root 0 "0x$md_root" "" -- ssz root --type fulu.MetaData --preset minimal "$tmp/md.ssz"
expect altair-metadata-is-not-fulu 1 "" "ssz: MetaData" -- ssz root --type altair.MetaData "$tmp/md.ssz"
r11=$(printf '11%.0s' {1..32}) r22=$(printf '22%.0s' {1..32})
printf '{"fork_digest":"0xb5303f2a","finalized_root":"0x%s","finalized_epoch":"3","head_root":"0x%s","head_slot":"100","earliest_available_slot":"64"}' \
    "$r11" "$r22" >"$tmp/status.json"
st_hex=b5303f2a${r11}0300000000000000${r22}64000000000000004000000000000000
expect fulu-status-v2-encode 0 "0x$st_hex" "" -- ssz encode --type fulu.StatusV2 "$tmp/status.json"
printf '%s' "$st_hex" | xxd -r -p >"$tmp/status.ssz"
z=$(chunk 00)
st_root=$(h "$(h "$(h "$(chunk b5303f2a)" "$r11")" "$(h "$(chunk 03)" "$r22")")" \
    "$(h "$(h "$(chunk 64)" "$(chunk 40)")" "$(h "$z" "$z")")")
expect fulu-status-v2-root 0 "0x$st_root" "" -- ssz root --type fulu.StatusV2 "$tmp/status.ssz"
expect status-v1-is-not-v2 1 "" "ssz: Status" -- ssz root --type fulu.Status "$tmp/status.ssz"
expect fulu-status-v2-decode 0 "$(cat "$tmp/status.json")" "" -- ssz decode --type fulu.StatusV2 "$tmp/status.ssz"
expect_exact decode-truncated 1 "keel: ssz decode: $tmp/cut.ssz: ssz: BeaconBlock.body.deposits: offset 38536 is past the end 916 at offset 296" \
    -- ssz decode --type deneb.BeaconBlock "$tmp/cut.ssz"
# A mainnet SyncAggregate (512 bits) is not a minimal one (32 bits).
head -c 160 /dev/zero >"$tmp/sync.ssz"
expect decode-sync-mainnet 0 '{"sync_committee_bits":"0x'"$(printf '00%.0s' {1..64})"'","sync_committee_signature":"0x'"$(printf '00%.0s' {1..96})"'"}' "" \
    -- ssz decode --type deneb.SyncAggregate "$tmp/sync.ssz"
expect_exact decode-wrong-preset 1 "keel: ssz decode: $tmp/sync.ssz: ssz: SyncAggregate: wrong size (160 bytes, expected 100) at offset 0" \
    -- ssz decode --type deneb.SyncAggregate "$tmp/sync.ssz" --preset minimal
expect decode-bad-preset 2 "" "--preset" -- ssz decode --type deneb.Checkpoint --preset tiny "$tmp/cp.ssz"
expect_exact decode-no-file 2 "keel: ssz input: cannot read $tmp/none.ssz: No such file or directory" \
    -- ssz decode --type deneb.Checkpoint "$tmp/none.ssz"
expect_exact encode-no-file 2 "keel: json input: cannot read $tmp/none.json: No such file or directory" \
    -- ssz encode --type deneb.Checkpoint "$tmp/none.json"
expect encode-no-type 2 "" "--type" -- ssz encode "$f"

finish cli_ssz
