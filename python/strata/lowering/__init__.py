"""Building blocks shared by Strata's front ends (strata.torch, strata.jax):
tensor-level helpers over the MLIR builder (helpers), scalar operations in
linalg regions (scalar), and the operations both front ends emit the same
way (ops: contractions, channels-last convolutions and pooling, gathers).
Nothing here imports a framework: a lowering passes a context with the
builder (`cx.b`), its result type (`cx.out`) and `cx.unsupported(reason)`.
"""
