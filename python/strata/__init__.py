"""Strata's Python package: locating the Strata tools (strata.tools),
running compiled artifacts (strata.runtime) and the PyTorch front end
(strata.torch)."""

__version__ = "0.1.0"
