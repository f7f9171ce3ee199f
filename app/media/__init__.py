"""Media building blocks: audio extraction, cue building, subtitle rendering, naming.

Everything here is pure Python plus PyAV/pysubs2; nothing imports Qt, the store or a
model runtime, so the stages (and tests) can compose these freely.
"""
