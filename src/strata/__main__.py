"""`python -m strata` runs the CLI."""

from strata.cli import main

main()
