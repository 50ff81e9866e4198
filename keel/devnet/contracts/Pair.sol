// SPDX-License-Identifier: Apache-2.0
// keel devnet: a constant-product market maker (x * y = k, 0.3 % fee) between two ERC-20 tokens,
// in the manner of Uniswap V2's pair, with liquidity shares and swaps pulled by transferFrom.
pragma solidity ^0.8.28;

interface IToken {
    function transfer(address to, uint256 amount) external returns (bool);
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

contract Pair {
    IToken public immutable token0;
    IToken public immutable token1;
    uint112 public reserve0;
    uint112 public reserve1;
    uint32 public lastBlock;
    mapping(address => uint256) public shares;
    uint256 public totalShares;

    event Mint(address indexed provider, uint256 amount0, uint256 amount1, uint256 shares);
    event Swap(address indexed trader, bool zeroForOne, uint256 amountIn, uint256 amountOut, address indexed to);
    event Sync(uint112 reserve0, uint112 reserve1);

    constructor(IToken t0, IToken t1) {
        token0 = t0;
        token1 = t1;
    }

    function addLiquidity(uint256 amount0, uint256 amount1) external returns (uint256 minted) {
        require(token0.transferFrom(msg.sender, address(this), amount0), "pull0");
        require(token1.transferFrom(msg.sender, address(this), amount1), "pull1");
        uint256 total = totalShares;
        if (total == 0) {
            minted = amount0 < amount1 ? amount0 : amount1;
        } else {
            uint256 a = amount0 * total / reserve0;
            uint256 b = amount1 * total / reserve1;
            minted = a < b ? a : b;
        }
        require(minted > 0, "shares");
        shares[msg.sender] += minted;
        totalShares = total + minted;
        _sync(uint256(reserve0) + amount0, uint256(reserve1) + amount1);
        emit Mint(msg.sender, amount0, amount1, minted);
    }

    function swap(bool zeroForOne, uint256 amountIn, uint256 minOut, address to) external returns (uint256 out) {
        (uint256 rIn, uint256 rOut) = zeroForOne ? (uint256(reserve0), uint256(reserve1)) : (uint256(reserve1), uint256(reserve0));
        require(amountIn > 0 && rIn > 0 && rOut > 0, "empty");
        uint256 inWithFee = amountIn * 997;
        out = inWithFee * rOut / (rIn * 1000 + inWithFee);
        require(out >= minOut && out < rOut, "slippage");
        (IToken tIn, IToken tOut) = zeroForOne ? (token0, token1) : (token1, token0);
        require(tIn.transferFrom(msg.sender, address(this), amountIn), "pull");
        require(tOut.transfer(to, out), "push");
        if (zeroForOne) _sync(rIn + amountIn, rOut - out);
        else _sync(rOut - out, rIn + amountIn);
        emit Swap(msg.sender, zeroForOne, amountIn, out, to);
    }

    function _sync(uint256 r0, uint256 r1) private {
        require(r0 <= type(uint112).max && r1 <= type(uint112).max, "overflow");
        reserve0 = uint112(r0);
        reserve1 = uint112(r1);
        lastBlock = uint32(block.number);
        emit Sync(uint112(r0), uint112(r1));
    }
}
