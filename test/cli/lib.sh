# Shared by the test/cli scripts (sourced): run the keel command, compare what it printed and
# returned, count passes and failures. The caller sets `keel` (the binary) and `tmp` (a scratch
# directory) first, and ends with `finish NAME`.
passed=0 failed=0

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL $*"; }

# check NAME STATUS [WHY]: passes when STATUS is 0 (e.g. check x $? after a test command).
check() {
    if [[ $2 == 0 ]]; then pass; else fail "$1${3:+: $3}"; fi
}

# run_keel ARGS...: runs keel; sets out, err and rc. Standard input is $STDIN when set, else
# empty.
run_keel() {
    if [[ -n "${STDIN+x}" ]]; then
        out=$(printf '%s' "$STDIN" | "$keel" "$@" 2>"$tmp/err"); rc=$?
    else
        out=$("$keel" "$@" 2>"$tmp/err" </dev/null); rc=$?
    fi
    err=$(cat "$tmp/err")
}

# expect_result NAME WANT_RC OUT_MODE WANT_OUT WANT_ERR: judges the last run_keel. OUT_MODE is
# "exact" (stdout equals WANT_OUT; "*" accepts anything) or "within" (stdout contains it). A
# non-empty WANT_ERR must appear in stderr, which must then be one line starting with "keel:".
expect_result() {
    local name=$1 want_rc=$2 mode=$3 want_out=$4 want_err=$5 why=""
    [[ $rc == "$want_rc" ]] || why+=" exit $rc (want $want_rc)"
    if [[ $mode == exact ]]; then
        [[ "$want_out" == "*" || "$out" == "$want_out" ]] || why+=" stdout '$out' (want '$want_out')"
    else
        [[ "$out" == *"$want_out"* ]] || why+=" stdout '$out' lacks '$want_out'"
    fi
    if [[ -n "$want_err" ]]; then
        [[ "$err" == *"$want_err"* ]] || why+=" stderr '$err' lacks '$want_err'"
        [[ $(printf '%s\n' "$err" | wc -l) == 1 ]] || why+=" stderr is not one line: '$err'"
        [[ "$err" == keel:* ]] || why+=" stderr does not start with 'keel:'"
    fi
    if [[ -z "$why" ]]; then pass; else fail "$name:$why"; fi
}

# expect NAME WANT_RC WANT_STDOUT WANT_STDERR_SUBSTRING -- ARGS...: stdout must equal
# WANT_STDOUT ("*": anything).
expect() {
    local name=$1 want_rc=$2 want_out=$3 want_err=$4
    shift 5
    run_keel "$@"
    expect_result "$name" "$want_rc" exact "$want_out" "$want_err"
}

# expect_in NAME WANT_RC WANT_STDOUT_SUBSTRING WANT_STDERR_SUBSTRING -- ARGS...
expect_in() {
    local name=$1 want_rc=$2 want_out=$3 want_err=$4
    shift 5
    run_keel "$@"
    expect_result "$name" "$want_rc" within "$want_out" "$want_err"
}

# contains NAME NEEDLE -- ARGS...: exit 0 and stdout containing NEEDLE.
contains() {
    local name=$1 needle=$2
    shift 3
    run_keel "$@"
    if [[ $rc == 0 && "$out" == *"$needle"* ]]; then pass; else
        fail "$name: exit $rc, stdout lacks '$needle': $out"; fi
}

# head_of DATADIR: the datadir's head block number, decimal (0 when it has none).
head_of() {
    local n
    n=$("$keel" get block latest --datadir "$1" 2>/dev/null | grep -m1 '"number"' |
        grep -oE '0x[0-9a-f]+' | head -1)
    echo $((${n:-0}))
}
# rlp_len FILE OFFSET: the size of the RLP list header at OFFSET and of its payload ("3 812").
rlp_len() {
    local b
    read -r -a b < <(od -An -tu1 -j "$2" -N4 "$1")
    if ((b[0] >= 0xc0 && b[0] <= 0xf7)); then echo "1 $((b[0] - 0xc0))"
    elif ((b[0] == 0xf8)); then echo "2 ${b[1]}"
    elif ((b[0] == 0xf9)); then echo "3 $((b[1] * 256 + b[2]))"
    else echo "4 $((b[1] * 65536 + b[2] * 256 + b[3]))"; fi
}
# block_at FILE K: the offset of block K in an RLP chain file.
block_at() {
    local off=0 i h p
    for ((i = 0; i < $2; i++)); do
        read -r h p < <(rlp_len "$1" "$off")
        off=$((off + h + p))
    done
    echo "$off"
}
# finish NAME: prints the counts; the exit status is 0 only when nothing failed.
finish() {
    echo "$1: $passed passed, $failed failed"
    ((failed == 0))
}
