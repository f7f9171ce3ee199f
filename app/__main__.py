"""``python -m app``, the ``sidecar`` command and the frozen executable's entry point.

The ``sidecar`` script that pip writes calls :func:`main` here, not ``app.cli.main``:
importing the CLI imports the whole engine (~1 s on two cores), and ``sidecar run``
starts its Whisper host before that (issue 36: installed, the spare was never started).
"""

import sys


def main() -> int:
    from app.startup import prepare_process

    # Before freeze_support: a spawned model-host child of the frozen app needs stdio and
    # (on Windows) the runtimes' DLL folders too, and becomes that child inside freeze_support.
    prepare_process()

    import multiprocessing

    # The child is this executable run with ``--multiprocessing-fork``: it must take that
    # path before anything reads sys.argv.
    multiprocessing.freeze_support()

    if sys.argv[1:2] == ["run"]:
        # `sidecar run` transcribes first, as a rule: its Whisper host spawns and imports
        # faster-whisper now, beside this process importing the engine, not after it (issue 24).
        from app.ml.clients import WHISPER_PRELOAD, WHISPER_RUNTIME
        from app.ml.host import start_spare

        start_spare(WHISPER_RUNTIME, WHISPER_PRELOAD)

    from app.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())
