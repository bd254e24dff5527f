"""The index directory and process plumbing: locate, locks, repositories, git, SQLite, memory."""
