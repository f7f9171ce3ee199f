"""The engine: jobs, scheduler, GPU gate, placement and the Library facade; knows nothing of Qt."""
