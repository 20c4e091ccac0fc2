"""A stand-in for DOMjudge's domserver: the REST API a judgehost's judgedaemon asks for work,
files and configuration, and reports to, serving one exported problem and a list of
submissions (every case of each, one judging task a case), and writing what the judgedaemon
reported to OUT (JSON: its runs by judging task, its compiles and internal errors).

The problem is stored as DOMjudge's problem import stores it
(ImportProblemService::searchAndAddValidator): the files under output_validators/ by their
base names in one folder (refused if one is not under the first one's folder), `build` and
`run` executable, the validator the problem's run executable when the problem is
interactive; the limits are DOMjudge's defaults and the package's time limit.

    python domserver.py PORT PACKAGE LANGDIR OUT LANG:FILE...

LANGDIR holds DOMjudge's compile scripts (LANGDIR/py3, LANGDIR/c).
"""

from __future__ import annotations

import base64
import email.parser
import hashlib
import json
import socket
import sys
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote

#: DOMjudge's default configuration (etc/db-config.yaml)
CONFIG = {"memory_limit": 2097152, "output_limit": 8192, "process_limit": 64,
          "script_timelimit": 30, "script_memory_limit": 2097152,
          "script_filesize_limit": 2621440, "timelimit_overshoot": "1s|10%",
          "output_storage_limit": 50000, "diskspace_error": 1048576}


def entry(name: str, content: bytes, executable: bool) -> dict[str, Any]:
    """A file as the API sends it."""
    return {"filename": name, "content": base64.b64encode(content).decode(),
            "is_executable": executable}


def executable_hash(files: list[dict[str, Any]]) -> str:
    """An executable's hash, as the judgehost checks it."""
    return hashlib.md5("".join(
        hashlib.md5(base64.b64decode(f["content"])).hexdigest() + f["filename"]
        + ("1" if f["is_executable"] else "")
        for f in sorted(files, key=lambda f: f["filename"])).encode()).hexdigest()


def imported_validator(package: Path) -> list[dict[str, Any]]:
    """The output validator's files as the problem import stores them."""
    files = sorted(p for p in (package / "output_validators").rglob("*") if p.is_file())
    if not all(f.is_relative_to(files[0].parent) for f in files):
        sys.exit("import refused: Found multiple custom output validators.")
    flat = {f.name: f.read_bytes() for f in files}  # a later file replaces an earlier one
    return [entry(n, c, n in ("build", "run")) for n, c in sorted(flat.items())]


class Domserver:
    """The problem, the submissions' judging tasks and what was reported."""

    def __init__(self, package: Path, langdir: Path, out: Path,
                 submissions: list[tuple[str, Path]]) -> None:
        self.out, self.submissions, self.lock = out, submissions, threading.Lock()
        self.executables = {("run", "validator"): imported_validator(package)}
        for lang in ("py3", "c"):
            self.executables[("compile", lang)] = [
                entry(p.name, p.read_bytes(), True) for p in sorted((langdir / lang).iterdir())]
        self.cases = [(case.stem, case.read_bytes(), case.with_suffix(".ans").read_bytes())
                      for kind in ("sample", "secret")
                      for case in sorted((package / "data" / kind).glob("*.in"))]
        seconds = float((package / "domjudge-problem.ini").read_text().split("=")[1])
        self.tasks = [self.judging(n, lang, seconds) for n, (lang, _) in
                      enumerate(submissions, start=1)]
        self.report: dict[str, Any] = {
            "runs": {}, "compiles": {}, "errors": [],
            "cases": {str(100 * n + r): [str(path), name]
                      for n, (_, path) in enumerate(submissions, start=1)
                      for r, (name, _, _) in enumerate(self.cases, start=1)}}
        self.save()

    def judging(self, number: int, lang: str, seconds: float) -> list[dict[str, Any]]:
        """A submission's judging tasks, one a case."""
        compile_config = {"script_timelimit": 30, "script_memory_limit": 2097152,
                          "script_filesize_limit": 2621440,
                          "language_extensions": ["py"] if lang == "py3" else ["c"],
                          "filter_compiler_files": True,
                          "hash": executable_hash(self.executables[("compile", lang)])}
        run_config = {"time_limit": seconds, "memory_limit": CONFIG["memory_limit"],
                      "output_limit": CONFIG["output_limit"],
                      "process_limit": CONFIG["process_limit"], "entry_point": None,
                      "pass_limit": 1, "overshoot": 0,
                      "hash": executable_hash(self.executables[("run", "validator")])}
        compare_config = {"script_timelimit": 30, "script_memory_limit": 2097152,
                          "script_filesize_limit": 2621440, "compare_args": None,
                          "combined_run_compare": True, "hash": "", "is_scoring_problem": False}
        return [{"type": "judging_run", "judgetaskid": 100 * number + rank,
                 "submitid": str(number), "contestid": "1", "jobid": str(number),
                 "uuid": str(uuid.uuid4()), "priority": 0, "compile_script_id": lang,
                 "run_script_id": "validator", "compare_script_id": None,
                 "testcase_id": str(rank), "testcase_hash": hashlib.md5(inp + ans).hexdigest(),
                 "compile_config": json.dumps(compile_config),
                 "run_config": json.dumps(run_config),
                 "compare_config": json.dumps(compare_config)}
                for rank, (_, inp, ans) in enumerate(self.cases, start=1)]

    def save(self) -> None:
        """Write the report whole (a reader never sees half of it)."""
        part = self.out.with_suffix(".part")
        part.write_text(json.dumps(self.report, indent=1))
        part.replace(self.out)


def handler(server: Domserver) -> type[BaseHTTPRequestHandler]:
    """The API's request handler, on `server`."""

    class Api(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def reply(self, body: Any, status: int = 200) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def parts(self) -> list[str]:
            return [unquote(p) for p in self.path.split("?")[0].split("/") if p][1:]

        def form(self) -> dict[str, str]:
            raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            kind = self.headers.get("Content-Type", "")
            if not kind.startswith("multipart/form-data"):
                return {k: v[0] for k, v in parse_qs(raw.decode()).items()}
            message = email.parser.BytesParser().parsebytes(
                f"Content-Type: {kind}\r\n\r\n".encode() + raw)
            return {str(part.get_param("name", header="content-disposition")):
                    part.get_payload(decode=True).decode() for part in message.get_payload()}

        def do_GET(self) -> None:
            p = self.parts()
            if p == ["config"]:
                return self.reply(CONFIG)
            if p == ["languages"]:
                return self.reply([{"id": "py3", "extensions": ["py"]},
                                   {"id": "c", "extensions": ["c"]}])
            if p == ["judgehosts"]:
                return self.reply([{"hostname": socket.gethostname().split(".")[0],
                                    "enabled": True}])
            if p[:2] == ["judgehosts", "get_version_commands"]:
                return self.reply({})
            if p[:3] == ["judgehosts", "get_files", "source"]:
                path = server.submissions[int(p[4]) - 1][1]
                return self.reply([entry(path.name, path.read_bytes(), False)])
            if p[:3] == ["judgehosts", "get_files", "testcase"]:
                _, inp, ans = server.cases[int(p[3]) - 1]
                return self.reply([entry("input", inp, False), entry("output", ans, False)])
            if p[:2] == ["judgehosts", "get_files"] and (p[2], p[3]) in server.executables:
                return self.reply(server.executables[(p[2], p[3])])
            self.reply({"message": f"no {self.path}"}, 404)

        def do_POST(self) -> None:
            p, data = self.parts(), self.form()
            with server.lock:
                if p == ["judgehosts"]:
                    return self.reply([])
                if p[:2] == ["judgehosts", "fetch-work"]:
                    return self.reply(server.tasks.pop(0) if server.tasks else [])
                if p[:2] == ["judgehosts", "add-judging-run"]:
                    server.report["runs"][p[3]] = data
                    server.save()
                    return self.reply("")
                if p[:2] == ["judgehosts", "internal-error"]:
                    server.report["errors"].append(data)
                    server.save()
                    return self.reply(1)
            self.reply({"message": f"no {self.path}"}, 404)

        def do_PUT(self) -> None:
            p, data = self.parts(), self.form()
            with server.lock:
                if p[:2] == ["judgehosts", "update-judging"]:
                    server.report["compiles"][p[3]] = data
                    server.save()
                    return self.reply("")
            self.reply({"message": f"no {self.path}"}, 404)

    return Api


if __name__ == "__main__":
    port, package, langdir, out = sys.argv[1:5]
    submissions = [(s.split(":", 1)[0], Path(s.split(":", 1)[1])) for s in sys.argv[5:]]
    server = Domserver(Path(package), Path(langdir), Path(out), submissions)
    ThreadingHTTPServer(("127.0.0.1", int(port)), handler(server)).serve_forever()
