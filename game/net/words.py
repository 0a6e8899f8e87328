"""Join codes: a few short words a host reads aloud and a joiner types.

A code made here is ``CODE_WORDS`` words from ``WORDS`` (256 words: 8 bits each, 32 bits
for four), drawn with ``secrets``.  A code a person types is read loosely (any case, any
separators: "Apple Tiger  moon-sand" is "apple-tiger-moon-sand"), so one said aloud and
typed back matches.  The code is never sent: ``game.net.protocol`` derives a key from it.
"""

from __future__ import annotations

import re
import secrets

from game.i18n import _

WORDS = (
    "acid aged also area army away baby back bake ball band bank barn base bath bead "
    "bean bear beef bell belt bend best bike bird boat body bold bone book boot bowl "
    "brew brim bulb bush cake calm camp cane cape card care cart case cash cave cell "
    "chef chip city clay clip club coal coat code coin cold cone cook cool copy cord "
    "corn crab crew crop cube cure dark dawn deck deer desk dial dice dish dock dome "
    "door dove drum duck dune dust easy echo edge farm fern film fire fish flag flat "
    "foam fog fold fork fort frog fuel game gate gift glow glue goat gold golf gown "
    "grey grid gulf hair hall hand harp hawk heat herb hill hive home hood hook horn "
    "iris iron jade jazz jump kale keel kind king kite knot lace lake lamb lamp lane "
    "leaf lens lime line lion list loaf lock loop lute mail malt mane mask meal mild "
    "milk mill mint mist moon moss moth nest news nose note oak oar oath oven pace "
    "page palm park path peak pear pine pipe plum poem pond pony pool port quay rain "
    "ramp reed reef rice ring road robe rock roof rope rose ruby rust safe sage sail "
    "salt sand seal seed ship shoe silk sink snow soap sock sofa soil song soup star "
    "stem surf swan tail tape teal tent tide tile toad tool tree tube tuna vase vine "
    "wave well wind wing wolf wood wool yard yarn year yoga zinc zone zoom plot mule"
).split()
"""256 short, common words (no two alike, none a prefix of how another sounds)."""

CODE_WORDS = 4
MAX_CODE_CHARS = 100


class CodeError(ValueError):
    """A join code that cannot be used (empty, or too long)."""


def new_code(words: int = CODE_WORDS) -> str:
    """A fresh random code such as ``"moon-sand-apple-fork"``."""
    return "-".join(secrets.choice(WORDS) for _ in range(words))


def normal_code(text: str) -> str:
    """The code ``text`` means: its words in lower case joined by ``-``.

    Raises:
        CodeError: no word at all, or longer than ``MAX_CODE_CHARS``.
    """
    if len(text) > MAX_CODE_CHARS:
        raise CodeError(_("the join code is longer than {count} characters").format(count=MAX_CODE_CHARS))
    parts = [part for part in re.split(r"[\W_]+", text.lower()) if part]
    if not parts:
        raise CodeError(_("the join code is empty: give the words the host shows"))
    return "-".join(parts)
