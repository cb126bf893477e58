"""The MLIR text builder moved to strata.mlir_builder (shared with the JAX front end)."""
from ..mlir_builder import *  # noqa: F401,F403
