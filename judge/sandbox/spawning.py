"""The judge's long-lived children are forked by a thread that lives as long as the judge.

A parent-death signal (PR_SET_PDEATHSIG: the launcher's, a bot's without the helper,
bwrap's --die-with-parent, runsc's) comes when the *thread* that forked the child ends, not
only when the judge does. A server's worker threads come and go (anyio ends one idle for
10 s), so a child forked there would be killed, or would kill its games, while the judge
goes on. The main thread forks itself (it ends with the process); any other thread hands
the fork to one spawning thread, which also ends only with the process.
"""

from __future__ import annotations

import os
import subprocess
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

_lock = threading.Lock()
_spawner: ThreadPoolExecutor | None = None


def popen(*args: Any, **kwargs: Any) -> subprocess.Popen:
    """`subprocess.Popen(*args, **kwargs)`, forked by a thread that ends with the process."""
    global _spawner
    if threading.current_thread() is threading.main_thread():
        return subprocess.Popen(*args, **kwargs)
    with _lock:
        if _spawner is None:  # (its one thread never ends while idle, as anyio's do)
            _spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-spawner")
        spawner = _spawner
    return spawner.submit(subprocess.Popen, *args, **kwargs).result()


def _after_fork_in_child() -> None:
    global _lock, _spawner
    _lock, _spawner = threading.Lock(), None  # (the parent's thread is not in the child)


os.register_at_fork(after_in_child=_after_fork_in_child)
