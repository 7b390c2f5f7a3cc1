#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include "core/device.hpp"
#include "sparse/array.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda::prim {

namespace {
// CUB temporary storage, owned for the duration of one call.
struct Temp {
  void* p = nullptr;
  Temp(std::size_t bytes, const char* what) : p(bytes ? device::allocate(bytes, what) : nullptr) {}
  ~Temp() { device::release(p, device::current_stream()); }
};

// Reads an In as an Out, so that the scan accumulates in the output's width
// (CUB's accumulator follows the input's value type).
template <class Out>
struct Widen {
  template <class In>
  __host__ __device__ Out operator()(In v) const { return static_cast<Out>(v); }
};

template <class In, class Out>
void scan_impl(const In* in, Out* out, std::size_t n) {
  // out[0..n) = exclusive scan; out[n] = out[n-1] + in[n-1].
  if (n == 0) {
    SAGA_CUDA(cudaMemsetAsync(out, 0, sizeof(Out), ::saga::device_stream()));
    return;
  }
  auto input = thrust::make_transform_iterator(in, Widen<Out>{});
  std::size_t bytes = 0;
  SAGA_CUDA(cub::DeviceScan::InclusiveSum(nullptr, bytes, input, out + 1, static_cast<std::int64_t>(n), ::saga::device_stream()));
  Temp t(bytes, "scan temporary storage");
  SAGA_CUDA(cudaMemsetAsync(out, 0, sizeof(Out), ::saga::device_stream()));
  SAGA_CUDA(cub::DeviceScan::InclusiveSum(t.p, bytes, input, out + 1, static_cast<std::int64_t>(n), ::saga::device_stream()));
}

__global__ void keys_to_csr_kernel(const std::uint64_t* keys, std::int64_t n, int rows, int col_bits,
                                   offset_t base, offset_t* row_ptr, std::int32_t* col) {
  const std::uint64_t mask = (std::uint64_t(1) << col_bits) - 1;
  for (std::int64_t p = global_thread(); p <= n; p += grid_stride()) {
    const std::int64_t r = p < n ? static_cast<std::int64_t>(keys[p] >> col_bits) : rows;
    const std::int64_t prev = p == 0 ? -1 : static_cast<std::int64_t>(keys[p - 1] >> col_bits);
    // Every row in (prev, r] starts at p.
    for (std::int64_t rr = prev + 1; rr <= r; ++rr) row_ptr[rr] = base + static_cast<offset_t>(p);
    if (p < n) col[p] = static_cast<std::int32_t>(keys[p] & mask);
  }
}
__global__ void narrow_offsets_kernel(std::int64_t n, const offset_t* __restrict__ wide,
                                      std::int32_t* __restrict__ narrow) {
  for (std::int64_t i = global_thread(); i < n; i += grid_stride()) narrow[i] = static_cast<std::int32_t>(wide[i]);
}
}  // namespace

void narrow_offsets(const offset_t* wide, std::int32_t* narrow, std::size_t n) {
  if (n == 0) return;
  const auto count = static_cast<std::int64_t>(n);
  narrow_offsets_kernel<<<grid_for(count), kThreads, 0, ::saga::device_stream()>>>(count, wide, narrow);
  SAGA_CUDA_LAUNCH("narrow_offsets");
}

void exclusive_scan_total(const std::int32_t* in, std::int32_t* out, std::size_t n) { scan_impl(in, out, n); }
void exclusive_scan_total(const std::int64_t* in, std::int64_t* out, std::size_t n) { scan_impl(in, out, n); }
void exclusive_scan_total(const std::int32_t* in, std::int64_t* out, std::size_t n) { scan_impl(in, out, n); }

void sort_pairs(const std::uint64_t* keys_in, std::uint64_t* keys_out, const double* vals_in, double* vals_out,
                std::size_t n, int end_bit) {
  if (n == 0) return;
  std::size_t bytes = 0;
  SAGA_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, vals_in, vals_out,
                                            static_cast<std::int64_t>(n), 0, end_bit, ::saga::device_stream()));
  Temp t(bytes, "radix sort temporary storage");
  SAGA_CUDA(cub::DeviceRadixSort::SortPairs(t.p, bytes, keys_in, keys_out, vals_in, vals_out,
                                            static_cast<std::int64_t>(n), 0, end_bit, ::saga::device_stream()));
}

void sort_pairs(const std::uint32_t* keys_in, std::uint32_t* keys_out, const std::int32_t* vals_in,
                std::int32_t* vals_out, std::size_t n, int end_bit) {
  if (n == 0) return;
  std::size_t bytes = 0;
  SAGA_CUDA(cub::DeviceRadixSort::SortPairs(nullptr, bytes, keys_in, keys_out, vals_in, vals_out,
                                            static_cast<std::int64_t>(n), 0, end_bit, ::saga::device_stream()));
  Temp t(bytes, "radix sort temporary storage");
  SAGA_CUDA(cub::DeviceRadixSort::SortPairs(t.p, bytes, keys_in, keys_out, vals_in, vals_out,
                                            static_cast<std::int64_t>(n), 0, end_bit, ::saga::device_stream()));
}

std::size_t reduce_by_key(const std::uint64_t* keys_in, const double* vals_in, std::uint64_t* keys_out,
                          double* vals_out, std::size_t n) {
  if (n == 0) return 0;
  Array<std::int64_t> count(1, Space::device, "reduce-by-key count");
  std::size_t bytes = 0;
  SAGA_CUDA(cub::DeviceReduce::ReduceByKey(nullptr, bytes, keys_in, keys_out, vals_in, vals_out, count.data(),
                                           ::cuda::std::plus<double>{}, static_cast<std::int64_t>(n), ::saga::device_stream()));
  Temp t(bytes, "reduce-by-key temporary storage");
  SAGA_CUDA(cub::DeviceReduce::ReduceByKey(t.p, bytes, keys_in, keys_out, vals_in, vals_out, count.data(),
                                           ::cuda::std::plus<double>{}, static_cast<std::int64_t>(n), ::saga::device_stream()));
  return static_cast<std::size_t>(count.get(0));
}

std::int64_t sum(const std::int64_t* in, std::size_t n) {
  if (n == 0) return 0;
  Array<std::int64_t> out(1, Space::device, "sum result");
  std::size_t bytes = 0;
  SAGA_CUDA(cub::DeviceReduce::Sum(nullptr, bytes, in, out.data(), static_cast<std::int64_t>(n), ::saga::device_stream()));
  Temp t(bytes, "sum temporary storage");
  SAGA_CUDA(cub::DeviceReduce::Sum(t.p, bytes, in, out.data(), static_cast<std::int64_t>(n), ::saga::device_stream()));
  return out.get(0);
}

int bits_for(std::int64_t count) {
  int b = 1;
  while (b < 63 && (std::int64_t(1) << b) < count) ++b;
  return b;
}

void keys_to_csr(const std::uint64_t* keys, std::size_t n, int rows, int col_bits, offset_t base,
                 offset_t* row_ptr, std::int32_t* col) {
  keys_to_csr_kernel<<<grid_for(static_cast<std::int64_t>(n) + 1), kThreads, 0, ::saga::device_stream()>>>(
      keys, static_cast<std::int64_t>(n), rows, col_bits, base, row_ptr, col);
  SAGA_CUDA_LAUNCH("keys_to_csr");
}

}  // namespace saga::cuda::prim
