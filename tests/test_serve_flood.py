"""`judge serve`'s token never on its command line: taken from a file only its owner may
read or from the environment (docs/web.md, "Who can reach judge serve")."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed (pip install -e '.[web]')")
httpx = pytest.importorskip("httpx", reason="httpx is not installed (the test extra)")

from tests.command import judge  # noqa: E402
from tests.webserver import started  # noqa: E402

#: how long a client waits for an answer: a liveness check, not a speed bound
ANSWERED = 30.0
TOKEN = "a-token-of-the-test-0123456789"


def port_of(url: str) -> int:
    found = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/.*", url)
    assert found, url
    return int(found.group(1))


# --- the token --------------------------------------------------------------------------

def test_a_token_on_the_command_line_is_refused_with_how_to_give_it():
    out = judge("serve", "--no-browser", "--port", "0", "--token", TOKEN, timeout=60)
    assert out.returncode == 2
    assert "--token-file" in out.stderr and "JUDGE_TOKEN" in out.stderr
    assert TOKEN not in out.stderr


def test_the_token_is_taken_from_the_environment_and_is_not_on_the_command_line():
    with started(env={"JUDGE_TOKEN": TOKEN}) as (proc, url):
        cmdline = Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        assert TOKEN.encode() not in cmdline
        here = f"http://127.0.0.1:{port_of(url)}"
        assert httpx.get(here + "/api/games", timeout=ANSWERED).status_code == 403
        assert httpx.get(here + "/api/games", headers={"authorization": f"Token {TOKEN}"},
                         timeout=ANSWERED).status_code == 200


def test_the_token_is_taken_from_a_file_only_its_owner_may_read(tmp_path):
    secret = tmp_path / "token"
    secret.write_text(TOKEN + "\n")
    secret.chmod(0o644)
    out = judge("serve", "--no-browser", "--port", "0", "--token-file", str(secret),
                timeout=60)
    assert out.returncode == 2 and "chmod 600" in out.stderr, out.stderr
    secret.chmod(stat.S_IRUSR | stat.S_IWUSR)
    with started("--token-file", str(secret)) as (proc, url):
        assert TOKEN.encode() not in Path(f"/proc/{proc.pid}/cmdline").read_bytes()
        here = f"http://127.0.0.1:{port_of(url)}"
        assert httpx.get(here + "/api/games", timeout=ANSWERED).status_code == 403
        assert httpx.get(here + "/api/games", headers={"authorization": f"Token {TOKEN}"},
                         timeout=ANSWERED).status_code == 200


@pytest.mark.parametrize("where", ["env", "file"])
def test_a_bad_token_is_refused_from_the_file_and_the_environment(capsys, monkeypatch,
                                                                   tmp_path, where):
    import uvicorn

    from judge.cli import main

    async def started(self):
        raise AssertionError("the server started")

    monkeypatch.setattr(uvicorn.Server, "serve", started)
    args = ["serve", "--no-browser", "--port", "0"]
    if where == "env":
        monkeypatch.setenv("JUDGE_TOKEN", "short")
    else:
        (tmp_path / "token").write_text("sixteen;chars;and;more\n")
        (tmp_path / "token").chmod(0o600)
        args += ["--token-file", str(tmp_path / "token")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("judge: error: the token ") and "at least 16" in err
