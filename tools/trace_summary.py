#!/usr/bin/env python3
"""Summarise a CUDA activity trace (tools/trace/cupti_trace.cpp) of a saga setup.

The setup starts every phase with a reset of the memory pool's high-water mark
(cudaMemPoolSetAttribute, PhaseStep in amg/hierarchy.cpp), so the trace is cut
there into phase segments. For each: its wall time, the GPU's busy time
(kernels, copies and memsets), how many kernels it launched, and where the host
spent the rest — synchronisations, copies to the host, allocations, launches,
and time outside any CUDA call (host code).

  tools/trace_summary.py trace.csv [--last N]   (the last N segments; default all)
"""
import argparse
import collections
import csv


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


def short(name):
    name = name.split('(')[0]
    for prefix in ('void ', 'saga::', 'cuda::', '(anonymous namespace)::'):
        name = name.replace(prefix, '')
    return name.split('<')[0][:48]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('trace')
    ap.add_argument('--last', type=int, default=0)
    ap.add_argument('--kernels', action='store_true', help='list the kernels of each segment')
    args = ap.parse_args()
    rows = []
    with open(args.trace) as f:
        for r in csv.DictReader(f):
            rows.append((r['kind'], int(r['start_ns']), int(r['end_ns']), r['name']))
    api = sorted((r for r in rows if r[0] == 'R'), key=lambda r: r[1])
    gpu = sorted((r for r in rows if r[0] != 'R'), key=lambda r: r[1])
    cuts = [r[1] for r in api if r[3].startswith('cudaMemPoolSetAttribute')]
    if not cuts:
        cuts = [api[0][1]]
    cuts.append(api[-1][2])
    segs = list(zip(cuts[:-1], cuts[1:]))
    if args.last:
        segs = segs[-args.last:]
    print(f'{"seg":>4} {"wall us":>8} {"gpu us":>8} {"kern":>5} {"sync us":>8} {"n":>3} {"d2h us":>7} {"n":>3} '
          f'{"alloc us":>8} {"n":>3} {"launch us":>9} {"other api":>9} {"host us":>8}  kernels')
    tot = collections.Counter()
    for i, (a, b) in enumerate(segs):
        seg_api = [r for r in api if a <= r[1] < b]
        seg_gpu = [r for r in gpu if a <= r[1] < b]
        kern = [r for r in seg_gpu if r[0] == 'K']
        busy = union_length([(r[1], min(r[2], b)) for r in seg_gpu])
        cat = collections.Counter()
        cnt = collections.Counter()
        for r in seg_api:
            n = r[3]
            d = r[2] - r[1]
            if 'Synchronize' in n:
                c = 'sync'
            elif n.startswith('cudaMemcpy'):
                c = 'd2h'
            elif 'Malloc' in n or 'Free' in n:
                c = 'alloc'
            elif 'Launch' in n:
                c = 'launch'
            else:
                c = 'other'
            cat[c] += d
            cnt[c] += 1
        in_api = union_length([(r[1], min(r[2], b)) for r in seg_api])
        host = (b - a) - in_api
        names = collections.Counter(short(r[3]) for r in kern)
        top = ', '.join(f'{k} x{v}' if v > 1 else k for k, v in names.most_common(4 if not args.kernels else 99))
        print(f'{i:>4} {(b - a) / 1e3:>8.1f} {busy / 1e3:>8.1f} {len(kern):>5} {cat["sync"] / 1e3:>8.1f} '
              f'{cnt["sync"]:>3} {cat["d2h"] / 1e3:>7.1f} {cnt["d2h"]:>3} {cat["alloc"] / 1e3:>8.1f} {cnt["alloc"]:>3} '
              f'{cat["launch"] / 1e3:>9.1f} {cat["other"] / 1e3:>9.1f} {host / 1e3:>8.1f}  {top}')
        tot['wall'] += b - a
        tot['gpu'] += busy
        tot['kern'] += len(kern)
        for k in cat:
            tot[k] += cat[k]
        tot['host'] += host
    print(f'total wall {tot["wall"] / 1e3:.1f} us, GPU busy {tot["gpu"] / 1e3:.1f} us, {tot["kern"]} kernels; '
          f'host: sync {tot["sync"] / 1e3:.1f}, copies {tot["d2h"] / 1e3:.1f}, allocations {tot["alloc"] / 1e3:.1f}, '
          f'launches {tot["launch"] / 1e3:.1f}, other calls {tot["other"] / 1e3:.1f}, outside CUDA {tot["host"] / 1e3:.1f} us')


if __name__ == '__main__':
    main()
