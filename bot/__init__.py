"""The application: a Discord-free core (`bot.core`) and the Discord adapter (`bot.adapter`)."""
