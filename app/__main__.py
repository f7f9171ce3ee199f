"""``python -m app`` and the frozen executable's entry point."""

import sys

if __name__ == "__main__":
    from app.startup import prepare_process

    # Before freeze_support: a spawned model-host child of the frozen app needs stdio and
    # (on Windows) the runtimes' DLL folders too, and becomes that child inside freeze_support.
    prepare_process()

    import multiprocessing

    # The child is this executable run with ``--multiprocessing-fork``: it must take that
    # path before anything reads sys.argv.
    multiprocessing.freeze_support()

    from app.cli import main

    sys.exit(main())
