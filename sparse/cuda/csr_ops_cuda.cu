// Device instantiations of the csr_ops functors.
#include "core/parallel_for.cuh"
#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/csr_ops_functors.hpp"

SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ExtractDiagonal<double>)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ExtractDiagonal<float>)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::Reciprocal)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::FillInt32)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::NarrowIndex)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::WidenIndex)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::GatherAggregated)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::PatternDiffers)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::CheckCsrRow)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ScaleRows)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::AddRows)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RowAbsSums<double>)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RowAbsSums<float>)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RandomUniform)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RebaseRowPtr)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ShiftColumns)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::CopyValues)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::CopySingleValues)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ValuesToSingle)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ValuesToDouble)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RowsColumnSpan)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::RowsWithColumnsIn)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ColumnBlockRows<double>)
SAGA_INSTANTIATE_DEVICE_FOR_EACH(saga::functors::ColumnBlockRows<float>)

namespace saga::cuda {
namespace {
// *first = the least i with flags[i] != 0 (an atomic minimum: the same in any order).
__global__ void first_flagged_kernel(const std::int32_t* __restrict__ flags, std::int64_t n,
                                     unsigned long long* first) {
  unsigned long long mine = ~0ull;
  for (std::int64_t i = global_thread(); i < n; i += grid_stride())
    if (flags[i]) {  // a thread's first hit is its least
      mine = static_cast<unsigned long long>(i);
      break;
    }
  for (int off = 16; off > 0; off /= 2) mine = min(mine, __shfl_down_sync(0xffffffffu, mine, off));
  if (threadIdx.x % 32 == 0 && mine != ~0ull) atomicMin(first, mine);
}
}  // namespace

std::int64_t first_flagged(const Array<std::int32_t>& flags) {
  if (flags.empty()) return -1;
  Array<unsigned long long> first(1, Space::device, "first flagged index");
  SAGA_CUDA(cudaMemsetAsync(first.data(), 0xff, sizeof(unsigned long long), ::saga::device_stream()));
  first_flagged_kernel<<<grid_capped(static_cast<std::int64_t>(flags.size())), kThreads, 0,
                         ::saga::device_stream()>>>(flags.data(), static_cast<std::int64_t>(flags.size()),
                                                    first.data());
  SAGA_CUDA_LAUNCH("first flagged");
  const unsigned long long f = first.get(0);
  return f == ~0ull ? -1 : static_cast<std::int64_t>(f);
}

}  // namespace saga::cuda
