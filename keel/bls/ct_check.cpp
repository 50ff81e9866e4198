// Constant-time check of the secret-key operations under valgrind's memcheck (CTest
// bls_constant_time runs this program with --error-exitcode=1). The secret key's bytes are
// marked undefined; memcheck then reports every conditional jump and every memory address that
// depends on them. The results (public key, signature) are public, so they are marked defined
// again before anything looks at them. Run natively it only checks that the values are right.
// Valgrind's CPU does not report ADX, so this checks the portable Fp multiplication; the
// MULX/ADX one (fp.hpp) is straight-line assembly with no branch or address to depend on.
#include <valgrind/memcheck.h>

#include <cstdio>

#include "keel/bls/g1.hpp"
#include "keel/bls/g2.hpp"
#include "keel/bls/signature.hpp"

int main() {
    using namespace keel;
    using namespace keel::bls;
    auto sk = SecretKey::key_gen(Bytes(32, 0x5a));
    if (!sk) return 2;
    const Scalar secret = sk->scalar();
    Scalar poisoned = secret;
    VALGRIND_MAKE_MEM_UNDEFINED(&poisoned, sizeof poisoned);

    // SkToPk: [sk]G1.
    G1Jacobian pk = g1_generator().mul_ct(poisoned);
    VALGRIND_MAKE_MEM_DEFINED(&pk, sizeof pk);

    // Sign: [sk]H(m), H(m) public, by the GLS multiplication Sign uses; and mul_ct on G2.
    const Bytes msg(32, 0x33);
    const G2Jacobian h = hash_to_g2(msg);
    G2Jacobian sig = g2_mul_gls_ct(h, poisoned);
    VALGRIND_MAKE_MEM_DEFINED(&sig, sizeof sig);
    G2Jacobian sig_ct = h.mul_ct(poisoned);
    VALGRIND_MAKE_MEM_DEFINED(&sig_ct, sizeof sig_ct);

    // The results equal the library's own (unpoisoned) computations.
    const bool ok = pk.to_affine() == sk->public_key().point() &&
                    sig.to_affine() == sign(*sk, msg).point() && sig == sig_ct &&
                    verify(sk->public_key(), msg, Signature::from_point(sig.to_affine()));
    std::printf("%s\n", ok ? "ok" : "mismatch");
    return ok ? 0 : 1;
}
