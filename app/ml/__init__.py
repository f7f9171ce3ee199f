"""Model runtimes (run in child processes), the model catalogue and downloads."""
