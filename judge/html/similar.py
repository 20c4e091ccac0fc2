"""The teacher's page of a run's similar programs: each pair with its percentage and the
two sources side by side, the parts they have in common marked and numbered alike."""

from __future__ import annotations

from typing import Any

from judge.similarity import Comparison, Pair

#: colours the common parts take in turn (each at least 4.5:1 against the text)
SHADES = 6


def _lines(text: str, pair: Pair, side: int) -> list[dict[str, Any]]:
    """The lines of one side of `pair`: each with its number, text and the common part it
    is in (numbered from 1 in the order of the pair's regions; 0: none)."""
    part: dict[int, int] = {}
    for k, region in enumerate(pair.regions, 1):
        for line in range(region.first[side], region.last[side] + 1):
            part.setdefault(line, k)
    return [{"n": n, "text": line.expandtabs(4), "part": part.get(n, 0)}
            for n, line in enumerate(text.splitlines() or [""], 1)]


def render_similar(info: Any, found: Comparison, least: float) -> str:
    """One self-contained page of the pairs in `found` (of the stored run `info`)."""
    from judge.html.report import _environment

    pairs = [{"bots": pair.bots, "similarity": pair.similarity, "shares": pair.shares,
              "regions": pair.regions,
              "sides": [_lines(found.texts[bot], pair, side)
                        for side, bot in enumerate(pair.bots)]}
             for pair in found.pairs]
    return _environment().get_template("similar.html.j2").render(
        run=info.id, game=info.game, least=least, pairs=pairs, unread=found.unread,
        shades=SHADES)
