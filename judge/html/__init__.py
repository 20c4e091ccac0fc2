"""The HTML of stored runs: each kind's rows and boards as HTML (`pages`, `boards`, a layer
below the kinds) and the self-contained report of a run (`report`, above them). This file
imports nothing, so that importing `judge.html.pages` loads no kind."""
