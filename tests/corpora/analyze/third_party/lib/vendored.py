"""A vendored helper."""


def helper() -> str:
    return "vendored"
