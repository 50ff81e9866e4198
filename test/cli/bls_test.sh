#!/usr/bin/env bash
# Usage: bls_test.sh PATH_TO_KEEL VECTORS_DIR. `keel bls ...` on the official
# ethereum/bls12-381-tests vectors (sign, verify, aggregate, fast_aggregate_verify), KeyGen on
# EIP-2333's seeds, batch-verify on a file built from the sign vectors (valid, and with one
# signature swapped), and every bad-input path with its exact one-line message and exit code.
set -uo pipefail
shopt -s extglob
keel=${1:?usage: bls_test.sh PATH_TO_KEEL VECTORS_DIR}
vectors=${2:?usage: bls_test.sh PATH_TO_KEEL VECTORS_DIR}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$(dirname "$0")/lib.sh"
v="$vectors/bls/ethereum-bls12-381-tests/v0.1.2"

# field FILE KEY: the hex string value of "KEY" in a one-line vector file (first occurrence).
field() { grep -o "\"$2\": \"0x[0-9a-f]*\"" "$1" | head -1 | sed -E 's/.*"(0x[0-9a-f]*)"/\1/'; }
# output FILE: the vector's "output" (a hex string, true, false or null).
output() { sed -E 's/.*"output": "?([^"}]*)"?}.*/\1/' "$1"; }
# list FILE KEY: the hex strings of the list "KEY" (or of "input" when it is a list), one a line.
list() { sed -E "s/.*\"$2\": \[([^]]*)\].*/\1/" "$1" | grep -o '0x[0-9a-f]*'; }

# expect_exact NAME WANT_RC WANT_STDOUT WANT_STDERR -- ARGS...: exit code, stdout and stderr all
# equal (stderr one line).
expect_exact() {
    local name=$1 want_rc=$2 want_out=$3 want_err=$4
    shift 5
    run_keel "$@"
    local why=""
    [[ $rc == "$want_rc" ]] || why+=" exit $rc (want $want_rc)"
    [[ "$out" == "$want_out" ]] || why+=" stdout '$out' (want '$want_out')"
    [[ "$err" == "$want_err" ]] || why+=" stderr '$err' (want '$want_err')"
    if [[ -z "$why" ]]; then pass; else fail "$name:$why"; fi
}

# sign: every case with a key gives the expected signature; pubkey + verify accept it.
for f in "$v"/sign/sign_case_*.json; do
    name=$(basename "$f" .json)
    [[ $name == sign_case_zero_privkey ]] && continue
    sk=$(field "$f" privkey) msg=$(field "$f" message) want=$(output "$f")
    expect "$name" 0 "$want" "" -- bls sign "$sk" "$msg"
    run_keel bls pubkey "$sk"
    pk=$out
    [[ $rc == 0 && $pk =~ ^0x[0-9a-f]{96}$ ]]
    check "$name-pubkey" $? "exit $rc '$pk' $err"
    expect "$name-verify" 0 valid "" -- bls verify "$pk" "$msg" "$want"
done
expect_exact sign-zero-privkey 1 "" "keel: bls sign: secret key: is zero" -- \
    bls sign "$(field "$v/sign/sign_case_zero_privkey.json" privkey)" 0xabab

# verify: true cases print valid (exit 0); false cases print invalid (exit 1) or, where a point
# does not decode, name the argument and the rule (exit 1).
for f in "$v"/verify/*.json; do
    name=$(basename "$f" .json)
    pk=$(field "$f" pubkey) msg=$(field "$f" message) sig=$(field "$f" signature)
    case $name in
        verify_infinity_pubkey_and_infinity_signature)
            expect_exact "$name" 1 "" "keel: bls verify: public key: public key is the point at infinity" \
                -- bls verify "$pk" "$msg" "$sig" ;;
        *)
            if [[ $(output "$f") == true ]]; then
                expect_exact "$name" 0 valid "" -- bls verify "$pk" "$msg" "$sig"
            else
                run_keel bls verify "$pk" "$msg" "$sig"
                [[ $rc == 1 && ( ($out == invalid && $err == "keel: bls verify: the signature does not verify") ||
                    ($out == "" && $err == "keel: bls verify: signature: "*) ) ]]
                check "$name" $? "exit $rc '$out' '$err'"
            fi ;;
    esac
done
# A valid signature under another key: invalid. The official tampered signatures do not decode.
wrong="$v/verify/verify_wrong_pubkey_case_195246ee3bd3b6ec.json"
expect_exact verify-wrong-pubkey 1 invalid "keel: bls verify: the signature does not verify" -- \
    bls verify "$(field "$wrong" pubkey)" "$(field "$wrong" message)" "$(field "$wrong" signature)"
tampered="$v/verify/verify_tampered_signature_case_195246ee3bd3b6ec.json"
expect_exact verify-tampered 1 "" "keel: bls verify: signature: x is not on the curve" -- \
    bls verify "$(field "$tampered" pubkey)" "$(field "$tampered" message)" "$(field "$tampered" signature)"

# aggregate: the official cases with signatures.
for f in "$v"/aggregate/aggregate_0x*.json "$v"/aggregate/aggregate_single_signature.json \
    "$v"/aggregate/aggregate_infinity_signature.json; do
    mapfile -t sigs < <(list "$f" input)
    expect "$(basename "$f" .json)" 0 "$(output "$f")" "" -- bls aggregate "${sigs[@]}"
done
expect_exact aggregate-none 2 "" \
    "keel: signatures is required (see keel --help)" -- bls aggregate

# fast-aggregate-verify: valid, tampered and extra-key cases.
for f in "$v"/fast_aggregate_verify/fast_aggregate_verify_{valid,tampered,extra}*.json; do
    name=$(basename "$f" .json)
    mapfile -t pks < <(list "$f" pubkeys)
    msg=$(field "$f" message) sig=$(field "$f" signature)
    run_keel bls fast-aggregate-verify "$msg" "$sig" "${pks[@]}"
    if [[ $(output "$f") == true ]]; then
        [[ $rc == 0 && $out == valid && -z $err ]]
    else
        [[ $rc == 1 && ( ($out == invalid && $err == "keel: bls fast-aggregate-verify: the signature does not verify") ||
            ($out == "" && $err == "keel: bls fast-aggregate-verify: signature: "*) ) ]]
    fi
    check "$name" $? "exit $rc '$out' '$err'"
done
f="$v/fast_aggregate_verify/fast_aggregate_verify_infinity_pubkey.json"
mapfile -t pks < <(list "$f" pubkeys)
expect_exact fast-aggregate-verify-infinity-pubkey 1 "" \
    "keel: bls fast-aggregate-verify: public key ${#pks[@]} of ${#pks[@]}: public key is the point at infinity" \
    -- bls fast-aggregate-verify "$(field "$f" message)" "$(field "$f" signature)" "${pks[@]}"
expect_exact fast-aggregate-verify-no-keys 2 "" \
    "keel: pubkeys is required (see keel --help)" -- bls fast-aggregate-verify 0xab "$sig"

# keygen: EIP-2333's seeds give its master keys; the printed public key is pubkey's.
seed0=0xc55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04
sk0=0x0d7359d57963ab8fbbde1852dcf553fedbc31f464d80ee7d40ae683122b45070
sk1=0x41c9e07822b092a93fd6797396338c3ada4170cc81829fdfce6b5d34bd5e7ec7
run_keel bls pubkey "$sk0"
pk0=$out
expect keygen-eip2333-0 0 "{\"secret_key\":\"$sk0\",\"public_key\":\"$pk0\"}" "" -- bls keygen "$seed0"
run_keel bls pubkey "$sk1"
expect keygen-eip2333-1 0 "{\"secret_key\":\"$sk1\",\"public_key\":\"$out\"}" "" -- \
    bls keygen 0x3141592653589793238462643383279502884197169399375105820974944592
printf '%s' "${seed0#0x}" | xxd -r -p >"$tmp/seed.bin"
expect keygen-file 0 "{\"secret_key\":\"$sk0\",\"public_key\":\"$pk0\"}" "" -- bls keygen "@$tmp/seed.bin"
# Standard input holds raw bytes (the seed has NULs, so no $STDIN here).
out=$("$keel" bls keygen - <"$tmp/seed.bin" 2>"$tmp/err"); rc=$?
[[ $rc == 0 && $out == "{\"secret_key\":\"$sk0\",\"public_key\":\"$pk0\"}" ]]
check keygen-stdin $? "exit $rc '$out' $(cat "$tmp/err")"
# Without IKM: fresh keys from the OS, different each run, self-consistent.
run_keel bls keygen
first=$out
re='^\{"secret_key":"(0x[0-9a-f]{64})","public_key":"(0x[0-9a-f]{96})"\}$'
[[ $rc == 0 && $first =~ $re ]]
check keygen-random $? "exit $rc '$first' $err"
rsk=${BASH_REMATCH[1]} rpk=${BASH_REMATCH[2]}
expect keygen-random-pubkey 0 "$rpk" "" -- bls pubkey "$rsk"
run_keel bls keygen
[[ $rc == 0 && $out != "$first" ]]
check keygen-random-differs $? "exit $rc '$out'"
run_keel bls sign "$rsk" 0x1234
expect keygen-random-sign-verify 0 valid "" -- bls verify "$rpk" 0x1234 "$out"

# batch-verify: a file of every sign vector (valid), then with set 2's signature swapped for set
# 3's (invalid: set 2 is the first bad one).
make_batch() {  # make_batch OUT SWAP(0|1)
    local i=0 sep="" f sk msg sig pk
    local -a sigs=()
    for f in "$v"/sign/sign_case_*.json; do
        [[ $f == *zero_privkey* ]] && continue
        sigs+=("$(output "$f")")
    done
    {
        printf '['
        for f in "$v"/sign/sign_case_*.json; do
            [[ $f == *zero_privkey* ]] && continue
            sk=$(field "$f" privkey) msg=$(field "$f" message) sig=${sigs[$i]}
            pk=$("$keel" bls pubkey "$sk")
            [[ $2 == 1 && $i == 2 ]] && sig=${sigs[3]}
            printf '%s{"pubkey": "%s", "message": "%s", "signature": "%s"}' "$sep" "$pk" "$msg" "$sig"
            sep=", " i=$((i + 1))
        done
        printf ']\n'
    } >"$1"
}
make_batch "$tmp/batch.json" 0
make_batch "$tmp/bad.json" 1
n=$(grep -o '"pubkey"' "$tmp/batch.json" | wc -l)
run_keel bls batch-verify "$tmp/batch.json"
[[ $rc == 0 && $out =~ ^valid:\ $n\ sets\ in\ [0-9.]+\ ms$ && -z $err ]]
check batch-valid $? "exit $rc '$out' '$err'"
STDIN=$(cat "$tmp/batch.json") run_keel bls batch-verify -
[[ $rc == 0 && $out == "valid: $n sets in "* ]]
check batch-valid-stdin $? "exit $rc '$out' '$err'"
run_keel bls batch-verify "$tmp/bad.json"
[[ $rc == 1 && $out == invalid &&
    $err =~ ^keel:\ bls\ batch-verify:\ set\ 2\ does\ not\ verify\ \($n\ sets,\ [0-9.]+\ ms\)$ ]]
check batch-invalid $? "exit $rc '$out' '$err'"
# The official batch_verify cases.
for f in "$v"/batch_verify/*.json; do
    name=$(basename "$f" .json)
    mapfile -t pks < <(list "$f" pubkeys)
    mapfile -t msgs < <(list "$f" messages)
    mapfile -t sgs < <(list "$f" signatures)
    {
        printf '['
        for i in "${!pks[@]}"; do
            ((i > 0)) && printf ','
            printf '{"pubkey":"%s","message":"%s","signature":"%s"}' "${pks[$i]}" "${msgs[$i]}" "${sgs[$i]}"
        done
        printf ']'
    } >"$tmp/$name.json"
    run_keel bls batch-verify "$tmp/$name.json"
    if [[ $(output "$f") == true ]]; then
        [[ $rc == 0 && $out == "valid: ${#pks[@]} sets in "* ]]
    else
        [[ $rc == 1 && (($out == invalid && $err == "keel: bls batch-verify: "*"does not verify"*) ||
            ($out == "" && $err == "keel: bls batch-verify: set "*": "@(pubkey|signature)": "*)) ]]
    fi
    check "$name" $? "exit $rc '$out' '$err'"
done

# Bad input: one line naming the argument and the rule; exit 1 (bad data) or 2 (usage).
good_sk=$(field "$v/sign/sign_case_11b8c7cad5238946.json" privkey)
good_pk=$pk0
good_sig=$(output "$v/sign/sign_case_11b8c7cad5238946.json")
not_g1=0x$(sed -E 's/.*"pubkey": "([0-9a-f]*)".*/\1/' "$v/deserialization_G1/deserialization_fails_not_in_G1.json")
not_curve_g1=0x$(sed -E 's/.*"pubkey": "([0-9a-f]*)".*/\1/' "$v/deserialization_G1/deserialization_fails_not_in_curve.json")
not_g2=0x$(sed -E 's/.*"signature": "([0-9a-f]*)".*/\1/' "$v/deserialization_G2/deserialization_fails_not_in_G2.json")
expect_exact keygen-short-ikm 1 "" "keel: bls keygen: IKM: 31 bytes, want at least 32" -- \
    bls keygen "0x$(printf '01%.0s' {1..31})"
expect_exact keygen-bad-hex 2 "" \
    "keel: bls keygen: IKM: invalid hex digit at offset 2 (give hex, @file or -)" -- bls keygen 0xzz
expect_exact keygen-missing-file 2 "" \
    "keel: bls keygen: IKM: cannot read $tmp/nope: No such file or directory" -- bls keygen "@$tmp/nope"
expect_exact pubkey-short 1 "" "keel: bls pubkey: secret key: 31 bytes, want 32" -- \
    bls pubkey "0x$(printf '01%.0s' {1..31})"
expect_exact pubkey-zero 1 "" "keel: bls pubkey: secret key: is zero" -- \
    bls pubkey "0x$(printf '00%.0s' {1..32})"
expect_exact pubkey-order 1 "" "keel: bls pubkey: secret key: is not below the group order r" -- \
    bls pubkey 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
expect_exact pubkey-none 2 "" "keel: secret_key is required (see keel --help)" -- bls pubkey
expect_exact sign-long-key 1 "" "keel: bls sign: secret key: 33 bytes, want 32" -- \
    bls sign "0x$(printf '01%.0s' {1..33})" 0x00
expect_exact sign-bad-message 2 "" \
    "keel: bls sign: message: odd number of hex digits at offset 5 (give hex, @file or -)" -- bls sign "$good_sk" 0x123
expect_exact verify-pubkey-length 1 "" "keel: bls verify: public key: 47 bytes, want 48 or 96" -- \
    bls verify "${good_pk:0:96}" 0x00 "$good_sig"
expect_exact verify-pubkey-not-in-g1 1 "" \
    "keel: bls verify: public key: point is not in the prime-order subgroup" -- \
    bls verify "$not_g1" 0x00 "$good_sig"
expect_exact verify-pubkey-not-on-curve 1 "" "keel: bls verify: public key: x is not on the curve" -- \
    bls verify "$not_curve_g1" 0x00 "$good_sig"
expect_exact verify-pubkey-flag 1 "" \
    "keel: bls verify: public key: compression flag does not match the length" -- \
    bls verify "0x0${good_pk:3}" 0x00 "$good_sig"
expect_exact verify-signature-length 1 "" "keel: bls verify: signature: 95 bytes, want 96 or 192" -- \
    bls verify "$good_pk" 0x00 "${good_sig:0:192}"
expect_exact verify-signature-not-in-g2 1 "" \
    "keel: bls verify: signature: point is not in the prime-order subgroup" -- \
    bls verify "$good_pk" 0x00 "$not_g2"
expect_exact verify-missing-arg 2 "" "keel: signature is required (see keel --help)" -- \
    bls verify "$good_pk" 0x00
expect_exact aggregate-bad-second 1 "" \
    "keel: bls aggregate: signature 2 of 3: point is not in the prime-order subgroup" -- \
    bls aggregate "$good_sig" "$not_g2" "$good_sig"
expect_exact fav-bad-pubkey 1 "" \
    "keel: bls fast-aggregate-verify: public key 2 of 2: 47 bytes, want 48 or 96" -- \
    bls fast-aggregate-verify 0x00 "$good_sig" "$good_pk" "${good_pk:0:96}"
expect_exact fav-bad-signature 1 "" \
    "keel: bls fast-aggregate-verify: signature: 1 bytes, want 96 or 192" -- \
    bls fast-aggregate-verify 0x00 0x00 "$good_pk"

# batch-verify's bad files: each names the set, the field and the rule.
batch_err() {  # batch_err NAME WANT_RC CONTENT WANT_STDERR
    printf '%s' "$3" >"$tmp/$1.json"
    expect_exact "batch-$1" "$2" "" "$4" -- bls batch-verify "$tmp/$1.json"
}
set0=$(sed -E 's/^\[(\{[^}]*\}).*/\1/' "$tmp/batch.json")
sig0=$(field "$tmp/batch.json" signature)
batch_err not-json 1 '[{' "keel: bls batch-verify: $tmp/not-json.json: not valid JSON at line 1, column 3 (offset 2): syntax error while parsing object key - unexpected end of input; expected string literal"
printf '[\n  {"pubkey": "0x00",,\n' >"$tmp/not-json-2.json"
run_keel bls batch-verify "$tmp/not-json-2.json"
expect_result batch-not-json-position 1 exact "" "not valid JSON at line 2, column 21 (offset 22)"
batch_err not-list 1 '{}' \
    "keel: bls batch-verify: $tmp/not-list.json: want a JSON list of {\"pubkey\", \"message\", \"signature\"} objects"
batch_err empty 1 '[]' "keel: bls batch-verify: $tmp/empty.json: no signature sets"
batch_err not-object 1 "[$set0, 3]" \
    "keel: bls batch-verify: set 1: want an object with pubkey, message and signature"
batch_err missing 1 "[$set0, $set0, {\"pubkey\": \"$good_pk\", \"message\": \"0x\"}]" \
    "keel: bls batch-verify: set 2: signature: missing"
batch_err not-string 1 "[{\"pubkey\": 5, \"message\": \"0x\", \"signature\": \"$sig0\"}]" \
    "keel: bls batch-verify: set 0: pubkey: want a hex string"
batch_err bad-hex 1 "[$set0, {\"pubkey\": \"$good_pk\", \"message\": \"0xabc\", \"signature\": \"$sig0\"}]" \
    "keel: bls batch-verify: set 1: message: odd number of hex digits at offset 5"
batch_err not-in-g2 1 "[$set0, $set0, $set0, {\"pubkey\": \"$good_pk\", \"message\": \"0x\", \"signature\": \"$not_g2\"}]" \
    "keel: bls batch-verify: set 3: signature: point is not in the prime-order subgroup"
batch_err bad-pubkey 1 "[{\"pubkey\": \"$not_curve_g1\", \"message\": \"0x\", \"signature\": \"$sig0\"}]" \
    "keel: bls batch-verify: set 0: pubkey: x is not on the curve"
expect_exact batch-missing-file 2 "" \
    "keel: bls batch-verify: cannot read $tmp/nope.json: No such file or directory" -- \
    bls batch-verify "$tmp/nope.json"
# Standard input is read once: a second "-" is bad usage (it used to read nothing and sign an
# empty message).
STDIN=x expect_exact sign-stdin-twice 2 "" \
    "keel: bls sign: message: standard input (-) is already read for bls sign: secret key; give this one as hex or @file" -- \
    bls sign - -
# An empty message is legal (RFC 9380 hashes it; hash_to_G2 has a vector for msg ""): signed
# and verified like any other, from hex and from an empty file alike.
run_keel bls sign "$good_sk" 0x
empty_sig=$out
[[ $rc == 0 && ${#empty_sig} == 194 ]]
check sign-empty-message $? "exit $rc: $out $err"
: >"$tmp/empty.bin"
expect sign-empty-file 0 "$empty_sig" "" -- bls sign "$good_sk" "@$tmp/empty.bin"
STDIN= expect sign-empty-stdin 0 "$empty_sig" "" -- bls sign "$good_sk" -
good_sk_pk=$("$keel" bls pubkey "$good_sk")
expect verify-empty-message 0 valid "" -- bls verify "$good_sk_pk" 0x "$empty_sig"
expect verify-empty-message-other 1 invalid "verify" -- bls verify "$good_sk_pk" 0x00 "$empty_sig"
expect_exact bls-no-subcommand 2 "" \
    "keel: A subcommand is required (see keel --help)" -- bls

finish bls_test
