# lit configuration of Strata's FileCheck and execution tests.
import os
import lit.formats

config.name = "Strata"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".test", ".json"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.strata_obj_root, "integration", "lit")

config.environment["PATH"] = os.pathsep.join(
    [config.strata_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
# Keep logs and colours out of FileCheck's way; keep the OpenBLAS settings of
# the machine as they are (tests never run anchors).
config.environment["TERM"] = "dumb"

config.substitutions.append(("%examples", os.path.join(config.strata_src_root, "examples", "models")))
config.substitutions.append(("%descriptions", os.path.join(config.strata_src_root, "targets")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
# MLIR's own runner utilities (mlir-runner's -shared-libs), which
# strata-mlir-runner's output is compared with.
config.substitutions.append(("%strata_bin", config.strata_tools_dir))
config.substitutions.append(("%mlir_lib", os.path.join(os.path.dirname(config.llvm_tools_dir), "lib")))

# Tests of the nvidia plugin need it built; those that assemble PTX need
# ptxas (the CUDA toolkit), found as the plugin finds it.
import shutil
if os.path.isdir(os.path.join(config.strata_src_root, "targets", "nvidia")):
    config.available_features.add("nvidia-plugin")
if shutil.which("ptxas") or os.path.exists(os.path.join(
        os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "ptxas")) or \
        os.path.exists("/usr/local/cuda/bin/ptxas"):
    config.available_features.add("ptxas")
# Code for the AVX-512 description runs only where the CPU has AVX-512
# (x86-64-v4); elsewhere its execution lines are skipped (`%if host-avx512`)
# and its IR is still checked.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        flags = set()
        for line in cpuinfo:
            if line.startswith("flags"):
                flags = set(line.split(":", 1)[1].split())
                break
    if {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= flags:
        config.available_features.add("host-avx512")
except OSError:
    pass
for var in ["CUDA_PATH", "STRATA_PTXAS"]:
    if var in os.environ:
        config.environment[var] = os.environ[var]
