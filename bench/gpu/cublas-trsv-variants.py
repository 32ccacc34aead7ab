# cuBLAS STRSV / DTRSV for every uplo × trans × diag at n = 8192 on the lent GPU (the peer of
# bench/gpu/gpu-h100.ts's TRSV rows; cuda-anchors.py times L N N only). Run on the device machine:
# python3 cublas-trsv-variants.py (cupy and the CUDA libraries are there).
import ctypes, glob, os, sys
import cupy as cp, numpy as np

def load_cublas():
    for pattern in ['/usr/local/lib/python3*/**/libcublas.so*', '/usr/local/cuda*/lib64/libcublas.so*', sys.prefix + '/**/libcublas.so*', '/opt/**/libcublas.so*']:
        for path in sorted(glob.glob(pattern, recursive=True)):
            if 'Lt' not in os.path.basename(path):
                try:
                    return ctypes.CDLL(path)
                except OSError:
                    pass
    raise SystemExit('no libcublas')

cublas = load_cublas()
handle = cp.cuda.device.get_cublas_handle()
n = 8192
rng = np.random.default_rng(7)
M = rng.uniform(-1, 1, (n, n)) / n
np.fill_diagonal(M, 1 + rng.uniform(0, 1, n))
for name, dtype in (('cublasStrsv_v2', np.float32), ('cublasDtrsv_v2', np.float64)):
    f = getattr(cublas, name)
    f.restype = ctypes.c_int
    f.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
    A = cp.asfortranarray(cp.asarray(M, dtype=dtype))
    b = cp.asarray(rng.uniform(-1, 1, n), dtype=dtype)
    x = b.copy()
    for uplo in (0, 1):
        for trans in (0, 1):
            for diag in (0, 1):
                def solve():
                    x[...] = b
                    f(handle, uplo, trans, diag, n, A.data.ptr, n, x.data.ptr, 1)
                solve(); cp.cuda.Device().synchronize()
                start, stop = cp.cuda.Event(), cp.cuda.Event()
                start.record()
                for _ in range(20):
                    solve()
                stop.record(); stop.synchronize()
                ms = cp.cuda.get_elapsed_time(start, stop) / 20
                print(f"cuBLAS {'S' if dtype == np.float32 else 'D'}TRSV {'LU'[uplo]} {'NT'[trans]} {'NU'[diag]} n={n}: {ms:.3f} ms (includes an n-element copy of b)")
