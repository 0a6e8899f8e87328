"""The game's words in the player's language (gettext; no pygame, no third-party module).

Every sentence a person reads, in the window or from the command line, goes through ``_``
(or ``ngettext`` where a number decides the form: "1 move", "2 moves"); a word fixed at
import time (a table of names) is marked with ``N_`` and translated where it is shown.
Machine-readable output (``--json``, the engine protocol, board and game files) stays in
English and never passes through here.

The catalogs live in ``game/locale/<lang>/LC_MESSAGES/connect4.mo``, compiled from the
``.po`` files beside them (docs/translating.md).  The language is the one chosen in
Options, or with "system" the first shipped one named by LANGUAGE, LC_ALL, LC_MESSAGES
or LANG (gettext's order); English when none is.  ``set_language`` switches at once:
``_`` reads the current catalog on every call, so a scene that words its text when it
draws speaks the new language on the next frame.

A catalog is data on disk and may be damaged: one that gettext cannot read (cut short,
emptied, text that is not in its charset) means English, said once on stderr; a translated
sentence whose ``{fields}`` differ from the English one is not used, that sentence is said in
English (so a misspelt field in a translation never ends a command in a ``KeyError``).
``CONNECT4_LOCALE_DIR`` points the game at another locale folder (for tests).
"""

from __future__ import annotations

import functools
import gettext
import locale
import os
import string
import sys
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "connect4"
LOCALE_DIR = Path(__file__).parent / "locale"
LOCALE_DIR_ENV = "CONNECT4_LOCALE_DIR"
"""An environment variable naming another locale folder (tests point it at a damaged copy)."""
LANGUAGES = {"en": "English", "de": "Deutsch", "es": "Español"}
"""The shipped languages by code, each named in its own words (the Options row)."""
SYSTEM = "system"
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
_damaged_said: set[str] = set()
"""The catalogs already said to be damaged in this process (each is said once)."""
_catalog_problem: str | None = None


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The shipped language the environment asks for, or "en".

    The first variable of ``ENVIRONMENT`` that is set decides, as in gettext; LANGUAGE
    may list several ("de:en"), the first shipped one wins.  "C" and "POSIX" mean English.
    Where no variable is set (Windows), the system's locale decides.
    """
    environ = os.environ if environ is None else environ
    for name in ENVIRONMENT:
        value = environ.get(name, "")
        if value:
            for part in value.split(":"):
                code = _code(part)
                if code in LANGUAGES:
                    return code
            return "en"
    try:
        found = locale.getlocale()[0] or ""
    except ValueError:
        found = ""
    code = _code(found)
    return code if code in LANGUAGES else "en"


def _code(name: str) -> str:
    """ "de_DE.UTF-8" -> "de"; "German_Germany" (Windows) -> "de"."""
    code = name.split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return {"german": "de", "spanish": "es", "english": "en"}.get(code, code)


def set_language(choice: str = SYSTEM) -> str:
    """Speak ``choice`` (a code of ``LANGUAGES`` or "system") from now on; return the code used.

    A missing catalog means English, never an error; so does a damaged one, said once on
    stderr (``catalog_problem`` keeps the sentence for a window to show).
    """
    global _translation, _language, _catalog_problem
    code = system_language() if choice == SYSTEM or choice not in LANGUAGES else choice
    _catalog_problem = None
    if code == "en":
        _translation = gettext.NullTranslations()
    else:
        folder = Path(os.environ.get(LOCALE_DIR_ENV) or LOCALE_DIR)
        try:
            _translation = gettext.translation(DOMAIN, folder, languages=[code])
        except FileNotFoundError:
            _translation, code = gettext.NullTranslations(), "en"
        except Exception as error:  # noqa: BLE001 - a catalog is data: whatever reading it raises means damaged
            _translation, code = gettext.NullTranslations(), _say_damaged(folder, code, error)
    _language = code
    return code


def _say_damaged(folder: Path, code: str, error: BaseException) -> str:
    """Say once on stderr that the catalog of ``code`` cannot be read; return "en".

    The sentence stays in English on purpose: it is said when the catalog of the
    player's language is the one that cannot be read.
    """
    global _catalog_problem
    path = folder / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    reason = str(error) or type(error).__name__
    _catalog_problem = f"The {LANGUAGES[code]} translation cannot be read ({path}: {reason}); using English."
    if str(path) not in _damaged_said:
        _damaged_said.add(str(path))
        print(f"warning: {_catalog_problem}", file=sys.stderr)
    return "en"


def catalog_problem() -> str | None:
    """Why the chosen language's catalog could not be used at the last ``set_language``, or None."""
    return _catalog_problem


def language() -> str:
    """The code of the language in use ("en", "de", "es")."""
    return _language


def _(message: str) -> str:
    """``message`` in the language in use (in English where its translation's fields differ)."""
    if not message:
        return message
    translated = _translation.gettext(message)
    return translated if _same_fields(translated, message) else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a sentence for ``n`` things in the language in use ("1 move", "2 moves").

    A translated form must keep the fields of the English singular or plural (as the
    catalog test demands); otherwise the English form is said.
    """
    translated = _translation.ngettext(singular, plural, n)
    if _same_fields(translated, singular) or _same_fields(translated, plural):
        return translated
    return singular if n == 1 else plural


@functools.lru_cache(maxsize=4096)
def _same_fields(translated: str, english: str) -> bool:
    """True when ``translated`` formats with exactly the fields of ``english`` (name, conversion
    and spec), so whatever ``.format`` the caller gives the English sentence fits it too."""
    if translated is english or translated == english:
        return True
    fields = _fields(translated)
    return fields is not None and fields == _fields(english)


def _fields(text: str) -> frozenset[str] | None:
    """The ``{fields}`` of ``text``, or None when it is not a well-formed format string."""
    try:
        return frozenset(
            f"{name}!{conversion}:{spec}"
            for _literal, name, spec, conversion in string.Formatter().parse(text)
            if name is not None
        )
    except ValueError:
        return None


def N_(message: str) -> str:
    """Mark ``message`` for the catalog without translating it (it is translated where shown)."""
    return message


_UNITS = {
    "node": lambda n: ngettext("{count:,} node", "{count:,} nodes", n),
    "cutoff": lambda n: ngettext("{count:,} cutoff", "{count:,} cutoffs", n),
    "leaf": lambda n: ngettext("{count:,} leaf", "{count:,} leaves", n),
    "position": lambda n: ngettext("{count:,} position", "{count:,} positions", n),
    "ply": lambda n: ngettext("{count:,} ply", "{count:,} plies", n),
    "line": lambda n: ngettext("{count:,} line", "{count:,} lines", n),
    "move": lambda n: ngettext("{count:,} move", "{count:,} moves", n),
    "disc": lambda n: ngettext("{count:,} disc", "{count:,} discs", n),
    "game": lambda n: ngettext("{count:,} game", "{count:,} games", n),
    "finished game": lambda n: ngettext("{count:,} finished game", "{count:,} finished games", n),
    "stored game": lambda n: ngettext("{count:,} stored game", "{count:,} stored games", n),
}


def counted(count: int, unit: str) -> str:
    """ "1 node", "1,000 nodes", "6 plies": ``count`` things of ``unit`` (a key of the table
    above) in the language in use, the form chosen by the catalog's plural rule."""
    return _UNITS[unit](count).format(count=count)
