"""torch.compile(model, backend="strata"): the Dynamo backend on the same
models, graph breaks (their pieces compiled, the code between them eager),
and graphs with an unsupported operator falling back to eager."""

import warnings

import pytest
import torch
import torch.nn as nn

import models
import strata.torch as st  # noqa: F401  (registers the backend)
from conftest import assert_close
from strata.torch.dynamo import GraphRunner


@pytest.fixture(autouse=True)
def _fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


class Spy:
    """Wraps the strata backend to record the GraphRunners it returns."""

    def __init__(self):
        self.runners = []

    def __call__(self, gm, example_inputs):
        runner = torch._dynamo.lookup_backend("strata")(gm, example_inputs)
        self.runners.append(runner)
        return runner


def run(model, inputs, name, grad=False):
    model = model.eval()
    spy = Spy()
    compiled = torch.compile(model, backend=spy)
    with torch.set_grad_enabled(grad):
        want = model(*inputs)
        got = compiled(*inputs)
    assert spy.runners and all(isinstance(r, GraphRunner) for r in spy.runners)
    compiled_graphs = sum(len(r.module._cache) for r in spy.runners)
    assert compiled_graphs >= 1, "no graph went through Strata"
    return assert_close(got, want, name), spy


def test_backend_registered():
    assert "strata" in torch._dynamo.list_backends(exclude_tags=())
    fn = torch.compile(nn.Linear(4, 3).eval(), backend="strata")
    x = torch.randn(2, 4)
    with torch.no_grad():
        assert_close(fn(x), fn._orig_mod(x), "backend_by_name")


def test_mlp():
    run(models.MLP(), (torch.randn(16, 64),), "dynamo_mlp")


@pytest.mark.parametrize("grad", [False, True])
def test_encoder_layer(grad):
    """Under no_grad PyTorch takes its fused fast path
    (aten._transformer_encoder_layer_fwd), which Strata decomposes."""
    run(models.encoder_layer(), (torch.randn(2, 16, 64),), f"dynamo_encoder[grad={grad}]", grad)


def test_gpt2_block():
    run(models.GPT2Block(), (torch.randn(2, 32, 64),), "dynamo_gpt2_block")


def test_resnet():
    """ResNet-18 with one block per stage (test_models compiles ResNet-18)."""
    model = models.randomize_batch_norms(models.resnet10())
    run(model, (torch.randn(1, 3, 64, 64),), "dynamo_resnet10")


class WithBreak(nn.Module):
    """Two Strata graphs around a graph break (a data-dependent branch)."""

    def __init__(self):
        super().__init__()
        self.a = nn.Linear(16, 16)
        self.b = nn.Linear(16, 8)

    def forward(self, x):
        y = torch.relu(self.a(x))
        if y.sum() > 0:  # data-dependent: Dynamo breaks the graph here
            y = y * 2
        return self.b(y)


def test_graph_break():
    _, spy = run(WithBreak(), (torch.randn(4, 16),), "dynamo_graph_break")
    assert len(spy.runners) >= 2


class Unsupported(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(12, 12)

    def forward(self, x):
        return self.lin(x).unfold(1, 4, 4).sum(-1)


def test_unsupported_graph_runs_eagerly():
    model = Unsupported().eval()
    x = torch.randn(3, 12)
    compiled = torch.compile(model, backend="strata")
    with torch.no_grad(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = compiled(x)
    assert any("aten.unfold.default" in str(w.message) for w in caught)
    assert_close(got, model(x), "dynamo_unsupported_eager")


def test_dynamic_sizes_recompile():
    """New batch sizes (Dynamo may mark them dynamic) compile new
    libraries with static shapes."""
    model = models.MLP().eval()
    spy = Spy()
    compiled = torch.compile(model, backend=spy)
    with torch.no_grad():
        for n in (4, 7, 9, 7):
            x = torch.randn(n, 64)
            assert_close(compiled(x), model(x), f"dynamo_batch_{n}")
    shapes = set()
    for r in spy.runners:
        shapes |= set(r.module._cache)
    assert len(shapes) == 3
