"""Pure game rules: standard library only (no discord, PIL, aiosqlite or bot imports)."""
