"""A kind of stored run defined outside the judge, in this one module, for the tests: a
trial, one bot against the perfect player on the first starts of the game's own set, the
bot moving first. Its plan, its schedule, its text and its command (`judge trial`) are all
here; one line in `judge.kinds.MODULES` (``"trial": "plugin_kinds.trial"``) registers it."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from judge.games.base import InputError
from judge.kinds.base import AllGames, Command, Inputs, Kind, Options, Output, Text, by_key
from judge.plan import OPTIMAL, PLANS, GameSpec, Plan
from judge.store import Store

if TYPE_CHECKING:
    from judge.backends import Backend


@PLANS.register
@dataclass(frozen=True, kw_only=True)
class TrialPlan(Plan):
    """`judge trial`: the bot against the perfect player, once on each start."""

    kind: ClassVar[str] = "trial"
    bot: str
    start_positions: tuple[str, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return (self.bot, OPTIMAL)

    def schedule(self) -> list[GameSpec]:
        return [GameSpec(f"{n:03}|{start}", (self.bot, OPTIMAL), start)
                for n, start in enumerate(self.start_positions, 1)]

    def _own_config(self) -> dict[str, Any]:
        return {"bot": self.bot, "start_positions": list(self.start_positions)}

    @classmethod
    def rebuild(cls, common: dict[str, Any], config: dict[str, Any]) -> TrialPlan:
        return cls(**common, bot=config["bot"],
                   start_positions=tuple(config["start_positions"]))

    def _own_argv(self) -> list[str]:
        return ["--first", str(len(self.start_positions))]


def text(store: Store, run_id: int, fmt: str, details: bool, folder: str | None,
         wide: bool, report: bool, output: Output) -> Text:
    """``trial 1: BOT won W of N games``."""
    plan = store.run(run_id).plan
    assert isinstance(plan, TrialPlan)
    records = store.games(run_id).values()
    won = sum(rec.result_for(rec.seat_of(plan.bot)) == "win" for rec in records)
    return Text(f"trial {run_id}: {plan.bot} won {won} of {len(records)} games\n")


def arguments(p: argparse.ArgumentParser, options: Options) -> None:
    """The arguments of `judge trial`."""
    options.add_game_options(p, required=False)
    p.add_argument("bots", nargs="*", metavar="BOT", help="the bot on trial")
    p.add_argument("--first", type=int, default=2, metavar="N",
                   help="play the first N starts of the game's own set (default 2)")
    p.add_argument("--resume", type=int, metavar="RUN", help="continue a stopped trial")
    options.add_harness_options(p)
    options.add_output_options(p)


def new_plan(args: argparse.Namespace, inputs: Inputs) -> tuple[TrialPlan, list[str]]:
    """The plan of a new trial, and the message of the bot if it is skipped."""
    if len(args.bots) != 1:
        raise InputError("a trial is of one BOT")
    harness = inputs.harness_setup(args)
    bots, skipped = inputs.check_bots(args.bots)
    if not bots:
        raise inputs.NothingToGrade("; ".join(skipped))
    game = inputs.game_from_args(args)
    plan = TrialPlan(game=game.name, rules=game.rules_string(), harness=harness.seeded(),
                     directory=os.getcwd(), sources=inputs.sources(bots), bot=bots[0],
                     start_positions=tuple(inputs.paired_starts(game, None)[:args.first]))
    return replace(plan, planned=len(plan.schedule())), skipped


def schedule(plan: Plan, store: Store, run_id: int, backend: Backend) -> AllGames:
    """Every game of the trial at once."""
    return AllGames(plan, store, run_id)


COMMAND = Command(
    help="a bot against the perfect player on a few starts (a test kind)",
    description="The BOT plays the perfect player once on each of the first starts.",
    epilog="example:\n  judge trial --game nim bots/nim/greedy.py",
    arguments=arguments,
    fixed=("--game", "--rules", "--first"),
    new_plan=new_plan,
)

KIND = Kind("trial", by_key, text, schedule=schedule, command=COMMAND)
