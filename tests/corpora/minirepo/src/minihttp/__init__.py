"""A tiny HTTP client used as Strata's test corpus."""

from .client import Client, RetryPolicy
from .headers import parse_header

__all__ = ["Client", "RetryPolicy", "parse_header"]
