"""Pillow drawings of engine views; never imports discord."""
