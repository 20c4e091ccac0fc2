"""The teaching facet: what the judge says of a game to a person, beyond its notation (its
rules in brief, its variants, why a game ended, a position's Grundy value, a move's name).
Read by the report's pages (a move's name), the browser app's explanations and pages, and
`judge games`; every `Game` has it."""

from __future__ import annotations

from typing import Protocol

from judge.games.base import M_in, P_in


class Teaching(Protocol[P_in, M_in]):
    """A game's words for people: its rules, variants and values explained, why it ended,
    its moves and positions named. Every `Game` has it, with defaults that fit any game."""

    @property
    def variant_about(self) -> dict[str, str]:
        """What each named variant is, in a few words."""
        ...

    @property
    def rule_sentences(self) -> dict[tuple[str, str], str]:
        """A sentence for each rule value other than the default, by (key, value)."""
        ...

    @property
    def value_notes(self) -> str:
        """What `judge solve` says of a position beyond win, loss or draw, if anything."""
        ...

    @property
    def grundy_name(self) -> str:
        """What the game calls the Grundy value of a position."""
        ...

    def rules_text(self) -> list[str]:
        """The game's rules in brief, a paragraph each."""
        ...

    def rule_notes(self) -> list[str]:
        """What the rules that differ from the defaults change, a sentence each."""
        ...

    def end_reason(self, pos: P_in) -> str:
        """Why the game is over at `pos` (it is), in words."""
        ...

    def position_note(self, pos: P_in, rules: str) -> str | None:
        """What a reader of a solved `pos` should know that its text does not say; None."""
        ...

    def grundy_value(self, pos: P_in) -> int | None:
        """The Sprague-Grundy value of `pos` for an impartial game that has one; None."""
        ...

    def grundy_text(self, pos: P_in, value: int) -> str:
        """A sentence on `value`, the Grundy value of `pos`, and what it says."""
        ...

    def describe_at(self, pos: P_in) -> str:
        """The game and rules that `pos` belongs to."""
        ...

    def move_label(self, move: M_in, pos: P_in) -> str:
        """A short human label for a move ("take 2 from heap 1", "pit 5")."""
        ...

    def move_words(self, move: M_in, pos: P_in) -> str:
        """The move as a terminal writes it: its label, then its wire text where they
        differ."""
        ...


__all__ = ["Teaching"]
