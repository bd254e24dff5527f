// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {IERC20} from "./IERC20.sol";
import {Ownable} from "./access/Ownable.sol";

/**
 * @dev A minimal token with a fixed owner.
 */
contract Token is IERC20, Ownable {
    uint256 public constant MAX_SUPPLY = 1_000_000;

    mapping(address => uint256) private _balances;

    event Minted(address indexed to, uint256 amount);

    error SupplyExceeded(uint256 requested);

    struct Grant {
        address to;
        uint256 amount;
    }

    constructor(address owner_) Ownable(owner_) {}

    /**
     * @dev Moves `amount` tokens from the caller to `to`.
     */
    function transfer(address to, uint256 amount) public returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) internal {
        _balances[from] -= amount;
        _balances[to] += amount;
        emit Transfer(from, to, amount);
    }

    modifier onlyMinter() {
        require(msg.sender == owner(), "not minter");
        _;
    }
}

library SafeAdd {
    function add(uint256 a, uint256 b) internal pure returns (uint256) {
        return a + b;
    }
}
