"""The screens of the game; each is a ``game.scene.Scene``."""
