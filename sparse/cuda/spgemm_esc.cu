// Reference ESC SpGEMM (expand, sort, contract; 000_… §3): every product
// a_ik * b_kj is written as (key = local_row << col_bits | j, value), the keys
// are radix-sorted over only the bits they use, and equal keys are summed.
// When the expansion would exceed the memory budget, rows are processed in
// slices whose products fit. This is the baseline the optimized SpGEMM is
// measured against; it is deliberately plain.
#include <vector>

#include "sparse/cuda/kernels.hpp"
#include "sparse/cuda/launch.cuh"
#include "sparse/cuda/primitives.hpp"

namespace saga::cuda {

namespace {
// Bytes of device memory one intermediate product needs during a slice:
// key + value, sorted copies of both, and the unique output.
constexpr std::size_t kBytesPerProduct = 2 * (8 + 8) + 8 + 8;

__global__ void row_products_kernel(index_t rows, const offset_t* arp, const index_t* aci, const offset_t* brp,
                                    std::int64_t* out) {
  const std::int64_t warp = global_thread() / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= rows) return;
  std::int64_t s = 0;
  for (offset_t k = arp[warp] + lane; k < arp[warp + 1]; k += 32) s += brp[aci[k] + 1] - brp[aci[k]];
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
  if (lane == 0) out[warp] = s;
}

// One warp per row of the slice: walk the row's nonzeros in order, the lanes
// stride over the matching row of B.
__global__ void expand_kernel(index_t r0, index_t r1, const std::int64_t* prod_ptr, const offset_t* arp,
                              const index_t* aci, const double* av, const offset_t* brp, const index_t* bci,
                              const double* bv, int col_bits, std::uint64_t* keys, double* vals) {
  const std::int64_t warp = global_thread() / 32;
  const int lane = threadIdx.x % 32;
  const std::int64_t row = r0 + warp;
  if (row >= r1) return;
  std::int64_t out = prod_ptr[row] - prod_ptr[r0];
  const std::uint64_t row_key = static_cast<std::uint64_t>(row - r0) << col_bits;
  for (offset_t ka = arp[row]; ka < arp[row + 1]; ++ka) {
    const index_t k = aci[ka];
    const double a = av[ka];
    const offset_t b0 = brp[k], b1 = brp[k + 1];
    for (offset_t kb = b0 + lane; kb < b1; kb += 32) {
      keys[out + (kb - b0)] = row_key | static_cast<std::uint64_t>(bci[kb]);
      vals[out + (kb - b0)] = a * bv[kb];
    }
    out += b1 - b0;
  }
}

Array<std::int64_t> product_offsets(const CsrMatrix& A, const CsrMatrix& B) {
  Array<std::int64_t> per_row(A.rows(), Space::device, "SpGEMM products per row");
  if (A.rows()) {
    row_products_kernel<<<grid_for(static_cast<std::int64_t>(A.rows()) * 32), kThreads, 0, ::saga::device_stream()>>>(
        A.rows(), A.row_ptr().data(), A.col().data(), B.row_ptr().data(), per_row.data());
    SAGA_CUDA_LAUNCH("row_products");
  }
  Array<std::int64_t> ptr(static_cast<std::size_t>(A.rows()) + 1, Space::device, "SpGEMM product offsets");
  prim::exclusive_scan_total(per_row.data(), ptr.data(), A.rows());
  return ptr;
}
}  // namespace

std::int64_t spgemm_products(const CsrMatrix& A, const CsrMatrix& B) {
  return product_offsets(A, B).get(A.rows());
}

CsrMatrix spgemm_esc(const CsrMatrix& A, const CsrMatrix& B, const SpgemmOptions& opt, SpgemmStats* stats) {
  const index_t m = A.rows(), n = B.cols();
  const int col_bits = prim::bits_for(n);
  Array<std::int64_t> prod_ptr = product_offsets(A, B);
  const std::int64_t total = prod_ptr.get(m);
  const std::size_t budget = opt.budget_now();
  const std::int64_t max_per_slice = std::max<std::int64_t>(1, static_cast<std::int64_t>(budget / kBytesPerProduct));

  // Row slices [r0, r1) whose products fit the budget (a single row that alone
  // exceeds it still forms its own slice).
  std::vector<index_t> cuts{0};
  if (total > max_per_slice) {
    const std::vector<std::int64_t> h = prod_ptr.to_vector();
    index_t r0 = 0;
    while (r0 < m) {
      index_t r1 = r0 + 1;
      // Largest r1 with h[r1] - h[r0] <= budget (at least one row).
      index_t lo = r0 + 1, hi = m;
      while (lo <= hi) {
        const index_t mid = lo + (hi - lo) / 2;
        if (h[mid] - h[r0] <= max_per_slice) {
          r1 = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      cuts.push_back(r1);
      r0 = r1;
    }
  } else {
    cuts.push_back(m);
  }

  Array<offset_t> row_ptr(static_cast<std::size_t>(m) + 1, Space::device, "SpGEMM row_ptr");
  std::vector<Array<index_t>> cols;
  std::vector<Array<double>> vals;
  std::int64_t nnz = 0;
  const std::vector<std::int64_t> cut_products = [&] {
    std::vector<std::int64_t> c;
    if (cuts.size() == 2) return std::vector<std::int64_t>{0, total};
    const std::vector<std::int64_t> h = prod_ptr.to_vector();
    for (index_t r : cuts) c.push_back(h[r]);
    return c;
  }();
  for (std::size_t s = 0; s + 1 < cuts.size(); ++s) {
    const index_t r0 = cuts[s], r1 = cuts[s + 1];
    const std::size_t p = static_cast<std::size_t>(cut_products[s + 1] - cut_products[s]);
    const int row_bits = prim::bits_for(r1 - r0);
    Array<std::uint64_t> keys(p, Space::device, "SpGEMM expansion keys");
    Array<double> v(p, Space::device, "SpGEMM expansion values");
    if (p) {
      expand_kernel<<<grid_for(static_cast<std::int64_t>(r1 - r0) * 32), kThreads, 0, ::saga::device_stream()>>>(
          r0, r1, prod_ptr.data(), A.row_ptr().data(), A.col().data(), A.val().data(), B.row_ptr().data(),
          B.col().data(), B.val().data(), col_bits, keys.data(), v.data());
      SAGA_CUDA_LAUNCH("expand");
    }
    Array<std::uint64_t> skeys(p, Space::device, "SpGEMM sorted keys");
    Array<double> sv(p, Space::device, "SpGEMM sorted values");
    prim::sort_pairs(keys.data(), skeys.data(), v.data(), sv.data(), p, row_bits + col_bits);
    const std::size_t u = prim::reduce_by_key(skeys.data(), sv.data(), keys.data(), v.data(), p);
    const offset_t base = checked_offset(nnz, "SpGEMM result");
    checked_offset(nnz + static_cast<std::int64_t>(u), "SpGEMM result");
    Array<index_t> c(u, Space::device, "SpGEMM col");
    Array<double> cv(u, Space::device, "SpGEMM val");
    // keys_to_csr writes row_ptr[r0 .. r1]; the next slice rewrites row_ptr[r1]
    // with the same value.
    prim::keys_to_csr(keys.data(), u, r1 - r0, col_bits, base, row_ptr.data() + r0, c.data());
    if (u) SAGA_CUDA(cudaMemcpyAsync(cv.data(), v.data(), u * sizeof(double), cudaMemcpyDeviceToDevice, ::saga::device_stream()));
    nnz += static_cast<std::int64_t>(u);
    cols.push_back(std::move(c));
    vals.push_back(std::move(cv));
  }

  Array<index_t> col;
  Array<double> val;
  if (cols.size() == 1) {
    col = std::move(cols[0]);
    val = std::move(vals[0]);
  } else {
    col = Array<index_t>(nnz, Space::device, "SpGEMM col");
    val = Array<double>(nnz, Space::device, "SpGEMM val");
    std::size_t at = 0;
    for (std::size_t s = 0; s < cols.size(); ++s) {
      const std::size_t u = cols[s].size();
      if (u) {
        SAGA_CUDA(cudaMemcpyAsync(col.data() + at, cols[s].data(), u * sizeof(index_t), cudaMemcpyDeviceToDevice, ::saga::device_stream()));
        SAGA_CUDA(cudaMemcpyAsync(val.data() + at, vals[s].data(), u * sizeof(double), cudaMemcpyDeviceToDevice, ::saga::device_stream()));
      }
      at += u;
    }
  }
  if (stats) {
    stats->products = total;
    stats->nnz_c = nnz;
    stats->slices = static_cast<int>(cuts.size()) - 1;
    stats->budget_bytes = static_cast<std::int64_t>(budget);
    std::int64_t largest = 0;
    for (std::size_t c = 0; c + 1 < cut_products.size(); ++c)
      largest = std::max(largest, cut_products[c + 1] - cut_products[c]);
    stats->workspace_bytes = static_cast<std::int64_t>(m + 1) * 8 + largest * static_cast<std::int64_t>(kBytesPerProduct);
  }
  return CsrMatrix(m, n, std::move(row_ptr), std::move(col), std::move(val));
}

namespace {
struct Esc {
  static constexpr const char* name = "esc";
  static constexpr const char* summary = "reference expand-sort-contract of the whole product in row slices";
  static constexpr bool runs_on_host = false, runs_on_device = true;
  struct Params {
    double memory_budget_mib = 2048;
    template <class V>
    void visit(V& v) {
      v("memory_budget_mib", memory_budget_mib, "device memory one expansion slice may use (MiB)", positive());
    }
  };
  static std::unique_ptr<SpgemmAlgorithm> make(const Params& p) {
    SpgemmOptions o;
    o.memory_budget_bytes = static_cast<std::size_t>(p.memory_budget_mib * 1048576.0);
    return std::make_unique<SpgemmFunction>(&spgemm_esc, o);
  }
};
}  // namespace
void add_spgemm_esc(SpgemmRegistry& r) { r.add<Esc>(); }

}  // namespace saga::cuda
