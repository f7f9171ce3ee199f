"""Language codes and names as subtitle file names spell them (ISO 639-1, 639-2/B and /T, English names).

Media servers and people name subtitles ``Movie.fr.srt``, ``Movie.fre.srt``,
``Movie.fra.srt`` or ``Movie.French.srt``; all of them mean ``fr``. The table below is
ISO 639-2's list of the languages that have a 639-1 code (generated from Debian's
iso-codes, names shortened to the common English name); it is data, kept here once
and read by the naming rules and the translation prompt alike. No dependency ships
it small enough (pycountry and langcodes carry every locale's translations).
"""

from __future__ import annotations

import re

#: ``639-1 [639-2/B] 639-2/T Name[;Other name]``, one language per line.
_TABLE = """\
aa aar Afar
ab abk Abkhazian
af afr Afrikaans
ak aka Akan
am amh Amharic
ar ara Arabic
an arg Aragonese
as asm Assamese
av ava Avaric
ae ave Avestan
ay aym Aymara
az aze Azerbaijani
ba bak Bashkir
bm bam Bambara
be bel Belarusian
bn ben Bengali
bh bih Bihari
bi bis Bislama
bo tib bod Tibetan
bs bos Bosnian
br bre Breton
bg bul Bulgarian
ca cat Catalan;Valencian
cs cze ces Czech
ch cha Chamorro
ce che Chechen
cu chu Church Slavic;Old Slavonic;Church Slavonic;Old Bulgarian;Old Church Slavonic
cv chv Chuvash
kw cor Cornish
co cos Corsican
cr cre Cree
cy wel cym Welsh
da dan Danish
de ger deu German
dv div Divehi;Dhivehi;Maldivian
dz dzo Dzongkha
el gre ell Greek
en eng English
eo epo Esperanto
et est Estonian
eu baq eus Basque
ee ewe Ewe
fo fao Faroese
fa per fas Persian;Farsi
fj fij Fijian
fi fin Finnish
fr fre fra French
fy fry Western Frisian
ff ful Fulah
gd gla Gaelic;Scottish Gaelic
ga gle Irish
gl glg Galician
gv glv Manx
gn grn Guarani
gu guj Gujarati
ht hat Haitian;Haitian Creole
ha hau Hausa
he heb Hebrew
hz her Herero
hi hin Hindi
ho hmo Hiri Motu
hr hrv Croatian
hu hun Hungarian
hy arm hye Armenian
ig ibo Igbo
io ido Ido
ii iii Sichuan Yi;Nuosu
iu iku Inuktitut
ie ile Interlingue;Occidental
ia ina Interlingua
id ind Indonesian
ik ipk Inupiaq
is ice isl Icelandic
it ita Italian
jv jav Javanese
ja jpn Japanese
kl kal Kalaallisut;Greenlandic
kn kan Kannada
ks kas Kashmiri
ka geo kat Georgian
kr kau Kanuri
kk kaz Kazakh
km khm Khmer;Central Khmer
ki kik Kikuyu;Gikuyu
rw kin Kinyarwanda
ky kir Kirghiz;Kyrgyz
kv kom Komi
kg kon Kongo
ko kor Korean
kj kua Kuanyama;Kwanyama
ku kur Kurdish
lo lao Lao
la lat Latin
lv lav Latvian
li lim Limburgan;Limburger;Limburgish
ln lin Lingala
lt lit Lithuanian
lb ltz Luxembourgish;Letzeburgesch
lu lub Luba-Katanga
lg lug Ganda
mh mah Marshallese
ml mal Malayalam
mr mar Marathi
mk mac mkd Macedonian
mg mlg Malagasy
mt mlt Maltese
mn mon Mongolian
mi mao mri Maori
ms may msa Malay
my bur mya Burmese
na nau Nauru
nv nav Navajo;Navaho
nr nbl South Ndebele
nd nde North Ndebele
ng ndo Ndonga
ne nep Nepali
nl dut nld Dutch;Flemish
nn nno Norwegian Nynorsk;Nynorsk
nb nob Norwegian Bokmål;Bokmål
no nor Norwegian
ny nya Chichewa;Chewa;Nyanja
oc oci Occitan;Provençal
oj oji Ojibwa
or ori Oriya
om orm Oromo
os oss Ossetian;Ossetic
pa pan Panjabi;Punjabi
pi pli Pali
pl pol Polish
pt por Portuguese
ps pus Pushto;Pashto
qu que Quechua
rm roh Romansh
ro rum ron Romanian;Moldavian;Moldovan
rn run Rundi
ru rus Russian
sg sag Sango
sa san Sanskrit
si sin Sinhala;Sinhalese
sk slo slk Slovak
sl slv Slovenian
se sme Northern Sami
sm smo Samoan
sn sna Shona
sd snd Sindhi
so som Somali
st sot Southern Sotho
es spa Spanish;Castilian
sq alb sqi Albanian
sc srd Sardinian
sr srp Serbian
ss ssw Swati
su sun Sundanese
sw swa Swahili
sv swe Swedish
ty tah Tahitian
ta tam Tamil
tt tat Tatar
te tel Telugu
tg tgk Tajik
tl tgl Tagalog
th tha Thai
ti tir Tigrinya
to ton Tonga
tn tsn Tswana
ts tso Tsonga
tk tuk Turkmen
tr tur Turkish
tw twi Twi
ug uig Uighur;Uyghur
uk ukr Ukrainian
ur urd Urdu
uz uzb Uzbek
ve ven Venda
vi vie Vietnamese
vo vol Volapük
wa wln Walloon
wo wol Wolof
xh xho Xhosa
yi yid Yiddish
yo yor Yoruba
za zha Zhuang;Chuang
zh chi zho Chinese
zu zul Zulu
"""

#: Names that are not ISO codes but mean a language in subtitle names: region and script
#: tags of Chinese libraries (the ``compat`` preset writes ``Movie.CN.srt``).
_EXTRA = {"cn": "zh", "tw": "zh", "hk": "zh", "chs": "zh", "cht": "zh"}


def _parse(table: str) -> tuple[dict[str, str], dict[str, str]]:
    codes: dict[str, str] = {}
    names: dict[str, str] = {}
    for line in table.splitlines():
        words = line.split(" ")
        n_codes = next(i for i, w in enumerate(words) if not w.islower())
        code = words[0]
        english = " ".join(words[n_codes:]).split(";")
        names[code] = english[0]
        for token in (*words[:n_codes], *english):
            codes[token.lower()] = code
    return codes, names


_CODES, _NAMES = _parse(_TABLE)
_CODES.update(_EXTRA)
_SUBTAG = re.compile(r"[-_]")


def language_of(token: str) -> str | None:
    """The ISO 639-1 code a file-name token stands for, or None when it names no language.

    ``"fre"`` / ``"FRA"`` / ``"French"`` → ``"fr"``; ``"zh-CN"`` / ``"pt_BR"`` / ``"CN_dual_eye"``
    read by their first subtag; ``"Extras"`` → None.
    """
    key = token.strip().lower()
    if key in _CODES:
        return _CODES[key]
    return _CODES.get(_SUBTAG.split(key, maxsplit=1)[0])


def english_name(code: str) -> str | None:
    """The English name of an ISO 639-1 code (``"de"`` → ``"German"``), None for codes outside the table."""
    return _NAMES.get(code)


__all__ = ["english_name", "language_of"]
