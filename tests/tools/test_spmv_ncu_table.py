#!/usr/bin/env python3
"""tools/spmv_ncu_table.py on a hand-made `ncu --csv --page raw` output: the bench's own lines before
the header skipped, kernels keyed by name and grid in launch order (the last launch shown, the count
beside it), names shortened, times in µs, stalls largest first."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'tools'))
import spmv_ncu_table  # noqa: E402

metrics = ['gpu__time_duration.sum', 'launch__grid_size', 'launch__registers_per_thread',
           'sm__warps_active.avg.pct_of_peak_sustained_active', 'smsp__inst_executed.sum',
           'smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio',
           'smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio',
           'smsp__average_warps_issue_stalled_wait_per_issue_active.ratio',
           'lts__t_sectors_op_write.sum', 'dram__bytes_read.sum']
header = ['ID', 'Kernel Name'] + metrics


def row(i, name, ns, grid, regs, occ, inst, long_sb, barrier, wait, l2_writes='', dram_read=''):
    values = [str(i), name, f'{ns:,}', f'{grid:,}', str(regs), f'{occ}', f'{inst:,}', f'{long_sb}', f'{barrier}', f'{wait}',
              f'{l2_writes:,}' if l2_writes != '' else '', f'{dram_read:,}' if dram_read != '' else '']
    return ','.join(f'"{v}"' for v in values)


rows = ['GPU NVIDIA H200 | copy bandwidth 4205 GB/s',  # the bench's own output
        '==PROF== Connected to process 1',
        ','.join(f'"{h}"' for h in header),
        ','.join('""' for _ in header),  # the units line
        row(0, 'void saga::cuda::(anonymous namespace)::rows_kernel<saga::cuda::(anonymous namespace)::AxpbyOut, double>'
               '(int, const int *)', 95_000, 10_605, 32, 89.2, 37_700_000, 13.1, 8.2, 3.2),
        row(1, 'cusparse::csrmv_v3_kernel<std::integral_constant<bool, 0>, int, double>(int)', 77_500, 2_574, 40, 70.3,
            17_300_000, 18.4, 6.4, 1.0, l2_writes=1_823_202, dram_read=514_340_000),
        # ncu's own spelling of an anonymous namespace
        row(3, 'void saga::<unnamed>::merge_rows_kernel<saga::<unnamed>::AxpbyOut, double>(int, long)', 92_700, 5_016, 48,
            55.3, 41_500_000, 8.5, 0.5, 2.3),
        row(2, 'void saga::cuda::(anonymous namespace)::rows_kernel<saga::cuda::(anonymous namespace)::AxpbyOut, double>'
               '(int, const int *)', 96_000, 10_605, 32, 90.0, 37_700_000, 13.0, 8.0, 3.0)]
out = spmv_ncu_table.table(rows)
assert out[0].startswith('| kernel | grid | launches | µs | regs | occupancy %'), out[0]
assert len(out) == 5, out  # header, rule, three kernels (the rows kernel's two launches in one line)
assert out[2].startswith('| rows_kernel<AxpbyOut, double> | 10,605 | 2 | 96.0 | 32 | 90.0 |'), out[2]
assert out[2].endswith('| long_scoreboard 13.0, barrier 8.0, wait 3.0 |'), out[2]
assert '| ? |' in out[2]  # a metric the CSV lacks (issue %) is shown as unknown, not zero
assert out[3].startswith('| cusparse::csrmv_v3_kernel<<bool, 0>, int, double> | 2,574 | 1 | 77.5 | 40 |'), out[3]
assert '| 17.3 |' in out[3]  # warp instructions in millions
assert '| 1.8 | 514.3 |' in out[3]  # L2 write sectors in millions, then DRAM bytes read in MB (base units)
assert out[4].startswith('| merge_rows_kernel<AxpbyOut, double> | 5,016 | 1 | 92.7 | 48 |'), out[4]
try:
    spmv_ncu_table.table(['no profile here'])
    raise AssertionError('a file without the ncu header must be refused')
except ValueError as e:
    assert 'no ncu CSV header' in str(e)
print('spmv_ncu_table: ok')
