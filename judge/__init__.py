"""judge: a competition judge and bot harness for two-player games with a perfect opponent."""

__version__ = "0.1.0"
