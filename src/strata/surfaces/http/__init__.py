"""`strata serve`: the HTTP API (FastAPI under uvicorn) with MCP mounted at `/mcp`."""
