#!/usr/bin/env python3
"""tools/trace_summary.py on a hand-made trace: two phases, each cut at the pool's high-water reset,
with known kernels, calls and gaps (times in ns)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
import trace_summary  # noqa: E402

rows = [
    ('R', 0, 1000, 'cudaMemPoolSetAttribute_v11020'),       # phase 1 starts
    ('R', 2000, 5000, 'cudaLaunchKernel_v7000'),
    ('K', 6000, 16000, 'void saga::cuda::(anonymous namespace)::spmv_kernel<double>(int)'),
    ('K', 12000, 20000, 'void saga::cuda::other_kernel(int)'),  # overlaps the first: busy 6..20
    ('R', 5000, 8000, 'cudaLaunchKernel_v7000'),
    ('R', 9000, 21000, 'cudaMemcpyAsync_v3020'),                # waits for the kernels
    ('R', 30000, 31000, 'cudaMemPoolSetAttribute_v11020'),    # phase 2 starts
    ('R', 32000, 34000, 'cudaMallocFromPoolAsync_v11020'),
    ('R', 35000, 45000, 'cudaStreamSynchronize_v3020'),
]
segs = trace_summary.summarise(rows)
assert len(segs) == 2, segs
a, b = segs
assert a['wall'] == 30000 and b['wall'] == 15000, (a['wall'], b['wall'])
assert a['gpu'] == 14000 and a['kernels'] == 2, (a['gpu'], a['kernels'])
assert a['launch'] == 6000 and a['n_launch'] == 2
assert a['copy'] == 12000 and a['n_copy'] == 1
assert a['host'] == 30000 - (1000 + 6000 + 12000), a['host']  # outside every call
assert a['names']['spmv_kernel'] == 1 and a['names']['other_kernel'] == 1, a['names']
assert b['gpu'] == 0 and b['kernels'] == 0
assert b['alloc'] == 2000 and b['sync'] == 10000 and b['n_sync'] == 1
assert trace_summary.summarise(rows, last=1) == [b]
# --calls: phase 1's calls and activities in order of start, the host time before each call.
listed = trace_summary.calls(rows, 0, 0)
assert [(at, kind) for at, _, _, kind, _ in listed] == [(0, 'R'), (2000, 'R'), (5000, 'R'), (6000, 'K'), (9000, 'R'),
                                                        (12000, 'K')], listed
assert [gap for _, _, gap, kind, _ in listed if kind == 'R'] == [0, 1000, 0, 1000], listed
assert listed[3][1] == 10000 and listed[3][2] is None and listed[3][4] == 'spmv_kernel', listed[3]
assert [kind for _, _, _, kind, _ in trace_summary.calls(rows, 1, 0)] == ['R', 'R', 'R']  # phase 2 alone
for k in (2, -1):  # no such segment: a clear error, not another segment
    try:
        trace_summary.calls(rows, 0, k)
        raise AssertionError(f'segment {k} accepted')
    except ValueError as e:
        assert 'segments 0 to 1' in str(e), e
print('trace_summary: ok')
