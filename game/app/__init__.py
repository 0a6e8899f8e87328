"""The window: the only package that imports pygame.

``game.app.loop`` owns the window and the scene stack, ``game.app.worker`` runs the AI
away from the frame loop, ``game.app.scenes`` holds the screens and ``game.app.tree`` the
tree overlay.  Nothing is imported here, so importing a submodule costs only that module.
"""
