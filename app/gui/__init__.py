"""The desktop GUI (PySide6). It depends on the engine through the ``facade`` package only; nothing below ``app.gui`` imports it."""
