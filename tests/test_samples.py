"""The shipped sample test sets are exactly the default sets the judge builds."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from judge.games.ioiwari import Ioiwari, canonical_rotation, standard_boards

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
spec = importlib.util.spec_from_file_location("make_samples", SAMPLES / "make_samples.py")
make_samples = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_samples)


@pytest.mark.parametrize("name", sorted(make_samples.SETS))
def test_sample_file_matches_the_default_test_set(name):
    assert (SAMPLES / name).read_text() == make_samples.render(name)


def test_ioiwari_start_files_hold_the_357_starts_and_the_51_rotations():
    game = Ioiwari()
    starts = game.parse_positions((SAMPLES / "ioiwari-starts.txt").read_text().splitlines())
    assert sorted(p.pits for p in starts) == sorted(standard_boards())
    rotations = game.parse_positions(
        (SAMPLES / "ioiwari-starts-51.txt").read_text().splitlines())
    assert {p.pits for p in rotations} == {canonical_rotation(b) for b in standard_boards()}
