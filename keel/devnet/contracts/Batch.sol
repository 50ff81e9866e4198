// SPDX-License-Identifier: Apache-2.0
// keel devnet: the code an EOA delegates to with EIP-7702. Run in the EOA's own account, payout()
// sends `amount` wei from it to `count` addresses derived from (the EOA, seed, i): new accounts.
pragma solidity ^0.8.28;

contract Batch {
    event Payout(uint256 indexed seed, uint256 count, uint256 amount);

    function payout(uint256 seed, uint256 count, uint256 amount) external {
        require(msg.sender == address(this), "owner");
        for (uint256 i = 0; i < count; ++i) {
            address to = address(uint160(uint256(keccak256(abi.encode(address(this), seed, i)))));
            (bool ok,) = to.call{value: amount}("");
            require(ok, "send");
        }
        emit Payout(seed, count, amount);
    }
}
