"""The language table: which file is in which language, and how it is compiled and run.

The table ships with the package (`languages.toml`, whose head explains every key); a user
changes or adds languages with ``--languages FILE`` (same shape) and picks flags with
``--flags LANGUAGE="..."``. What a run was given is recorded with it and set again in every
process that plays its games (`SandboxContext.configure_languages`), so that a resumed run
builds the same programs.
"""

from __future__ import annotations

import functools
import glob
import math
import os
import re
import shlex
import shutil
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from judge.games.base import InputError

#: where a toolchain's command is looked for first (the bots' own PATH)
SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"
#: keys a language may have, and the type of each
KEYS: dict[str, type | tuple[type, ...]] = {
    "name": str, "suffixes": list, "compile": list, "run": list, "flags": list,
    "package": str, "find": list, "needs": list, "env": dict, "address_space": bool,
    "first_move_seconds": (int, float), "cpu_seconds": (int, float), "processes": int,
    "detect": str, "probe": str, "version": list, "syscalls": list,
}
#: the groups of system calls beyond the base set that a runtime may need (`syscalls`; the
#: exec helper's -g, `exec/seccomp.c`): threads, event descriptors, a JIT's executable memory
SYSCALL_GROUPS = ("threads", "events", "jit")
#: how a message names the type of a key
_KINDS = {str: "a string", list: "a list of strings", dict: "a table", bool: "true or false",
          int: "a whole number", (int, float): "a number"}
#: the placeholders each command may use
PLACEHOLDERS = {"compile": {"{src}", "{out}", "{flags}", "{compat}"},
                "run": {"{src}", "{dir}", "{main}", "{heap}", "{flags}", "{python}"}}
#: the limits a language may add to
EXTRA_LIMITS = ("first_move_seconds", "cpu_seconds", "processes")


class ToolchainMissing(InputError):
    """A bot's language has no compiler or interpreter on this machine."""


class SettingsError(InputError):
    """The user's flags or table make a language unusable (for every bot, not one)."""


@dataclass(frozen=True)
class Language:
    """One row of the table (see `languages.toml` for the meaning of each field)."""

    key: str
    name: str
    suffixes: tuple[str, ...]
    run: tuple[str, ...]
    compile: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()
    package: str = ""
    find: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    address_space: bool = True
    extra: tuple[tuple[str, float], ...] = field(default=())
    detect: str = ""
    probe: str = ""
    version: tuple[str, ...] = ("--version",)
    #: the groups of system calls its runtime needs beyond the base set (None: every group,
    #: as a compile gets; a language of the user's that does not say)
    syscalls: tuple[str, ...] | None = None

    def command(self, template: tuple[str, ...]) -> list[str]:
        """`template` with {flags} spread into its words."""
        out: list[str] = []
        for word in template:
            out += self.flags if word == "{flags}" else [word]
        return out

    def tool(self, word: str) -> str:
        """The path of the command `word` (or of one of `find`); raises `ToolchainMissing`."""
        found = locate(word, self.find if word == (self.compile or self.run)[0] else ())
        if found is None:
            what = ("compiler" if self.compile and word == self.compile[0]
                    else "runtime" if self.compile else "interpreter")
            raise ToolchainMissing(f"no {self.name} {what} ({word}): install {self.package}")
        return found

    def needed(self) -> tuple[Path, ...]:
        """The system files and folders beyond /usr the toolchain reads, as they are here."""
        home = os.path.expanduser("~")
        paths = [Path(p) for pattern in self.needs
                 for p in sorted(glob.glob(pattern.replace("~", home, 1)))]
        return tuple(dict.fromkeys(paths))

    def installed(self) -> bool:
        """Whether the first command of its toolchain is found here."""
        return locate((self.compile or self.run)[0], self.find) is not None

    def summary(self) -> str:
        """One line for --help: suffixes, how it runs, its extra limits and the groups of
        system calls its filter has (every group where it does not say)."""
        extra = ", ".join(f"+{v:g} {_LIMIT_WORDS[k]}" for k, v in self.extra)
        how = " ".join(self.command(self.compile) if self.compile else self.run)
        also = ", and a .py file with Python 2 statements" if self.detect == "python2" else ""
        parts = [f"{self.name} ({' '.join(self.suffixes)}{also}): {how}"]
        if extra:
            parts.append(extra)
        if not self.address_space:
            parts.append("no address-space limit")
        if self.syscalls is not None:
            parts.append(f"system calls: {', '.join(('base', *self.syscalls))}")
        return "; ".join(parts)


_LIMIT_WORDS = {"first_move_seconds": "s first move", "cpu_seconds": "s CPU",
                "processes": "processes"}


def locate(word: str, alternatives: tuple[str, ...] = ()) -> str | None:
    """The first of `word` and `alternatives` found: a name on the system's PATH, then on
    the judge's (not a version manager's shim, which needs the manager's environment), or a
    path (a glob, "~" for the judge's home; the highest version of a glob wins)."""
    if word.startswith("{"):
        return word
    home = os.path.expanduser("~")
    for name in (word, *alternatives):
        if "/" in name:
            hits = sorted(glob.glob(name.replace("~", home, 1)))
            hits = [h for h in hits if os.path.isfile(h) and os.access(h, os.X_OK)]
            if hits:
                return hits[-1]
            continue
        found = shutil.which(name, path=SYSTEM_PATH)
        if found is None:
            path = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                                   if d and Path(d).name != "shims")
            found = shutil.which(name, path=path)
        if found is not None:
            return found
    return None


def _language(key: str, row: dict[str, Any], where: str) -> Language:
    for name, value in row.items():
        if name not in KEYS:
            raise InputError(f"{where}: language {key}: unknown key {name!r} "
                             f"(known: {', '.join(KEYS)})")
        if not isinstance(value, KEYS[name]) or isinstance(value, bool) != (KEYS[name] is bool):
            raise InputError(f"{where}: language {key}: {name} must be {_KINDS[KEYS[name]]}, "
                             f"not {value!r}"[:300])
        if isinstance(value, list) and not all(isinstance(v, str) for v in value):
            raise InputError(f"{where}: language {key}: {name} must be a list of strings")
    for name in ("name", "suffixes", "run"):
        if not row.get(name):
            raise InputError(f"{where}: language {key}: {name} is missing")
    if not all(s.startswith(".") and len(s) > 1 for s in row["suffixes"]):
        raise InputError(f"{where}: language {key}: a suffix starts with a dot, e.g. \".c\"")
    if "compile" in row and not row["compile"]:
        raise InputError(f"{where}: language {key}: compile is empty (leave it out for an "
                         f"interpreted language)")
    for command, known in PLACEHOLDERS.items():
        for word in row.get(command, ()):
            for name in re.findall(r"\{[a-z]+\}", word):
                if name not in known:
                    raise InputError(f"{where}: language {key}: {command} has an unknown "
                                     f"placeholder {name} (known: {' '.join(sorted(known))})")
    for group in row.get("syscalls", ()):
        if group not in SYSCALL_GROUPS:
            raise InputError(f"{where}: language {key}: syscalls has an unknown group "
                             f"{group!r} (known: {', '.join(SYSCALL_GROUPS)})"[:300])
    for name in EXTRA_LIMITS:
        value = row.get(name, 0)
        if not math.isfinite(value) or value < 0 or value > 1e6:
            raise InputError(f"{where}: language {key}: {name} must be a number from 0 to "
                             f"1000000 (added to the run's limit), not {value}")
    return Language(
        key=key, name=row["name"], suffixes=tuple(row["suffixes"]), run=tuple(row["run"]),
        compile=tuple(row.get("compile", ())), flags=tuple(row.get("flags", ())),
        package=row.get("package", "its toolchain"), find=tuple(row.get("find", ())),
        needs=tuple(row.get("needs", ())),
        env=tuple((str(k), str(v)) for k, v in row.get("env", {}).items()),
        address_space=row.get("address_space", True),
        extra=tuple((k, float(row[k])) for k in EXTRA_LIMITS if k in row),
        detect=row.get("detect", ""), probe=row.get("probe", ""),
        version=tuple(row.get("version", ("--version",))),
        syscalls=tuple(row["syscalls"]) if "syscalls" in row else None,
    )


@functools.cache
def _shipped() -> dict[str, dict[str, Any]]:
    with open(Path(__file__).with_name("languages.toml"), "rb") as fh:
        return tomllib.load(fh)


def read_overrides(path: str | None, flags: list[str] | None) -> dict[str, dict[str, Any]]:
    """What a user changes of the table: a --languages FILE and --flags LANG="..." options,
    as one plain dict (recorded with a run); refused with the reason when it is wrong."""
    overrides: dict[str, dict[str, Any]] = {}
    if path is not None:
        try:
            with open(path, "rb") as fh:
                data = tomllib.load(fh)
        except OSError as exc:
            raise InputError(f"--languages {path}: {exc.strerror or exc}") from None
        except (tomllib.TOMLDecodeError, ValueError) as exc:  # a decode error too
            raise InputError(f"--languages {path}: not a TOML file: {exc}") from None
        for key, row in data.items():
            if not isinstance(row, dict):
                raise InputError(f"--languages {path}: {key} must be a table ([{key}])")
            overrides[key] = dict(row)
    for given in flags or []:
        key, sep, words = given.partition("=")
        key = key.strip()
        if sep and key not in _shipped() and key not in overrides:
            raise InputError(f"--flags {given}: no language {key!r} "
                             f"(known: {', '.join(_shipped())})")
        if not sep:
            raise InputError(f"--flags {given}: give LANGUAGE=FLAGS, e.g. "
                             f"cpp=\"-std=c++98 -fpermissive\"")
        row = {**_shipped().get(key, {}), **overrides.get(key, {})}
        if "{flags}" not in (*row.get("compile", ()), *row.get("run", ())):
            raise InputError(f"--flags {given}: the commands of {key} take no flags")
        try:
            overrides.setdefault(key, {})["flags"] = shlex.split(words)
        except ValueError as exc:
            raise InputError(f"--flags {given}: {exc}") from None
    if overrides:
        Table(overrides, f"--languages {path}" if path else "--flags")  # refused now if wrong
    return overrides


class Table:
    """The languages: the shipped table with a user's `overrides` applied."""

    def __init__(self, overrides: dict[str, dict[str, Any]] | None = None,
                 where: str = "--languages") -> None:
        rows = {key: dict(row) for key, row in _shipped().items()}
        for key, row in (overrides or {}).items():
            rows.setdefault(key, {}).update(row)
        self.overrides = overrides or {}
        self.languages = {key: _language(key, row, where)
                          for key, row in rows.items()}
        self._by_suffix: dict[str, Language] = {}
        # a user's own languages first: a suffix they claim is theirs
        ordered = sorted(self.languages.values(), key=lambda lang: lang.key not in
                         (overrides or {}) or lang.key in _shipped())
        for lang in ordered:
            if lang.detect:
                continue
            for suffix in lang.suffixes:
                self._by_suffix.setdefault(suffix, lang)
        self._detected = [lang for lang in self.languages.values() if lang.detect]
        self._suffixes = frozenset(self.suffixes())

    def for_file(self, path: Path) -> Language | None:
        """The language of a source file, by its suffix (case counts first), or None."""
        lang = (self._by_suffix.get(path.suffix)
                or self._by_suffix.get(path.suffix.lower()))
        for other in self._detected:
            if path.suffix in other.suffixes or path.suffix.lower() in other.suffixes:
                return other
            if lang is not None and other.detect == "python2" and lang.key == "python3" \
                    and _python2_only(path, *_version(path), other.installed()):
                return other
        return lang

    def suffixes(self) -> list[str]:
        return sorted({s for lang in self.languages.values() for s in lang.suffixes})

    def knows(self, name: str) -> bool:
        """Whether a file named `name` is a source of one of the languages (`for_file`
        finds one), known by its suffix alone: the file is never opened."""
        suffix = PurePath(name).suffix
        return suffix in self._suffixes or suffix.lower() in self._suffixes


def _version(path: Path) -> tuple[int, int]:
    st = path.stat()
    return st.st_mtime_ns, st.st_size


@functools.lru_cache(maxsize=256)
def _python2_only(path: Path, mtime_ns: int, size: int, interpreter: bool) -> bool:
    """A .py file whose first line asks for python2, or that Python 3 cannot compile for a
    statement only Python 2 has (print or exec without parentheses, `except E, e`, an
    octal 0777): not any syntax error, which is a broken Python 3 bot's own doing."""
    try:
        text = path.read_bytes()
    except OSError:
        return False
    first = text.split(b"\n", 1)[0]
    if first.startswith(b"#!") and b"python2" in first:
        return True
    if not interpreter:  # a stray Python 2 line in a Python 3 bot is its crash, not a skip
        return False
    try:
        compile(text, str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        return any(sign in str(exc.msg) for sign in PYTHON2_SIGNS)
    except ValueError:  # a NUL byte
        return False
    return False


#: what Python 3 says of a statement only Python 2 has
PYTHON2_SIGNS = ("Missing parentheses in call to", "multiple exception types must be "
                 "parenthesized", "leading zeros in decimal integer literals")


def help_text(table: Table | None = None) -> str:
    """The languages of `table` (the shipped ones by default) for --help: how each is built
    or run, what it adds to the limits, and whether its toolchain is installed here."""
    import textwrap  # --help only

    lines = ["languages (change them with --languages FILE; --flags LANG=\"...\" picks a "
             "language's compiler flags):"]
    for lang in (table or Table()).languages.values():
        word = (lang.compile or lang.run)[0]
        text = lang.summary().replace("{python}", "the judge's Python")
        found = locate(word, lang.find)
        if found is None:
            text += f"; not installed here: install {lang.package}"
        elif found != word:
            text += f"; {word} here: {found}"
        lines += textwrap.wrap(f"{lang.key}: {text}", 88, initial_indent="  ",
                               subsequent_indent="      ")
    lines.append("  any other file that is executable runs as it is (a #! script, a binary)")
    return "\n".join(lines) + "\n"
