"""One cog per game, plus the lobby: slash commands and components -> service calls."""
