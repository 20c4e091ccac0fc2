"""Contest and course packages of a game (`judge export`): a problem for Kattis, DOMjudge,
DMOJ or CMS, whose interactor is the judge's own opponent run from a bundled table of its
replies, and an autograder for Gradescope or GitHub Classroom that runs the judge itself."""
