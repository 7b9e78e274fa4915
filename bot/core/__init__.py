"""The Discord-free core: the game service, storage, timing, history, ratings and i18n.

Nothing here imports discord or :mod:`bot.adapter` (``tests/test_rooms.py``).
"""
