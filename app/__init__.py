"""Sidecar: subtitles for videos and a searchable index for images, next to the files."""

__version__ = "0.1.0"
