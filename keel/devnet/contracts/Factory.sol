// SPDX-License-Identifier: Apache-2.0
// keel devnet: contract creation by CREATE and CREATE2, and SELFDESTRUCT both ways EIP-6780
// leaves: a child destroyed in the transaction that created it is deleted; an older one only
// sends its balance away.
pragma solidity ^0.8.28;

contract Child {
    address public immutable creator;
    uint256 public value;

    event Born(address indexed child, uint256 value);

    constructor(uint256 v) payable {
        creator = msg.sender;
        value = v;
        emit Born(address(this), v);
    }

    function destroy(address payable to) external {
        require(msg.sender == creator, "creator");
        selfdestruct(to);
    }
}

contract Factory {
    uint256 public created;
    address public last;

    function create2(bytes32 salt, uint256 v) external payable returns (address child) {
        child = address(new Child{salt: salt, value: msg.value}(v));
        created += 1;
        last = child;
    }

    function create(uint256 v) external payable returns (address child) {
        child = address(new Child{value: msg.value}(v));
        created += 1;
        last = child;
    }

    function createAndDestroy(bytes32 salt, uint256 v) external payable returns (address child) {
        Child c = new Child{salt: salt, value: msg.value}(v);
        c.destroy(payable(msg.sender));
        child = address(c);
        created += 1;
    }

    function destroyLast(address payable to) external {
        Child(last).destroy(to);
    }
}
