#include "keel/rpc/errors.hpp"

namespace keel::rpc {

RpcError invalid_argument(std::size_t index, const std::string& why) {
    return RpcError{ErrorCode::invalid_params,
                    "invalid argument " + std::to_string(index) + ": " + why};
}

}  // namespace keel::rpc
