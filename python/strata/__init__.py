"""Strata's Python package: locating the Strata tools (strata.tools),
running compiled artifacts (strata.runtime), compiling and caching them
(strata.compiler), the MLIR text builder and lowering helpers the front
ends share (strata.mlir_builder, strata.lowering), the PyTorch front end
(strata.torch) and the JAX front end (strata.jax)."""

__version__ = "0.1.0"
