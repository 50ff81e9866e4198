#pragma once
/// Test helpers around the process-wide signature algorithm. For tests that link keel::crypto.

#include "keel/crypto/signature.hpp"

namespace keel::testutil {

/// The signature algorithm is process-wide (DESIGN.md §4.3): a test that switches it must put
/// the previous value back before it returns, or later tests run on the wrong curve. This guard
/// does so even when an assertion ends the test early.
class ScopedSignatureAlgorithm {
  public:
    explicit ScopedSignatureAlgorithm(crypto::SignatureAlgorithm a)
        : saved_(crypto::signature_algorithm()) {
        crypto::set_signature_algorithm(a);
    }
    ~ScopedSignatureAlgorithm() { crypto::set_signature_algorithm(saved_); }
    ScopedSignatureAlgorithm(const ScopedSignatureAlgorithm&) = delete;
    ScopedSignatureAlgorithm& operator=(const ScopedSignatureAlgorithm&) = delete;

  private:
    crypto::SignatureAlgorithm saved_;
};

}  // namespace keel::testutil
