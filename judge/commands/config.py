"""The course file, `judge.toml`: the long options a course gives every command, read once at
the parser level and used wherever the command line does not give them.

Its top level holds shared settings (for every command that takes the option), tables
``[run]``, ``[tournament]``, ``[league]`` (``[league.new]``) ... the settings of one command;
the more specific table wins, and the command line wins over the file. A key is spelled as
its long option (``move-time = 2``), checked and converted by the option's own argparse
action, so that a bad value gets the command line's error, named by file, line and key.
Paths are read from the file's folder; ``submissions`` (globs) are the BOT arguments of a
command that takes them when none is given.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from judge.folders import read_file
from judge.games.base import InputError
from judge.words import did_you_mean

#: the course file read from the current folder (unless --config or --no-config)
DEFAULT = "judge.toml"

#: the most a course file may hold (one of tens of lines is read whole)
MOST_BYTES = 1 << 20

#: the key whose globs name the submissions: the BOT arguments
SUBMISSIONS = "submissions"
#: the metavars of options that take a path (read from the course file's folder)
PATH_METAVARS = ("FILE", "DIR", "FOLDER")

#: a TOML value of a setting: what tomllib gives for a key that is no table
Value = str | int | float | bool | list[object]


@dataclass(frozen=True)
class Setting:
    """One key of the course file."""

    #: () for the shared settings, ("run",) or ("league", "new") for a command's table
    table: tuple[str, ...]
    key: str
    value: Value
    #: the key's line in the file (0: not found in its text)
    line: int

    def shown(self) -> str:
        """``key = value`` as the file gives it (TOML notation)."""
        return f"{self.key} = {toml_value(self.value)}"


@dataclass(frozen=True)
class Course:
    """A course file as read: where it is, and each of its settings in the file's order."""

    path: str
    settings: tuple[Setting, ...]

    @property
    def folder(self) -> str:
        """The folder its relative paths are read from."""
        return os.path.dirname(os.path.abspath(self.path))

    def where(self, setting: Setting) -> str:
        """``judge.toml:3: move-time``: the file, line and key, for an error."""
        if setting.line:
            return f"{self.path}:{setting.line}: {printable_key(setting.key)}"
        table = f"[{table_name(setting.table)}] " if setting.table else ""
        return f"{self.path}: {table}{printable_key(setting.key)}"


@dataclass(frozen=True)
class Applied:
    """What a course file gave one command: each option taken from it, by option string."""

    course: Course
    options: dict[str, Setting]


def printable_key(key: str) -> str:
    """A key for a message: quoted when it is not a bare TOML key."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else repr(key)


def table_name(parts: tuple[str, ...]) -> str:
    """A table's name for a message, ``league.new``."""
    return ".".join(printable_key(part) for part in parts)


def toml_value(value: object) -> str:
    """`value` in TOML notation (a string quoted, a list bracketed, true/false)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return str(value)


def course_for(config: str | None, no_config: bool) -> Course | None:
    """The course file a command reads: `config` (--config), else `DEFAULT` in the current
    folder when it is there; none with --no-config."""
    if no_config:
        if config is not None:
            raise InputError("--config FILE and --no-config: give one of them")
        return None
    if config is None:
        if not os.path.isfile(DEFAULT):
            return None
        config = DEFAULT
    return read_course(config)


def read_course(path: str) -> Course:
    """The settings of the course file at `path`; a missing file, bad TOML or a value of
    no setting (a date, a table in a list) is an `InputError` naming the file."""
    import tomllib

    try:
        data = read_file(path, MOST_BYTES)
        text = data.decode("utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"no such course file: {path}") from None
    except OSError as exc:
        raise InputError(f"cannot read the course file {path}: {exc.strerror or exc}"
                         ) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read the course file {path}: {exc}") from None
    if len(data) > MOST_BYTES:
        raise InputError(f"{path}: over {MOST_BYTES >> 20} MiB: not a course file")
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not TOML: {exc}") from None
    except RecursionError:  # arrays or tables nested thousands deep
        raise InputError(f"{path}: not TOML: nested too deeply") from None
    lines = key_lines(text)
    settings: list[Setting] = []

    def walk(table: dict[str, object], under: tuple[str, ...]) -> None:
        for key, value in table.items():
            if isinstance(value, dict):
                walk(value, (*under, key))
                continue
            line = lines.get((under, key), 0)
            if not is_value(value):
                where = Course(path, ()).where(Setting(under, key, "", line))
                raise InputError(f"{where}: not a value an option takes (a string, number, "
                                 f"true/false or a list of them)")
            settings.append(Setting(under, key, cast(Value, value), line))

    try:
        walk(document, ())
    except RecursionError:
        raise InputError(f"{path}: not TOML: nested too deeply") from None
    return Course(path, tuple(settings))


def is_value(value: object) -> bool:
    """Whether `value` is one a setting can have: a string, number or boolean, or a list
    of them."""
    if isinstance(value, list):
        return all(is_value(v) and not isinstance(v, list) for v in value)
    return isinstance(value, str | int | float | bool)


#: a table's header line, ``[run]`` or ``[league.new]``
HEADER = re.compile(r"\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
#: the start of a key's line: a bare or quoted key, then ``=``
KEY = re.compile(r"""\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*=""")


def key_lines(text: str) -> dict[tuple[tuple[str, ...], str], int]:
    """The line of each key of `text` by (its table, the key): tomllib gives none."""
    found: dict[tuple[tuple[str, ...], str], int] = {}
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), 1):
        header = HEADER.match(line)
        if header:
            table = tuple(part.strip().strip("\"'") for part in header.group(1).split("."))
            continue
        key = KEY.match(line)
        if key:
            basic, literal, bare = key.groups()
            name = literal if basic is None else unescaped(basic)
            found.setdefault((table, bare or name), number)
    return found


def unescaped(text: str) -> str:
    """A basic (double-quoted) TOML string's text with its escapes read."""
    import tomllib

    try:
        return str(tomllib.loads(f'key = "{text}"')["key"])
    except tomllib.TOMLDecodeError:
        return text


#: each parser that takes an option, with its action, by the option's name
Takers = dict[str, list[tuple[argparse.ArgumentParser, argparse.Action]]]


def takers(parsers: Iterable[argparse.ArgumentParser]) -> Takers:
    """The long options the `parsers` take, by name without ``--``, and the positional of
    the BOT arguments under `SUBMISSIONS`: each with the parsers that take it."""
    found: Takers = {}
    for parser in parsers:
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction | argparse._VersionAction) \
                    or action.dest in ("config", "no_config"):
                continue
            names = [s[2:] for s in action.option_strings if s.startswith("--")]
            if not action.option_strings and action.dest == "bots" and action.nargs == "*":
                names.append(SUBMISSIONS)
            for name in names:
                found.setdefault(name, []).append((parser, action))
    return found


def sub_parsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """The parsers of a parser's subcommands (league's actions), by name."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def command_path(parser: argparse.ArgumentParser, command: str,
                 args: argparse.Namespace) -> list[tuple[str, argparse.ArgumentParser]]:
    """The subcommands an invocation went through, each with its parser: ``run``, or
    ``league`` then ``new``."""
    path = [(command, parser)]
    while True:
        subs = {a.dest: a for a in parser._actions if isinstance(a, argparse._SubParsersAction)}
        if not subs:
            return path
        dest, action = next(iter(subs.items()))
        name = getattr(args, dest, None)
        if name not in action.choices:
            return path
        parser = action.choices[name]
        path.append((name, parser))


def effective(course: Course, tables: list[tuple[str, ...]]) -> dict[str, Setting]:
    """Each key the course gives a command whose tables are `tables` (the shared one first,
    the most specific last): the most specific table's setting."""
    chosen: dict[str, Setting] = {}
    for table in tables:
        for setting in course.settings:
            if setting.table == table:
                chosen[setting.key] = setting
    return chosen


def arguments(course: Course, setting: Setting, action: argparse.Action) -> list[list[str]]:
    """The command-line arguments that give `action` the setting's value, one list per use
    of the option (several for a repeatable one, none for a flag set false)."""
    value = setting.value

    def refuse(why: str) -> InputError:
        return InputError(f"{course.where(setting)}: {why}")

    def text(item: object) -> str:
        if isinstance(item, bool):
            raise refuse("takes a value, not true or false")
        word = str(item)
        is_path = action.metavar in PATH_METAVARS or action.type is Path
        if is_path and word and not os.path.isabs(word):
            word = os.path.normpath(os.path.join(os.path.relpath(course.folder), word))
        return word

    if action.nargs == 0:
        if not isinstance(value, bool):
            raise refuse("is a flag: true or false")
        return [[]] if value else []
    if action.nargs == "?" and isinstance(value, bool):
        return [[]] if value else []
    if isinstance(action, argparse._AppendAction):
        return [[text(item)] for item in (value if isinstance(value, list) else [value])]
    if action.nargs in (None, "?"):
        if isinstance(value, list):
            raise refuse("takes one value, not a list")
        return [[text(value)]]
    items = value if isinstance(value, list) else [value]
    if isinstance(action.nargs, int) and len(items) != action.nargs:
        raise refuse(f"takes a list of {action.nargs} values")
    if action.nargs == "+" and not items:
        raise refuse("takes at least one value")
    return [[text(item) for item in items]]


def submissions(course: Course, setting: Setting) -> list[str]:
    """The submissions a `SUBMISSIONS` setting names: each glob (from the course file's
    folder) expanded, in order, each submission once; a glob that matches nothing is an
    `InputError`."""
    value = setting.value
    globs = value if isinstance(value, list) else [value]
    if not globs or not all(isinstance(g, str) and g for g in globs):
        raise InputError(f"{course.where(setting)}: a glob or a list of globs "
                         f"(\"class/*/\", \"bots/*.py\")")
    folder = os.path.relpath(course.folder)
    found: list[str] = []
    for pattern in globs:
        assert isinstance(pattern, str)
        absolute = os.path.isabs(pattern)
        matches = sorted(glob.glob(pattern if absolute else os.path.join(folder, pattern)))
        if not matches:
            raise InputError(f"{course.where(setting)}: {pattern!r} matches no file or "
                             f"folder (in {course.folder})")
        found += [m if absolute else os.path.normpath(m) + ("/" if m.endswith("/") else "")
                  for m in matches if m not in found]
    return found


def apply(course: Course, path: list[tuple[str, argparse.ArgumentParser]],
          args: argparse.Namespace, given: set[str], commands: Iterable[str],
          every: Callable[[], Takers]) -> Applied:
    """Give `args` the course's value of each option of the command (`path`, from
    `command_path`) that the command line did not give (`given`: the destinations it set),
    converted and checked by the option's own action.

    A table of none of the `commands`, a key that no command under its table takes, or a
    bad value is an `InputError` naming file, line and key. A shared key (`every`: the
    options of every command), or one of ``[league]`` under ``judge league play``, is
    left to the other commands under its table when it is not this one's, or its value
    is theirs (``game = "nim"`` is not `judge show`'s game number)."""
    options = takers(parser for _, parser in path)
    names = [name for name, _ in path]
    tables = [tuple(names[:n]) for n in range(len(names) + 1)]
    check_tables(course, path, commands)

    def scope(setting: Setting) -> Takers:
        depth = len(setting.table)
        return every() if depth == 0 else takers(under(path[depth - 1][1]))

    applied: dict[str, Setting] = {}
    for key, setting in effective(course, tables).items():
        if key not in options:
            refuse_unless_taken(course, setting, scope(setting))
            continue
        owner, action = options[key][-1]
        if getattr(args, action.dest) if key == SUBMISSIONS else action.dest in given:
            continue  # the command line gave it (a positional is always seen, maybe empty)
        if key == SUBMISSIONS:
            setattr(args, action.dest, submissions(course, setting))
        else:
            try:
                values = converted(course, setting, owner, action)
            except InputError:
                if len(setting.table) < len(path) and fits(course, setting, scope(setting)):
                    continue
                raise
            setattr(args, action.dest, action.default)
            for value in values:
                action(owner, args, value, action.option_strings[0])
        applied[f"--{key}" if key != SUBMISSIONS else "BOT"] = setting
        defaults = getattr(args, "defaults", None)
        if isinstance(defaults, dict):  # the file's value is the course's default
            args.defaults = {**defaults, action.dest: getattr(args, action.dest)}
    return Applied(course, applied)


def check(course: Course, commands: Mapping[str, argparse.ArgumentParser]) -> None:
    """Check each setting of the course against the commands under its table (`commands`:
    every command's parser): its key taken by one, its value by one, its submissions
    found; else an `InputError` naming file, line and key (for `judge doctor`)."""
    every = takers(p for command in commands.values() for p in under(command))
    for setting in course.settings:
        parsers = list(commands.values())
        for depth, name in enumerate(setting.table):
            choices = dict(commands) if depth == 0 else sub_parsers(parsers[0])
            if name not in choices:
                raise InputError(f"{course.path}: [{table_name(setting.table[:depth + 1])}]: "
                                 f"no such command{did_you_mean(name, choices)}")
            parsers = [choices[name]]
        scope = every if not setting.table else takers(under(parsers[0]))
        refuse_unless_taken(course, setting, scope)
        if setting.key == SUBMISSIONS:
            submissions(course, setting)
        elif not fits(course, setting, scope):
            owner, action = scope[setting.key][0]
            converted(course, setting, owner, action)  # raises its error


def under(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    """`parser` and the parsers of its subcommands, theirs, and so on."""
    return [parser, *(p for sub in sub_parsers(parser).values() for p in under(sub))]


def converted(course: Course, setting: Setting, parser: argparse.ArgumentParser,
              action: argparse.Action) -> list[Any]:
    """The setting's value as the option's action takes it (one per use of the option),
    converted and checked by the parser as the command line's; else an `InputError`."""
    values = []
    for words in arguments(course, setting, action):
        try:
            values.append(parser._get_values(action, list(words)))
        except argparse.ArgumentError as exc:
            raise InputError(f"{course.where(setting)}: {exc.message}") from None
    return values


def fits(course: Course, setting: Setting, scope: Takers) -> bool:
    """Whether some option of the setting's name in `scope` takes its value."""
    for parser, action in scope.get(setting.key, []):
        try:
            converted(course, setting, parser, action)
        except InputError:
            continue
        return True
    return False


def check_tables(course: Course, path: list[tuple[str, argparse.ArgumentParser]],
                 commands: Iterable[str]) -> None:
    """Refuse a table that names none of the `commands`, or no subcommand of the command
    (`path`) it is under."""
    commands = list(commands)
    for setting in course.settings:
        if setting.table and setting.table[0] not in commands:
            raise InputError(f"{course.path}: [{table_name(setting.table[:1])}]: no such command"
                             f"{did_you_mean(setting.table[0], commands)}")
        for depth, name in enumerate(setting.table[1:], 1):
            if setting.table[:depth] != tuple(n for n, _ in path[:depth]):
                break
            choices = sub_parsers(path[depth - 1][1])
            if name not in choices:
                within = " ".join(setting.table[:depth])
                raise InputError(f"{course.path}: [{table_name(setting.table[:depth + 1])}]: "
                                 f"judge {within} has no {printable_key(name)}"
                                 + (f" (it has {', '.join(choices)})" if choices else ""))


def refuse_unless_taken(course: Course, setting: Setting, scope: Takers) -> None:
    """Refuse a key that no command under the setting's table takes (`scope`: their
    options)."""
    if setting.key in scope:
        return
    said = f"judge {' '.join(setting.table)} takes no such option" if setting.table \
        else "no command takes this option"
    raise InputError(f"{course.where(setting)}: {said}{did_you_mean(setting.key, scope)}")


def origin(message: str, applied: Applied | None) -> str:
    """`` (from judge.toml:3: move-time = -1)`` for an error `message` that names an option
    the course file gave, else ""."""
    from judge.report import printable_line

    for option in re.findall(r"--[a-z][a-z0-9-]*", message):
        if applied is not None and option in applied.options:
            setting = applied.options[option]
            said = f"{applied.course.where(setting)} = {toml_value(setting.value)}"
            return f" (from {printable_line(said)})"
    return ""
