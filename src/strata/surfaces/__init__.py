"""The ways in: command line, HTTP, MCP and the web page, each thin over `strata.Engine`."""
