"""Tries to write beside itself, in /tmp and beside its working directory, then plays well."""

import os
import pathlib
import sys

import first_pit

targets = [
    pathlib.Path(__file__).parent / "escaped.txt",
    pathlib.Path("/tmp/judge-escaped.txt"),
    pathlib.Path(os.getcwd()).parent / "judge-escaped-beside.txt",
]
for target in targets:
    try:
        target.write_text("out\n")
        print(f"wrote {target}", file=sys.stderr)
    except OSError as exc:
        print(f"could not write {target}: {exc}", file=sys.stderr)
first_pit.play()
