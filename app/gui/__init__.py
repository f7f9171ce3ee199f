"""The desktop GUI (PySide6). It depends on the engine through ``facade.EngineFacade`` only; nothing below ``app.gui`` imports it."""
