"""How a message says a number of things: the one rule for every layer."""


def plural(n: int, noun: str, nouns: str = "") -> str:
    """`n` and its noun, as a message says it: ``1 game``, ``2 games``, ``0 games``
    (`nouns` for a plural that is not the noun and an s)."""
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"
