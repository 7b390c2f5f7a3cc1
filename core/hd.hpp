#pragma once
// SAGA_HD marks small per-element functions that both backends share (a
// generator's row, a strength test): the host backend calls them in an OpenMP
// loop, the CUDA backend from a kernel.
#ifdef __CUDACC__
#define SAGA_HD __host__ __device__
#else
#define SAGA_HD
#endif
