"""One count of a job ("2 failed", "1 not translated") in the windows' language, with the language's plural.

The job row and the job's notice (the tray balloon) say the same counts in the same words.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from app.codes import Code
from app.status_words import ALL_FAILED, FAILED, TO_DECIDE, Count


class JobCounts(QObject):
    """The words' translation context (lupdate takes a count's plural forms only from a class's ``self.tr``)."""

    def words(self, count: Count) -> str:
        n = count.n
        if count.what == ALL_FAILED:
            return self.tr("all %n failed", "", n)
        if count.what == FAILED:
            return self.tr("%n failed", "", n)
        if count.what == TO_DECIDE:
            return self.tr("%n to decide", "", n)
        if count.what == Code.TRANSLATION_FAILED:
            return self.tr("%n not translated", "", n)
        if count.what == Code.TRANSLATION_DOUBTFUL:
            return self.tr("%n translation(s) to check", "", n)
        return count.english()  # a counted code this window has no plural for yet


def count_words(count: Count) -> str:
    """``count`` in the windows' language; a counted code without words here yet reads as ``status`` prints it."""
    return JobCounts().words(count)
