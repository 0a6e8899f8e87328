"""The tree overlay: walk the search the computer just made (scene, layout, replay)."""
