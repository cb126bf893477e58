"""Failures are reported, never silent: an unsupported operator names
itself and the module it is in; training-mode state updates, missing tools
and compiler errors raise clear exceptions."""

import pytest
import torch
import torch.nn as nn

import strata.torch as st
from strata import tools


class Patches(nn.Module):
    def forward(self, x):
        return x.unfold(-1, 2, 2).sum(-1)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.blocks = nn.Sequential(nn.ReLU(), Patches())

    def forward(self, x):
        return self.blocks(self.proj(x))


def test_unsupported_operator_names_op_and_module():
    with pytest.raises(st.UnsupportedOperatorError) as info:
        st.export(Net().eval(), (torch.randn(2, 8),))
    msg = str(info.value)
    print(msg)
    assert "aten.unfold.default" in msg
    assert "'blocks.1'" in msg and "Patches" in msg
    assert info.value.op == "aten.unfold.default" and info.value.module == "blocks.1"


def test_unsupported_operator_fails_compile():
    with pytest.raises(st.UnsupportedOperatorError, match="aten.unfold.default"):
        st.compile(Net().eval(), (torch.randn(2, 8),))


def test_unsupported_form_of_an_operator():
    conv = nn.ConvTranspose2d(3, 4, 3)
    with pytest.raises(st.UnsupportedOperatorError, match="transposed convolution"):
        st.export(conv, (torch.randn(1, 3, 8, 8),))


def test_training_mode_batch_norm():
    bn = nn.BatchNorm1d(4).train()
    with pytest.raises(st.UnsupportedOperatorError, match="model.eval"):
        st.export(bn, (torch.randn(3, 4),))


def test_training_mode_dropout():
    model = nn.Sequential(nn.Linear(4, 4), nn.Dropout(0.5)).train()
    with pytest.raises(st.UnsupportedOperatorError, match="dropout in training mode"):
        st.export(model, (torch.randn(3, 4),))


def test_max_pool_indices_are_not_computed():
    pool = nn.MaxPool2d(2, return_indices=True)
    with pytest.raises(st.UnsupportedOperatorError, match="indices"):
        st.export(pool, (torch.randn(1, 1, 4, 4),))


def test_missing_tools(monkeypatch, tmp_path):
    monkeypatch.setenv("STRATA_BIN", str(tmp_path))
    with pytest.raises(st.ToolNotFoundError, match="STRATA_BIN"):
        tools.tool_dir()


def test_compiler_error_keeps_the_file(tmp_path):
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f() { nonsense }\n")
    with pytest.raises(st.StrataCompileError, match="bad.mlir"):
        tools.compile_mlir(bad, tmp_path / "bad.so")
