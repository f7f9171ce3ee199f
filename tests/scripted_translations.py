"""Human Chinese translations of the test clips' sentences, for scripted translation servers.

A scripted server must answer what a good model would: real Chinese that says what the line
says, or the translation quality estimate (rightly) rejects it. Whisper may cut a sentence
into several cues (or mishear a word), so the text is translated clause by clause: each clause
(split at . , ! ?) is recognised by the key words Whisper hears reliably and answered with the
human translation of every part it holds.
"""

from __future__ import annotations

import re

#: (key words any of which identifies the clause, its Chinese translation); first match wins.
CLAUSES: tuple[tuple[tuple[str, ...], str], ...] = (
    # tests.media.ENGLISH_SENTENCES
    (("submarine",), "黄色潜水艇缓缓穿过平静的海洋"),
    (("chocolate", "grandmother", "cookies"), "我奶奶每个星期天下午都烤巧克力饼干"),
    (("library",), "图书馆因为冬季风暴提前关门"),
    (("elephant",), "七头大象中午走过尘土飞扬的村庄"),
    (("tomato", "water the"), "请记得给花园里的番茄浇水"),
    (("london", "platform"), "去伦敦的火车从九号站台出发"),
    (("egypt", "teacher"), "我们的老师讲解了古埃及的历史"),
    (("guitar",), "一把小吉他放在厨房的桌子上"),
    (("snowman", "carrot"), "孩子们堆了一个胡萝卜鼻子的雪人"),
    (("listening", "thank you"), "感谢您收听这段简短的录音"),
    (("sentence one", "sentence 1"), "第一句"), (("sentence two", "sentence 2"), "第二句"),
    (("sentence three", "sentence 3"), "第三句"), (("sentence four", "sentence 4"), "第四句"),
    (("sentence five", "sentence 5"), "第五句"), (("sentence six", "sentence 6"), "第六句"),
    (("sentence seven", "sentence 7"), "第七句"), (("sentence eight", "sentence 8"), "第八句"),
    (("sentence nine", "sentence 9"), "第九句"), (("sentence ten", "sentence 10"), "第十句"),
    # tests.media.GERMAN_TEXT
    (("berlin", "zug"), "明天我们坐火车去柏林"),
    (("kaffee", "milch"), "下午我喜欢喝加牛奶的咖啡"),
    (("zeitung",), "看报纸"),
    (("wetter", "schön"), "今天天气很好"),
    (("park", "zusammen"), "我们一起去公园"),
    (("guten morgen",), "早上好"),
)


def _has(text: str, key: str) -> bool:
    """``key`` at a word start, and a number not followed by more digits ("sentence 1" is not in "sentence 10")."""
    return re.search(r"(?<!\w)" + re.escape(key) + (r"(?!\d)" if key[-1].isdigit() else ""), text) is not None


#: The German half of tests/data/speech/english-then-german.ogg (FLEURS de 001-004), clause by clause,
#: with a human English translation: (key words, English).
GERMAN_CLAUSES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("griff",), "It also attacked everything"),
    (("wasser",), "that came into the water"),
    (("dinosaurier", "t-rex", "gewachsen"), "even a big dinosaur like T. rex was no match for it"),
    (("film", "tempelritter", "vermächtnis"), "If you have seen the film National Treasure"),
    (("denken sie", "vielleicht"), "you may think"),
    (("rückseite",), "that on the back of the"),  # Whisper may end a cue here, inside the clause
    (("schatzkarte", "unabhängigkeitserklärung"), "Declaration of Independence a treasure map was drawn"),
    (("männer", "frauen"), "Many men and women are still alive"),
    (("überlebt",), "who survived their time here"),
    (("angehörigen", "weitere"), "and many more with relatives"),
    (("ermordet", "tode"), "who were murdered there or worked themselves to death"),
    (("juden", "gleichermaßen"), "Jews and non-Jews alike"),
    (("höhle", "spitze"), "The cave is at the top of one of the mountains"),
    (("mekka", "nördlich", "nötlich"), "north of Mecca"),
    (("isoliert", "rest der welt"), "and is completely isolated from the rest of the world"),
)


#: The English half of tests/data/speech/english-then-german.ogg (FLEURS en 000-004), clause by clause, with a
#: German translation written by hand for these tests: (key words, German).
ENGLISH_CLAUSES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("however",), "Allerdings"),
    (("communication", "channels"), "aufgrund der langsamen Kommunikationswege"),
    (("styles", "west"), "konnten Stile im Westen"),
    (("lag", "25", "30 year"), "um 25 bis 30 Jahre hinterherhinken"),
    (("nouns",), "Alle Substantive"),
    (("the word", "for you"), "einschließlich des Wortes Sie für die höfliche Anrede"),
    (("capital", "begin with"), "beginnen immer mit einem Großbuchstaben"),
    (("middle",), "sogar mitten im Satz"),
    (("north", "easy reach"), "Im Norden und leicht zu erreichen"),
    (("romantic", "fascinating", "town of"), "liegt die romantische und faszinierende Stadt Sintra"),
    (("famous", "foreigners"), "die bei Ausländern berühmt wurde"),
    (("glowing", "splendo", "byron", "recorded"), "nach einem begeisterten Bericht Lord Byrons über ihre Pracht"),
    (("cabbage",), "Der Kohlsaft ändert seine Farbe"),
    (("depending", "acidic", "alkaline", "chemical"), "je nachdem, wie sauer oder basisch die Chemikalie ist"),
    (("many people", "dinosaurs"), "Viele Menschen halten sie nicht für Dinosaurier"),
    (("feathers", "fly"), "weil sie Federn haben und fliegen können"),
)


def _by_clause(text: str, clauses: tuple[tuple[tuple[str, ...], str], ...], joiner: str, end: str) -> str | None:
    """``text`` answered clause by clause from ``clauses``, or None when a clause of three words or more is unknown."""
    out: list[str] = []
    for clause in (c.strip() for c in re.split(r"[.,!?;:]", text)):
        if not clause:
            continue
        low = " ".join(clause.lower().split())
        found = [answer for keys, answer in clauses if any(_has(low, k) for k in keys)]
        if not found:
            if len(clause.split()) <= 2:
                continue  # a stray word ("and", "the") carries nothing to translate
            return None
        out += [answer for answer in found if answer not in out]
    return joiner.join(out) + end if out else None


def to_chinese(text: str) -> str | None:
    """The clause-by-clause Chinese of a line of the test clips, or None when a clause is unknown."""
    return _by_clause(text, CLAUSES, "，", "。")


def to_german(text: str) -> str | None:
    """The clause-by-clause German of a line of the English real-speech reading, or None when a clause is unknown."""
    return _by_clause(text, ENGLISH_CLAUSES, ", ", ".")


def to_english(text: str) -> str | None:
    """The clause-by-clause English of a line of the German real-speech reading, or None when a clause is unknown."""
    return _by_clause(text, GERMAN_CLAUSES, ", ", ".")
