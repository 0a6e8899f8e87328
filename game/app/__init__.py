"""The window: the only package that imports pygame.

``game.app.loop`` owns the window and the scene stack; ``game.app.scenes`` holds the
screens and ``game.app.tree`` the tree overlay.  A scene sees the App only through
``game.app.scene.SceneHost`` and asks to go elsewhere with a typed request
(``game.app.navigation``), which the App's router (``game.app.router``) turns into a
scene: no scene imports the loop or another scene.  ``game.app.worker`` runs the AI away
from the frame loop; it and the worker's side (``game.app.worker_jobs``) share only
``game.app.worker_protocol``.  Nothing is imported here, so importing a submodule costs
only that module.
"""
