"""A played game has one typed shape from the referee to the viewer: the viewer's record
(`judge.records.ViewedGame`) is what the schema ``judge/html/static/game-record.schema.json``
describes, the records of real played games follow it, and every field the viewer's script
reads from a record is one the schema has (and so one the Python writes)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from judge.html.pages import game_payload
from judge.html.report import render_report
from judge.records import (
    VIEWED_FIELDS,
    Judgement,
    MoveRecord,
    PlayedGame,
    Verdict,
    ViewedGame,
    ViewedMove,
)
from judge.store import Store

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "judge" / "html" / "static"
SCHEMA = json.loads((STATIC / "game-record.schema.json").read_text(encoding="utf-8"))
TESTBOTS = ROOT / "tests" / "bots"


# --- a validator for the part of JSON Schema the schema uses -------------------------------

TYPES = {"object": dict, "array": list, "string": str, "null": type(None)}


def is_type(value: Any, name: str) -> bool:
    """Whether `value` is of the JSON Schema type `name` (a boolean is no number)."""
    if name in ("integer", "number"):
        if isinstance(value, bool):
            return False
        return isinstance(value, int) or (name == "number" and isinstance(value, float))
    return isinstance(value, TYPES[name])


def errors(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """What in `value` breaks `schema` (the keywords the schema uses; any other keyword
    is refused, so the schema cannot grow one this validator ignores)."""
    known = {"$schema", "$id", "title", "description", "$defs", "$ref", "type", "enum",
             "properties", "required", "additionalProperties", "items", "prefixItems",
             "minItems", "maxItems"}
    assert set(schema) <= known, f"{where}: keywords {set(schema) - known} are not checked"
    out: list[str] = []
    if "$ref" in schema:
        name = schema["$ref"].removeprefix("#/$defs/")
        out += errors(value, SCHEMA["$defs"][name], where)
    types = schema.get("type")
    if types is not None:
        names = [types] if isinstance(types, str) else types
        if not any(is_type(value, t) for t in names):
            return [*out, f"{where}: {value!r} is not of type {types}"]
    if "enum" in schema and not any(value == e and type(value) is type(e)
                                    for e in schema["enum"]):
        out.append(f"{where}: {value!r} is not one of {schema['enum']}")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        out += [f"{where}: {k} is missing" for k in schema.get("required", ())
                if k not in value]
        for key, item in value.items():
            if key in props:
                out += errors(item, props[key], f"{where}.{key}")
            elif schema.get("additionalProperties") is False:
                out.append(f"{where}: {key} is not a property of the schema")
            elif isinstance(schema.get("additionalProperties"), dict):
                out += errors(item, schema["additionalProperties"], f"{where}.{key}")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            out.append(f"{where}: fewer than {schema['minItems']} items")
        if len(value) > schema.get("maxItems", len(value)):
            out.append(f"{where}: more than {schema['maxItems']} items")
        first = schema.get("prefixItems", [])
        for i, item in enumerate(value):
            if i < len(first):
                out += errors(item, first[i], f"{where}[{i}]")
            elif "items" in schema:
                out += errors(item, schema["items"], f"{where}[{i}]")
    return out


def test_the_validator_refuses_what_breaks_the_schema() -> None:
    good = {"n": 1, "p": ["a", "b"], "g": 0, "s": "3 4", "m": [["1 3", 0, 1.5, "o"]],
            "b": {"heaps": [[3, 4], [0, 4]]}, "t": [[], [1]], "res": ["win", "loss"],
            "v": ["ok", "", None]}
    assert errors(good, SCHEMA) == []
    for broken in ({**good, "m": [["1 3", 2, 1.5, "o"]]},  # no seat 2
                   {**good, "m": [["1 3", 0, 1.5, "q"]]},  # no such judgement
                   {**good, "v": ["ok", ""]},  # a verdict of two items
                   {**good, "g": True},  # a boolean is no seat
                   {**good, "moves": []},  # no such key
                   {k: v for k, v in good.items() if k != "res"}):  # a missing one
        assert errors(broken, SCHEMA), broken


# --- the records of real played games ---------------------------------------------------

def judge(*args: str, cwd: Path) -> None:
    """Run the command line in a fresh interpreter (a run's exit status may be non-zero)."""
    out = subprocess.run([sys.executable, "-m", "judge", *args], capture_output=True,
                         text=True, timeout=600, cwd=cwd)
    assert out.returncode in (0, 3), out.stderr


@pytest.fixture(scope="module")
def played(tmp_path_factory) -> dict[str, Path]:
    """Real stored runs: an Ioiwari grading run at full feedback with a seed, of a greedy
    bot, one that plays a pit that does not exist and one that writes to stderr; a
    Chopsticks grading run of a random bot (which wins slowly); a Nim tournament on clocks."""
    tmp = tmp_path_factory.mktemp("records")
    starts = tmp / "starts.txt"
    starts.write_text("2 2 2 2 4 4 4\n4 4 4 2 2 2 2\n")
    dbs = {"grading": tmp / "grading.db", "slow": tmp / "slow.db",
           "tournament": tmp / "tournament.db"}
    judge("run", "--game", "ioiwari", "--db", str(dbs["grading"]), "--seed", "3",
          "--tests", str(starts), str(ROOT / "bots/ioiwari/greedy.py"),
          str(TESTBOTS / "illegal_move.py"), str(TESTBOTS / "stderr_at_end.py"), cwd=ROOT)
    # (named from ROOT: a game's seed follows its key, which holds the bot's name as given,
    # so a path through the checkout's folder would make the games the folder's)
    judge("run", "--game", "chopsticks", "--db", str(dbs["slow"]), "--seed", "1",
          "bots/chopsticks/random.py", cwd=ROOT)
    judge("tournament", "--game", "nim", "--seed", "5", "--tc", "60+1",
          "--db", str(dbs["tournament"]),
          str(ROOT / "bots/nim/greedy.py"), str(ROOT / "bots/nim/random.py"), cwd=ROOT)
    return dbs


def viewed(db: Path) -> list[dict[str, Any]]:
    """Every game's record as the report embeds it for the viewer."""
    page = render_report(Store(db, read_only=True), 1)
    blocks = re.findall(r'<script type="application/json" id="game-\d+">(.*?)</script>', page)
    assert blocks
    return [json.loads(b) for b in blocks]


def unplayable(db: Path) -> dict[str, Any]:
    """The viewer's record of a stored game with one more move after its end (as the
    illegal last move of a forfeited game is kept): a move that cannot be played again."""
    store = Store(db, read_only=True)
    plan = store.run(1).plan
    rec = next(iter(store.games(1).values()))
    rec = rec._replace(moves=(*rec.moves, MoveRecord(len(rec.moves) % 2, "9", 0.001)))
    return game_payload(plan.load_game(), rec, 1, 0).to_json()


def test_the_viewers_records_of_played_games_follow_the_schema(played) -> None:
    records = [r for db in played.values() for r in viewed(db)]
    records.append(unplayable(played["grading"]))
    assert records[-1]["x"] == len(records[-1]["m"]) and records[-1]["m"][-1][3] == "x"
    for record in records:
        assert errors(record, SCHEMA) == [], record
        assert ViewedGame.from_json(record).to_json() == record
    # every property the schema describes is written for some game: the Python still
    # writes each field the viewer may read
    assert set().union(*records) == set(SCHEMA["properties"])
    assert {r["g"] for r in records} == {0, 1, None}  # graded seats; none in a tournament
    codes = {m[3] for r in records for m in r["m"]}
    assert {"o", "x"} <= codes and codes & {"m", "l", "d"}


def test_a_game_on_clocks_gives_the_viewer_each_moves_reading(played) -> None:
    for record in viewed(played["tournament"]):
        assert len(record["c"]) == len(record["m"])
        assert all(isinstance(c, float) and 0 < c <= 60 + len(record["m"]) for c in record["c"])
    assert all("c" not in r for r in viewed(played["grading"]))


def test_a_record_of_the_first_databases_gives_a_viewers_record_of_the_schema() -> None:
    from judge.analysis import review
    from judge.games.ioiwari import Ioiwari
    from judge.players.optimal import OptimalPlayer
    from judge.players.tricky import TrickyPlayer
    from judge.referee import play_game

    game = Ioiwari()
    start = game.start()
    record = play_game(game, [TrickyPlayer(3), OptimalPlayer(2)], start)
    kept = record.kept(players=("bot.py", "optimal"), key="bot.py|s|first",
                       review=review(game, start, [m.move for m in record.moves], [0]))
    data = kept.to_json()
    # as the first databases wrote it: no seed, usage nor results under perfect play, and
    # reviews without remoteness
    del data["seed"], data["perfect"], data["usage"]
    for r in data["review"]:
        for name in ("remoteness", "move_remoteness", "optimal", "slow"):
            del r[name]
    old = game_payload(game, PlayedGame.from_json(data), 1, 0).to_json()
    assert errors(old, SCHEMA) == []
    assert "seed" not in old and "pf" not in old and "u" not in old
    assert [m[3] != "" for m in old["m"]] == [m.seat == 0 for m in record.moves]


def test_stored_verdicts_follow_the_schemas_verdict(played) -> None:
    for db in played.values():
        games = Store(db, read_only=True).games(1)
        for rec in games.values():
            assert errors(rec.verdict.to_dict(), {"$ref": "#/$defs/verdict"}) == []
            assert PlayedGame.from_json(json.loads(json.dumps(rec.to_json()))) == rec


# --- the schema, the dataclasses and the scripts agree ----------------------------------

def test_the_records_fields_and_the_schemas_properties_are_one_set() -> None:
    assert [f.metadata["json"] for f in VIEWED_FIELDS] == list(SCHEMA["properties"])
    assert {f.metadata["json"] for f in VIEWED_FIELDS if f.metadata["always"]} == set(
        SCHEMA["required"])
    move = SCHEMA["$defs"]["move"]
    assert len(fields(ViewedMove)) == len(move["prefixItems"]) == move["maxItems"]
    assert move["minItems"] == len([f for f in fields(ViewedMove) if f.name != "text"])
    assert [j.value for j in Judgement] == SCHEMA["$defs"]["judgement"]["enum"]
    assert len(Verdict._fields) == len(SCHEMA["properties"]["v"]["prefixItems"])
    assert list(Verdict().to_dict()) == list(SCHEMA["$defs"]["verdict"]["properties"])


def function_bodies(js: str, param: str) -> list[str]:
    """The bodies of the script's functions that take `param` as a parameter."""
    out = []
    for m in re.finditer(r"function\s*\w*\s*\(([^)]*)\)\s*\{", js):
        if param not in re.split(r"\s*,\s*", m.group(1).strip()):
            continue
        depth, i = 1, m.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(js[i], 0)
            i += 1
        out.append(js[m.end():i - 1])
    return out


def test_every_field_the_viewer_reads_from_a_record_is_in_the_schema() -> None:
    js = (STATIC / "viewer.js").read_text(encoding="utf-8")
    props = SCHEMA["properties"]
    # the viewer names a game's record `data` everywhere, and reads it by name only
    read = set(re.findall(r"\bdata\.(\w+)", js))
    assert not re.search(r"\bdata\[", js)
    assert {"m", "p", "v", "res", "b"} <= read  # (the pattern finds the reads)
    assert read <= set(props), read - set(props)
    # a move is a row and a verdict a list: their indices are within their items
    rows = len(SCHEMA["$defs"]["move"]["prefixItems"])
    indexed = 0
    for body in function_bodies(js, "data"):
        moves = set(re.findall(r"data\.m\.forEach\(function \((\w+)", body))
        moves |= set(re.findall(r"var (\w+) = data\.m\[", body))
        verdicts = set(re.findall(r"var (\w+) = data\.v;", body))
        for names, size in ((moves, rows), (verdicts, 3)):
            for name in names:
                for index in re.findall(rf"\b{name}\[(\d+)\]", body):
                    indexed += 1
                    assert int(index) < size, (name, index)
        for index in re.findall(r"\bdata\.v\[(\d+)\]", body):
            assert int(index) < 3
    assert indexed > 10  # every move and verdict read was found


@pytest.mark.parametrize("script, extra", [
    ("watch.js", set()),  # a watched game's end
    ("play.js", {"stderr"}),  # a game in the app, with the failed bot's stderr tail
])
def test_every_verdict_field_the_apps_pages_read_is_in_the_schema(script: str,
                                                                  extra: set[str]) -> None:
    js = (ROOT / "judge" / "web" / "static" / script).read_text(encoding="utf-8")
    read = set(re.findall(r"\.verdict\.(\w+)", js))
    assert "code" in read
    assert read <= set(SCHEMA["$defs"]["verdict"]["properties"]) | extra
