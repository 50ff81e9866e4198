// SPDX-License-Identifier: Apache-2.0
// keel devnet: an ERC-721-style collection anyone may mint from, one token per call.
pragma solidity ^0.8.28;

contract Nft {
    mapping(uint256 => address) public ownerOf;
    mapping(address => uint256) public balanceOf;
    mapping(uint256 => bytes32) public traits;
    uint256 public totalSupply;

    event Transfer(address indexed from, address indexed to, uint256 indexed id);

    function mint(address to) external returns (uint256 id) {
        id = ++totalSupply;
        ownerOf[id] = to;
        balanceOf[to] += 1;
        traits[id] = keccak256(abi.encode(to, id, block.prevrandao));
        emit Transfer(address(0), to, id);
    }

    function transferFrom(address from, address to, uint256 id) external {
        require(ownerOf[id] == from && from == msg.sender, "owner");
        ownerOf[id] = to;
        balanceOf[from] -= 1;
        balanceOf[to] += 1;
        emit Transfer(from, to, id);
    }
}
