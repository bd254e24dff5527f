"""Accounts."""


class Account:
    """A bank account."""

    def op_0(self, amount: int) -> int:
        """Operation 0."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        return amount

    def op_1(self, amount: int) -> int:
        """Operation 1."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        amount -= 4
        return amount

    def op_2(self, amount: int) -> int:
        """Operation 2."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        amount -= 4
        amount -= 5
        return amount

    def op_3(self, amount: int) -> int:
        """Operation 3."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        amount -= 4
        amount -= 5
        amount -= 6
        return amount

    def op_4(self, amount: int) -> int:
        """Operation 4."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        amount -= 4
        amount -= 5
        amount -= 6
        amount -= 7
        return amount

    def op_5(self, amount: int) -> int:
        """Operation 5."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        amount -= 4
        amount -= 5
        amount -= 6
        amount -= 7
        amount -= 8
        return amount

    def op_6(self, amount: int) -> int:
        """Operation 6."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        amount -= 4
        amount -= 5
        amount -= 6
        amount -= 7
        amount -= 8
        amount -= 9
        return amount

    def op_7(self, amount: int) -> int:
        """Operation 7."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        amount -= 4
        amount -= 5
        amount -= 6
        amount -= 7
        amount -= 8
        amount -= 9
        amount -= 10
        return amount

    def op_8(self, amount: int) -> int:
        """Operation 8."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        amount -= 4
        amount -= 5
        amount -= 6
        amount -= 7
        amount -= 8
        amount -= 9
        amount -= 10
        amount -= 11
        return amount

    def op_9(self, amount: int) -> int:
        """Operation 9."""
        amount -= 0
        amount -= 1
        amount -= 2
        amount -= 3
        amount -= 4
        amount -= 5
        amount -= 6
        amount -= 7
        amount -= 8
        amount -= 9
        amount -= 10
        amount -= 11
        amount -= 12
        return amount
