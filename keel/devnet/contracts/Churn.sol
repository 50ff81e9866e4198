// SPDX-License-Identifier: Apache-2.0
// keel devnet: storage-heavy loops. write() stores `count` consecutive slots of a mapping from
// `start` (new slots grow the state, earlier ones are updated); sum() reads them back.
pragma solidity ^0.8.28;

contract Churn {
    mapping(uint256 => uint256) public slots;
    uint256 public writes;

    event Wrote(address indexed by, uint256 start, uint256 count);

    function write(uint256 start, uint256 count) external {
        for (uint256 i = 0; i < count; ++i) {
            uint256 key = start + i;
            slots[key] = slots[key] + (key | 1) * 0x9e3779b97f4a7c15;
        }
        writes += count;
        emit Wrote(msg.sender, start, count);
    }

    function sum(uint256 start, uint256 count) external view returns (uint256 total) {
        for (uint256 i = 0; i < count; ++i) total += slots[start + i];
    }
}
