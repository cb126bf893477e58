"""Strata's Python package: locating the Strata tools (strata.tools) and
the PyTorch front end (strata.torch)."""

__version__ = "0.1.0"
