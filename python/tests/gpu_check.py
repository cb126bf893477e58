#!/usr/bin/env python3
"""Runs NVIDIA bundles compiled beforehand on this machine's GPU and checks
them against references; needs Python, torch and libStrataRuntime only.

    gpu_check.py prepare DIR [--target T]   # where strata-compile is: writes DIR
    gpu_check.py DIR                        # on the GPU: checks every DIR/*.json

`prepare` exports the test models (MLP, GPT-2 block; f32 and bf16), compiles
each for the target (default nvidia-h200) into DIR/<case>.json, and writes
DIR/<case>.pt: {"function", "inputs": every argument of the function in
order (parameters included), "outputs": the references (eager, in f32),
"tol": the relative L2 error allowed}. It also fills DIR/prebuilt with the
artifacts of the GPU tests (run them with STRATA_PREBUILT=DIR/prebuilt).

The check accepts, instead of <case>.pt, NumPy files <case>.in<k>.npy and
<case>.out<k>.npy (tolerance 1e-4, function "forward"). It prints one line
per case and exits 1 if any fails. libStrataRuntime is found as
strata.runtime finds it ($STRATA_RUNTIME_LIB, ...).
"""

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the strata package
sys.path.insert(0, str(HERE))         # models.py, prebuilt.py

import torch  # noqa: E402

from strata import runtime  # noqa: E402


def rel_err(got, want):
    got, want = got.double().cpu(), want.double().cpu()
    if got.shape != want.shape or not torch.isfinite(got).all():
        return float("inf")
    denom = want.norm().item()
    diff = (got - want).norm().item()
    return diff / denom if denom else diff


def load_case(bundle):
    """(function, inputs, outputs, tol) of DIR/<case>.json."""
    pt = bundle.with_suffix(".pt")
    if pt.is_file():
        case = torch.load(pt, map_location="cpu")
        return case["function"], case["inputs"], case["outputs"], case.get("tol", 1e-4)
    import numpy as np
    stem = bundle.with_suffix("")
    ins = sorted(bundle.parent.glob(f"{stem.name}.in*.npy"), key=lambda p: int(p.suffixes[-2][3:]))
    outs = sorted(bundle.parent.glob(f"{stem.name}.out*.npy"),
                  key=lambda p: int(p.suffixes[-2][4:]))
    if not ins and not outs:
        return None
    return ("forward", [torch.from_numpy(np.load(p)) for p in ins],
            [torch.from_numpy(np.load(p)) for p in outs], 1e-4)


def check(directory):
    bundles = sorted(Path(directory).glob("*.json"))
    if not bundles:
        sys.exit(f"gpu_check: no .json bundles in {directory}")
    print(f"libStrataRuntime: {runtime.library_path()}")
    print(f"torch {torch.__version__}, "
          f"{torch.cuda.get_device_name() if torch.cuda.is_available() else 'no GPU'}")
    failed = 0
    for bundle in bundles:
        case = load_case(bundle)
        if case is None:
            print(f"SKIP {bundle.name}: no {bundle.stem}.pt or .npy references")
            continue
        function, inputs, wants, tol = case
        try:
            exe = runtime.Executable(bundle)
            args = [x.to(exe.device) for x in inputs]
            outs = exe.call(function, args)
            torch.cuda.synchronize(exe.device)
            start = time.perf_counter()
            for _ in range(10):
                exe.call(function, args, outs)
            torch.cuda.synchronize(exe.device)
            ms = (time.perf_counter() - start) / 10 * 1e3
            errs = [rel_err(g, w) for g, w in zip(outs, wants)]
            ok = len(outs) == len(wants) and all(e <= tol for e in errs)
            print(f"{'PASS' if ok else 'FAIL'} {bundle.name} [{exe.chip}] {function}: "
                  f"relative L2 error {max(errs):.2e} (tol {tol:.0e}), {ms:.3f} ms per call")
        except Exception as e:  # report and go on with the next bundle
            ok = False
            print(f"FAIL {bundle.name}: {type(e).__name__}: {e}")
        failed += not ok
    print(f"{len(bundles) - failed} of {len(bundles)} bundles passed")
    return 1 if failed else 0


# --- prepare (where strata-compile is) ---------------------------------------


def _cases():
    import models
    torch.manual_seed(0)
    yield "mlp_f32", models.MLP(), (torch.randn(16, 64),), 1e-4
    yield "mlp_bf16", models.MLP().bfloat16(), (torch.randn(16, 64).bfloat16(),), 2e-2
    yield ("layer_norm_bf16", torch.nn.LayerNorm(64).bfloat16(),
           (torch.randn(8, 64).bfloat16(),), 2e-2)
    yield "token_embedding_f32", models.TokenEmbedding(), (torch.randint(0, 100, (2, 16)),), 1e-4
    yield "gpt2_block_f32", models.GPT2Block(), (torch.randn(2, 32, 64),), 1e-4
    yield ("gpt2_block_bf16", models.GPT2Block().bfloat16(),
           (torch.randn(2, 32, 64).bfloat16(),), 2e-2)


def _arguments(program, inputs):
    """Every argument of the program's function, as the front end passes them."""
    from strata.torch.compile import CompiledProgram
    cp = CompiledProgram(program, None)
    flat = cp.flatten(tuple(inputs), {})
    return [cp._argument(flat, kind, key, perm) for kind, key, perm in program.args]


def _references(program, model, inputs):
    """The eager results in f32 (a copy of the model in f32), laid out as the
    function returns them."""
    import copy

    import torch.utils._pytree as pytree
    from strata.torch.mlir_builder import inverse
    m32 = copy.deepcopy(model).float()
    with torch.no_grad():
        out = m32(*[x.float() if x.is_floating_point() else x for x in inputs])
    flat = pytree.tree_leaves(out)
    refs = [None] * len(program.result_types)
    for value, (kind, payload, perm) in zip(flat, program.results):
        if kind == "tensor":
            refs[payload] = value if perm is None else value.permute(inverse(perm)).contiguous()
    return refs


def prepare(directory, target):
    import prebuilt
    from strata import tools
    from strata.torch.export import convert, export_program
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    refused = []
    for name, model, inputs, tol in _cases():
        model.eval()
        program = convert(export_program(model, inputs))
        src = out / f"{name}.mlir"
        src.write_text(program.mlir)
        try:
            tools.compile_mlir(src, out / f"{name}.json", target=target)
        except tools.StrataCompileError as e:
            refused.append(name)
            print(f"REFUSED {name}: {e}\n")
            continue
        torch.save({"function": program.func_name, "inputs": _arguments(program, inputs),
                    "outputs": _references(program, model, inputs), "tol": tol},
                   out / f"{name}.pt")
        print(f"prepared {name}")
    _prepare_tests(out / "prebuilt", target)
    print(f"wrote {out}" + (f"; {target} refused: {', '.join(refused)}" if refused else ""))


def _prepare_tests(directory, target):
    """The artifacts of test_cuda.py and test_runtime.py's GPU tests, keyed
    by their MLIR signature (prebuilt.py)."""
    import tempfile

    import models
    import prebuilt
    import test_runtime
    from strata import tools
    from strata.torch.export import convert, export_program
    programs = [test_runtime.MLIR]
    mlp = models.MLP().eval().bfloat16()
    x = torch.randn(16, 64).bfloat16()
    programs.append(convert(export_program(mlp, (x,))).mlir)
    block = models.GPT2Block().eval().bfloat16()
    programs.append(convert(export_program(block, (torch.randn(2, 32, 64).bfloat16(),))).mlir)
    graphs = []

    def capture(gm, example_inputs):
        graphs.append(convert(export_program(gm, tuple(example_inputs)), "graph").mlir)
        return gm
    torch._dynamo.reset()
    with torch.no_grad():
        torch.compile(mlp, backend=capture)(x)
    torch._dynamo.reset()
    programs += graphs
    with tempfile.TemporaryDirectory() as tmp:
        for k, mlir in enumerate(programs):
            src = Path(tmp) / f"p{k}.mlir"
            src.write_text(mlir)
            try:
                tools.compile_mlir(src, Path(tmp) / f"p{k}.json", target=target)
            except tools.StrataCompileError as e:
                print(f"REFUSED test program {k} ({prebuilt.signature_line(mlir)[:60]}...): {e}")
                continue
            prebuilt.store(directory, target, mlir, Path(tmp) / f"p{k}.json")
    print(f"prebuilt test artifacts in {directory}")


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "prepare":
        ap = argparse.ArgumentParser(prog="gpu_check.py prepare")
        ap.add_argument("dir")
        ap.add_argument("--target", default="nvidia-h200")
        a = ap.parse_args(sys.argv[2:])
        prepare(a.dir, a.target)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", help="a directory of .json bundles and .pt/.npy references")
    return check(ap.parse_args().dir)


if __name__ == "__main__":
    sys.exit(main())
