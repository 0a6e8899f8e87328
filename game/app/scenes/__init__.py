"""The screens of the game; each is a ``game.app.scene.Scene``."""
