"""Header parsing helpers."""


def parse_header(line: str) -> tuple[str, str]:
    """Split one `Name: value` header line into a lowercase name and its value."""
    name, _, value = line.partition(":")
    return name.strip().lower(), value.strip()


def format_cookie(name: str, value: str, max_age: int | None = None) -> str:
    """Render a Set-Cookie header value for a cookie."""
    parts = [f"{name}={value}"]
    if max_age is not None:
        parts.append(f"Max-Age={max_age}")
    return "; ".join(parts)
