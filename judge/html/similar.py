"""The teacher's page of a run's similar programs: each pair with its percentage and the
two sources side by side, the parts they have in common marked and numbered alike, each
with its length, and the passages not counted (base files', common to most programs)
shown as such."""

from __future__ import annotations

from typing import Any

from judge.similarity import RUN, Comparison, Pair, Why

#: colours the common parts take in turn (each at least 4.5:1 against the text)
SHADES = 6
#: what the page says of a passage not counted
NOT_COUNTED = {Why.BASE: "in a base file: not counted",
               Why.COMMON: "common to most programs: not counted"}


def _lines(text: str, pair: Pair, side: int) -> list[dict[str, Any]]:
    """The lines of one side of `pair`: each with its number, text, the common part it is
    in (numbered from 1 in the order of the pair's regions; 0: none) and, for a line of a
    passage not counted, why (else "")."""
    part: dict[int, int] = {}
    for k, region in enumerate(pair.regions, 1):
        for line in range(region.first[side], region.last[side] + 1):
            part.setdefault(line, k)
    skipped: dict[int, Why] = {}
    for passage in pair.discounted[side]:
        for line in range(passage.first, passage.last + 1):
            skipped.setdefault(line, passage.why)
    return [{"n": n, "text": line.expandtabs(4), "part": part.get(n, 0),
             "skipped": skipped[n].value if n in skipped and n not in part else "",
             "why": NOT_COUNTED[skipped[n]] if n in skipped and n not in part else ""}
            for n, line in enumerate(text.splitlines() or [""], 1)]


def render_similar(info: Any, found: Comparison, least: float) -> str:
    """One self-contained page of the pairs in `found` (of the stored run `info`)."""
    from judge.html.report import _environment

    pairs = [{"bots": pair.bots, "similarity": pair.similarity, "shares": pair.shares,
              "regions": pair.regions,
              "discounted": [[(p.first, p.last, p.tokens, NOT_COUNTED[p.why]) for p in side]
                             for side in pair.discounted],
              "sides": [_lines(found.texts[bot], pair, side)
                        for side, bot in enumerate(pair.bots)]}
             for pair in found.pairs]
    discounted = found.discounted()
    return _environment().get_template("similar.html.j2").render(
        run=info.id, game=info.game, least=least, pairs=pairs, unread=found.unread,
        shades=SHADES, bases=found.bases, common=found.common, run_length=RUN,
        base_passages=discounted[Why.BASE], common_passages=discounted[Why.COMMON])
