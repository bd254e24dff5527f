"""`python -m strata` runs the CLI."""

from strata.surfaces.cli import main

main()
