#!/usr/bin/env python3
"""Summarise a CUDA activity trace (tools/trace/cupti_trace.cpp) of a saga setup.

The setup starts every phase with a reset of the memory pool's high-water mark
(cudaMemPoolSetAttribute, PhaseStep in amg/hierarchy.cpp), so the trace is cut
there into phase segments. For each: its wall time, the GPU's busy time
(kernels, copies and memsets), how many kernels it launched, and where the host
spent the rest — synchronisations, copies to the host, allocations, launches,
and time outside any CUDA call (host code).

  tools/trace_summary.py trace.csv [--last N]   (the last N segments; default all)
  tools/trace_summary.py trace.csv --last N --calls K   (segment K of those: every call and GPU activity
                                                         in order, with the host time before each call)

Build the tracer with the project (target saga_trace: build*/tools/libsaga_trace.so) and preload it:
  SAGA_TRACE_OUT=trace.csv LD_PRELOAD=build-device/tools/libsaga_trace.so build-device/tools/saga profile-setup ...
"""
import argparse
import collections
import csv
import subprocess
import sys


def union_length(intervals):
    total, cur_s, cur_e = 0, None, None
    for s, e in sorted(intervals):
        if cur_e is None or s > cur_e:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
        else:
            cur_e = max(cur_e, e)
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def demangle(names):
    """Demangled kernel names (c++filt where there is one; the names as they are otherwise)."""
    names = list(names)
    try:
        out = subprocess.run(['c++filt'], input='\n'.join(names), capture_output=True, text=True, check=True).stdout
        lines = out.split('\n')
        if len(lines) >= len(names):
            return dict(zip(names, lines))
    except (OSError, subprocess.CalledProcessError):
        pass
    return {n: n for n in names}


def short(name):
    """A kernel's name without return type, namespaces, template and function arguments."""
    name = name.replace('(anonymous namespace)::', '')
    if 'for_each_kernel<' in name:  # parallel_for: the functor says what it is
        name = name.split('for_each_kernel<', 1)[1].split('>')[0].split(',')[0]
    name = name.split('(')[0].split('<')[0]
    return name.split(' ')[-1].split('::')[-1][:48]


def read_trace(path):
    with open(path) as f:
        return [(r['kind'], int(r['start_ns']), int(r['end_ns']), r['name']) for r in csv.DictReader(f)]


def segments(api, last=0):
    """The phase segments [start, end) in ns: cut where the pool's high-water mark is reset."""
    cuts = [r[1] for r in api if r[3].startswith('cudaMemPoolSetAttribute')]
    if not cuts:
        cuts = [api[0][1]]
    cuts.append(api[-1][2])
    segs = list(zip(cuts[:-1], cuts[1:]))
    return segs[-last:] if last else segs


def split(rows):
    """The runtime calls and the GPU activities, each sorted by start, and the kernels' plain names."""
    api = sorted((r for r in rows if r[0] == 'R'), key=lambda r: r[1])
    gpu = sorted((r for r in rows if r[0] != 'R'), key=lambda r: r[1])
    return api, gpu, demangle({r[3] for r in gpu if r[0] == 'K'})


def calls(rows, last, k):
    """Segment k (of the last `last`; 0 = all): each call and GPU activity in order of start, as (start after the
    segment's, length, host time since the previous call ended or None for a GPU activity, kind, name), in ns."""
    api, gpu, plain = split(rows)
    segs = segments(api, last)
    if not 0 <= k < len(segs):
        raise ValueError(f'--calls {k}: the trace has segments 0 to {len(segs) - 1}'
                         + (f' among the last {last}' if last else ''))
    a, b = segs[k]
    out = []
    previous_end = a
    for kind, s, e, name in sorted((r for r in api + gpu if a <= r[1] < b), key=lambda r: r[1]):
        gap = None
        if kind == 'R':
            gap = max(0, s - previous_end)
            previous_end = max(previous_end, e)
        out.append((s - a, e - s, gap, kind, short(plain[name]) if kind == 'K' else name))
    return out


def summarise(rows, last=0):
    """One dict per phase segment (times in ns): wall, gpu (busy), kernels, host time per kind of call
    (sync, copy, alloc, launch, other) with counts (n_...), host (outside any CUDA call), names (kernels)."""
    api, gpu, plain = split(rows)
    segs = segments(api, last)
    out = []
    for a, b in segs:
        seg_api = [r for r in api if a <= r[1] < b]
        seg_gpu = [r for r in gpu if a <= r[1] < b]
        d = collections.Counter()
        for r in seg_api:
            n = r[3]
            if 'Synchronize' in n:
                c = 'sync'
            elif n.startswith('cudaMemcpy'):
                c = 'copy'
            elif 'Malloc' in n or 'Free' in n:
                c = 'alloc'
            elif 'Launch' in n:
                c = 'launch'
            else:
                c = 'other'
            d[c] += r[2] - r[1]
            d['n_' + c] += 1
        d['wall'] = b - a
        d['gpu'] = union_length([(r[1], min(r[2], b)) for r in seg_gpu])
        kern = [r for r in seg_gpu if r[0] == 'K']
        d['kernels'] = len(kern)
        d['host'] = (b - a) - union_length([(r[1], min(r[2], b)) for r in seg_api])
        seg = dict(d)
        seg['names'] = collections.Counter(short(plain[r[3]]) for r in kern)
        out.append(seg)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('trace')
    ap.add_argument('--last', type=int, default=0)
    ap.add_argument('--kernels', action='store_true', help='list the kernels of each segment')
    ap.add_argument('--calls', type=int, default=None, help='list every call and GPU activity of this segment')
    args = ap.parse_args()
    if args.calls is not None:
        try:
            listed = calls(read_trace(args.trace), args.last, args.calls)
        except ValueError as e:
            sys.exit(f'trace_summary: {e}')
        print(f'{"at us":>8} {"len us":>7} {"host us":>8}  kind  name')
        for at, length, gap, kind, name in listed:
            host = f'{gap / 1e3:8.1f}' if gap is not None else ''
            print(f'{at / 1e3:8.1f} {length / 1e3:7.1f} {host:>8}  {kind:>4}  {name}')
        return
    segs = summarise(read_trace(args.trace), args.last)
    print(f'{"seg":>4} {"wall us":>8} {"gpu us":>8} {"kern":>5} {"sync us":>8} {"n":>3} {"copy us":>7} {"n":>3} '
          f'{"alloc us":>8} {"n":>3} {"launch us":>9} {"other api":>9} {"host us":>8}  kernels')
    tot = collections.Counter()
    for i, g in enumerate(segs):
        top = ', '.join(f'{k} x{v}' if v > 1 else k
                        for k, v in g['names'].most_common(4 if not args.kernels else 99))
        us = lambda k: g.get(k, 0) / 1e3  # noqa: E731
        print(f'{i:>4} {us("wall"):>8.1f} {us("gpu"):>8.1f} {g["kernels"]:>5} {us("sync"):>8.1f} '
              f'{g.get("n_sync", 0):>3} {us("copy"):>7.1f} {g.get("n_copy", 0):>3} {us("alloc"):>8.1f} '
              f'{g.get("n_alloc", 0):>3} {us("launch"):>9.1f} {us("other"):>9.1f} {us("host"):>8.1f}  {top}')
        for k, v in g.items():
            if k != 'names':
                tot[k] += v
    t = {k: v / 1e3 for k, v in tot.items()}
    print(f'total wall {t["wall"]:.1f} us, GPU busy {t["gpu"]:.1f} us, {tot["kernels"]} kernels; '
          f'host: sync {t.get("sync", 0):.1f}, copies {t.get("copy", 0):.1f}, allocations {t.get("alloc", 0):.1f}, '
          f'launches {t.get("launch", 0):.1f}, other calls {t.get("other", 0):.1f}, outside CUDA {t["host"]:.1f} us')


if __name__ == '__main__':
    main()
