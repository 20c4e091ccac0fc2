"""How a message says a number of things, or the word probably meant: the one rule for every
layer."""

from collections.abc import Iterable


def plural(n: int, noun: str, nouns: str = "") -> str:
    """`n` and its noun, as a message says it: ``1 game``, ``2 games``, ``0 games``
    (`nouns` for a plural that is not the noun and an s)."""
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"


def did_you_mean(word: str, known: Iterable[str]) -> str:
    """``: did you mean X?`` for the closest of `known` to a misspelt `word`, or ""."""
    from difflib import get_close_matches

    close = get_close_matches(word, list(known), n=1)
    return f": did you mean {close[0]}?" if close else ""
