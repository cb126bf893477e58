/*===- strata_runtime.h - The runtime's C API ---------------------*- C -*-===*
 *
 * Loads an artifact written by `strata-compile --emit=lib` (a host shared
 * library, an NVIDIA bundle) and calls its functions on caller-owned memory.
 * libStrataRuntime links no MLIR and no LLVM: a machine with only the
 * device's driver runs what another machine compiled.
 *
 * Every function returns STRATA_OK (0), STRATA_ERROR (1) or, when the
 * artifact's device is absent (no driver, no GPU), STRATA_NO_DEVICE (77);
 * on failure strata_last_error() says why (which file, argument,
 * expectation).
 *
 *===----------------------------------------------------------------------===*/
#ifndef STRATA_RUNTIME_H
#define STRATA_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

#define STRATA_OK 0
#define STRATA_ERROR 1
#define STRATA_NO_DEVICE 77

typedef struct strata_executable strata_executable;

/* Loads `path` on the device it was compiled for: a host library in this
 * process, an NVIDIA bundle on CUDA device `device_ordinal` (its primary
 * context, the one PyTorch uses). */
int strata_load(const char *path, int device_ordinal, strata_executable **out);
void strata_release(strata_executable *exe);

/* The message of this thread's last failing call ("" if none). */
const char *strata_last_error(void);

/* The artifact's manifest as JSON: {"chip", "device_kind", "functions":
 * [{"name", "inputs": [{"type", "shape"}], "outputs": [...], "flops",
 * "bytes", "roofline_seconds", "tolerances"}]} (docs/runtime.md). Owned by
 * the executable. */
const char *strata_manifest_json(const strata_executable *exe);
/* "host" or "cuda". */
const char *strata_device_kind(const strata_executable *exe);

/* Runs `function` on `args`: one pointer per buffer, the inputs then the
 * outputs in signature order, each a dense row-major array of the
 * manifest's shape and type (host addresses for a host artifact, device
 * addresses for a CUDA one). `stream` is the CUstream to launch on (NULL:
 * the default stream); a CUDA call returns once its launches are queued. */
int strata_call(strata_executable *exe, const char *function, void *const *args,
                int nargs, void *stream);

/* Waits for all work launched by `exe`'s device. */
int strata_synchronize(strata_executable *exe);

#ifdef __cplusplus
}
#endif

#endif /* STRATA_RUNTIME_H */
