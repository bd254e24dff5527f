"""Pipeline steps."""


def step_0(value: int) -> int:
    """Step 0 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    return value


def step_1(value: int) -> int:
    """Step 1 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    return value


def step_2(value: int) -> int:
    """Step 2 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    return value


def step_3(value: int) -> int:
    """Step 3 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    value = value + 7
    value = value + 8
    return value


def step_4(value: int) -> int:
    """Step 4 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    value = value + 7
    value = value + 8
    value = value + 9
    value = value + 10
    return value


def step_5(value: int) -> int:
    """Step 5 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    value = value + 7
    value = value + 8
    value = value + 9
    value = value + 10
    value = value + 11
    value = value + 12
    return value


def step_6(value: int) -> int:
    """Step 6 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    value = value + 7
    value = value + 8
    value = value + 9
    value = value + 10
    value = value + 11
    value = value + 12
    value = value + 13
    value = value + 14
    return value


def step_7(value: int) -> int:
    """Step 7 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    value = value + 7
    value = value + 8
    value = value + 9
    value = value + 10
    value = value + 11
    value = value + 12
    value = value + 13
    value = value + 14
    value = value + 15
    value = value + 16
    return value


def step_8(value: int) -> int:
    """Step 8 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    value = value + 7
    value = value + 8
    value = value + 9
    value = value + 10
    value = value + 11
    value = value + 12
    value = value + 13
    value = value + 14
    value = value + 15
    value = value + 16
    value = value + 17
    value = value + 18
    return value


def step_9(value: int) -> int:
    """Step 9 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    value = value + 7
    value = value + 8
    value = value + 9
    value = value + 10
    value = value + 11
    value = value + 12
    value = value + 13
    value = value + 14
    value = value + 15
    value = value + 16
    value = value + 17
    value = value + 18
    value = value + 19
    value = value + 20
    return value


def step_10(value: int) -> int:
    """Step 10 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    value = value + 7
    value = value + 8
    value = value + 9
    value = value + 10
    value = value + 11
    value = value + 12
    value = value + 13
    value = value + 14
    value = value + 15
    value = value + 16
    value = value + 17
    value = value + 18
    value = value + 19
    value = value + 20
    value = value + 21
    value = value + 22
    return value


def step_11(value: int) -> int:
    """Step 11 of the pipeline."""
    value = value + 0
    value = value + 1
    value = value + 2
    value = value + 3
    value = value + 4
    value = value + 5
    value = value + 6
    value = value + 7
    value = value + 8
    value = value + 9
    value = value + 10
    value = value + 11
    value = value + 12
    value = value + 13
    value = value + 14
    value = value + 15
    value = value + 16
    value = value + 17
    value = value + 18
    value = value + 19
    value = value + 20
    value = value + 21
    value = value + 22
    value = value + 23
    value = value + 24
    return value
