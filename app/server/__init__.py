"""``sidecar serve``: Sidecar behind a media server (SPEC §21).

An HTTP server on the engine of this process: whisper-asr-webservice's ``/asr`` and
``/detect-language`` (so Bazarr's ``whisperai`` provider works unchanged), the media
servers' webhooks (Jellyfin, Emby, Plex, Tautulli) that queue a new file, and the
refresh request sent to the server once its subtitle is placed. Every request becomes
a job of the engine's one queue, claimed before folder work; none loads a model of its own.

A layer of its own above the pipelines: the engine never imports it.
"""
