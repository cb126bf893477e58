"""Whole third-party models of the zoo (zoo.py: torchvision's classifiers
and transformers models with random weights) exported, compiled for the
host and compared with PyTorch eager (relative L2 error <= 1e-4).

By default the CI subset runs (zoo.CI_SUBSET, one model per family of
operators); STRATA_ZOO=all runs every model the installed torchvision
lists, STRATA_ZOO=name,name the ones named."""

import os

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
