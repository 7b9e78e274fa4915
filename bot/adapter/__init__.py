"""The Discord adapter: the client, components, panels, turn messages and the error handler.

It turns clicks and slash commands into calls on :mod:`bot.core` and presents the results.
"""
