"""judge: a competition judge and bot harness for two-player games with a perfect opponent."""

__version__ = "0.1.0"


def install_hint(extra: str) -> str:
    """The command that installs the project's `extra` into the judge's own environment,
    from the project folder the judge runs from (`judge` on the package index is another
    project's, so never ``pip install 'judge[...]'``)."""
    import shlex
    import sys
    from pathlib import Path

    project = Path(__file__).resolve().parent.parent
    if (project / "pyproject.toml").is_file():
        return (f"cd {shlex.quote(str(project))} && {shlex.quote(sys.executable)} -m pip "
                f"install -e '.[{extra}]'")
    return f"pip install -e '.[{extra}]' in the judge's project folder"
