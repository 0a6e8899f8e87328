"""The game on the desktop: its menu entry, icons and AppStream metainfo (``install``)."""
