"""When a transiently failed stage is tried again: a count of failures and an exponential backoff.

Its own object (procrastinate's ``RetryStrategy``) so the store applies it inside the
failing stage's fenced transaction while the engine decides its numbers
(:class:`app.engine.config.EngineConfig`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RetryPolicy:
    """``max_attempts`` failures end the stage; before that the n-th failure waits ``base·2ⁿ⁻¹`` seconds, at most ``cap``."""

    max_attempts: int = 3
    base: float = 2.0
    cap: float = 60.0

    def retries(self, failures: int) -> bool:
        """Whether a stage that failed ``failures`` times (this one included) runs again."""
        return failures < self.max_attempts

    def delay(self, failures: int) -> float:
        """Seconds before the stage that failed ``failures`` times may be claimed again."""
        return min(self.cap, self.base * (2 ** (failures - 1)))
