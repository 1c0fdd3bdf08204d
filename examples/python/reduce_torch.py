#!/usr/bin/env python3
"""PyTorch tensors reduced, multiplied and transposed by tally, through libtally.so and ctypes: no
compiler, no wrapper. Every call runs on the tensors' current CUDA stream and is checked against
PyTorch's own answer.

    python3 examples/python/reduce_torch.py [path/to/libtally.so]

Without a path it looks for $TALLY_LIBRARY, then for libtally.so where the dynamic linker looks.
Exit status 0 when every result agrees with PyTorch's.
"""
import ctypes
import ctypes.util
import os
import sys

import torch


def load(path):
    lib = ctypes.CDLL(path or os.environ.get("TALLY_LIBRARY") or ctypes.util.find_library("tally") or "libtally.so")
    lib.tally_last_error.restype = ctypes.c_char_p
    ptr, i64 = ctypes.c_void_p, ctypes.c_int64
    # tally.h: (in, n, out, stream), (a, m, n, ld, out, stream), (a, m, n, ld, x, y, stream),
    # (in, out, rows, cols, stream); every function returns a tally_status (0: success).
    signatures = {
        "tally_sum_f32": [ptr, i64, ptr, ptr],
        "tally_arg_max_f64": [ptr, i64, ptr, ptr],
        "tally_sum_bf16": [ptr, i64, ptr, ptr],
        "tally_row_arg_max_f32": [ptr, i64, i64, i64, ptr, ptr],
        "tally_matvec_f32": [ptr, i64, i64, i64, ptr, ptr, ptr],
        "tally_transpose_32": [ptr, ptr, i64, i64, ptr],
    }
    for name, args in signatures.items():
        function = getattr(lib, name)
        function.argtypes, function.restype = args, ctypes.c_int
    return lib


def call(lib, name, *args):
    status = getattr(lib, name)(*args)
    if status != 0:
        raise RuntimeError(f"{name} returned {status}: {lib.tally_last_error().decode()}")


def main():
    lib = load(sys.argv[1] if len(sys.argv) > 1 else None)
    torch.manual_seed(7)
    device = torch.device("cuda")
    stream = torch.cuda.current_stream().cuda_stream  # the stream PyTorch queues this thread's work on
    results = []

    # A float sum, against PyTorch's in double.
    x = torch.randn(10_000_019, device=device)
    total = torch.empty(1, device=device)
    call(lib, "tally_sum_f32", x.data_ptr(), x.numel(), total.data_ptr(), stream)
    want = x.double().sum()
    results.append(("sum f32", abs(total.double().item() - want.item()) <= 1e-6 * x.double().abs().sum().item()))

    # arg_max of doubles: a 16-byte {value, index} result, read back as two int64 words.
    d = torch.randn(3_000_001, device=device, dtype=torch.float64)
    where = torch.empty(2, device=device, dtype=torch.int64)
    call(lib, "tally_arg_max_f64", d.data_ptr(), d.numel(), where.data_ptr(), stream)
    value, index = where[:1].view(torch.float64).item(), where[1].item()
    results.append(("arg_max f64", index == torch.argmax(d).item() and value == d.max().item()))

    # A bfloat16 sum (16-bit elements passed as their bits, the result a float).
    b = torch.rand(1_000_003, device=device).to(torch.bfloat16)
    b_total = torch.empty(1, device=device)
    call(lib, "tally_sum_bf16", b.data_ptr(), b.numel(), b_total.data_ptr(), stream)
    results.append(("sum bf16", abs(b_total.item() - b.float().sum().item()) <= 1e-4 * b.float().sum().item()))

    # Row maxima of a matrix and where they are; its product with a vector; its transpose.
    m, n = 4099, 1000
    a = torch.randn(m, n, device=device)
    rows = torch.empty(m, 4, device=device, dtype=torch.int32)  # {float value, 4 bytes padding, int64 column}
    call(lib, "tally_row_arg_max_f32", a.data_ptr(), m, n, a.stride(0), rows.data_ptr(), stream)
    columns = rows[:, 2:4].contiguous().view(torch.int64).squeeze(1)
    maxima = rows[:, 0].contiguous().view(torch.float32)
    want_max, want_col = a.max(dim=1)
    results.append(("row_arg_max f32", torch.equal(columns, want_col) and torch.equal(maxima, want_max)))

    v = torch.randn(n, device=device)
    y = torch.empty(m, device=device)
    call(lib, "tally_matvec_f32", a.data_ptr(), m, n, a.stride(0), v.data_ptr(), y.data_ptr(), stream)
    want_y = (a.double() @ v.double()).float()
    results.append(("matvec f32", torch.allclose(y, want_y, rtol=1e-4, atol=1e-2)))

    t = torch.empty(n, m, device=device)
    call(lib, "tally_transpose_32", a.data_ptr(), t.data_ptr(), m, n, stream)
    results.append(("transpose 32-bit", torch.equal(t, a.t().contiguous())))

    torch.cuda.current_stream().synchronize()
    for name, ok in results:
        print(f"reduce_torch: {name}: {'agrees with PyTorch' if ok else 'DIFFERS from PyTorch'}")
    return 0 if all(ok for _, ok in results) else 1


if __name__ == "__main__":
    sys.exit(main())
