"""The screens of the game; each is a ``game.app.scene.Scene``, and none imports another
(shared drawing and sentences live in helper modules: ``board_panel``, ``play_text``)."""
