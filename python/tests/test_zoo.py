"""Whole third-party models of the zoo (zoo.py: torchvision's classifiers
and transformers models with random weights) exported, compiled for the
host and compared with PyTorch eager (relative L2 error <= 1e-4).

By default the CI subset runs (zoo.CI_SUBSET, one model per family of
operators); STRATA_ZOO=all runs every model the installed torchvision
lists, STRATA_ZOO=name,name the ones named."""

import os
import time

import pytest
import torch

import strata.torch as st
import zoo
from conftest import assert_close


def _selected():
    choice = os.environ.get("STRATA_ZOO", "")
    if choice == "all":
        return zoo.names()
    if choice:
        return choice.split(",")
    return list(zoo.CI_SUBSET)


def test_subset_is_in_the_zoo():
    """The CI subset names models the zoo still has (a torchvision release
    that renames one must not silently shrink the subset)."""
    missing = [n for n in zoo.CI_SUBSET if n not in zoo.names()]
    assert not missing, f"CI subset models not in the zoo: {missing}"


@pytest.mark.parametrize("name", _selected())
def test_zoo_model(name):
    model, inputs = zoo.build(name)
    with torch.no_grad():
        want = model(*inputs)
    got = st.compile(model, inputs)(*inputs)
    assert_close(got, want, name)


# A mid-size network's compile (no disk cache): MobileNet-V3-small, about
# 140 operators, took 12.8 s on two cores when this limit was set. The limit
# is twice the 20 s target, so that a loaded CI machine does not fail it;
# integration/bench/torch_models.py --zoo reports the exact times.
COMPILE_LIMIT_S = 40


def test_mid_size_network_compile_time(monkeypatch):
    monkeypatch.setenv("STRATA_CACHE_DIR", "off")
    model, inputs = zoo.build("mobilenet_v3_small")
    with torch.no_grad():
        want = model(*inputs)
    start = time.perf_counter()
    compiled = st.compile(model, inputs)
    elapsed = time.perf_counter() - start
    assert_close(compiled(*inputs), want, "mobilenet_v3_small")
    assert elapsed < COMPILE_LIMIT_S, (
        f"mobilenet_v3_small compiled in {elapsed:.1f} s, over {COMPILE_LIMIT_S} s")
