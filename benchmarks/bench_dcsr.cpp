// saga-bench-dcsr: DcsrMatrix (sparse/dcsr.hpp, docs/dcsr.md) against CSR in
// one process, on the seed stencils and R-MAT graphs, with the protocols of
// 004_... (issue 15's targets):
//  1. SpMV: CSR (saga's default, binned), DCSR defragmented, DCSR with every
//     row in 4 segments; CSR -> DCSR against a CSR copy; a defragmentation in
//     SpMV times; memory of k = 2, 3, 4 against CSR.
//  2. Streaming: the matrix inserted in 16 batches into a blank DCSR, against
//     rebuilding the CSR after each batch (A = A + batch, a merge) and against
//     appending to COO and sorting it all again.
//  3. Iterative updates: 50 rounds of (0.2% new random nonzeros, 5 SpMVs),
//     DCSR against CSR rebuilds.
// Every timed result is checked against CSR. Writes JSON and Markdown.
#include <CLI/CLI.hpp>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <random>

#include "benchmarks/bench_common.hpp"
#include "core/device.hpp"
#include "problems/rmat.hpp"
#include "problems/structured.hpp"
#include "sparse/coo.hpp"
#include "sparse/csr_ops.hpp"
#include "sparse/dcsr.hpp"
#include "sparse/spmv.hpp"
#include "sparse/vector_ops.hpp"

using namespace saga;

namespace {
using bench::median;

struct Named {
  std::string name;
  CsrMatrix A;  // device
};

// Entries of row i at positions [q len / parts, (q+1) len / parts) as a CSR.
CsrMatrix part_of_rows(const HostCsr& h, int q, int parts) {
  HostCsr p{h.rows, h.cols, {0}, {}, {}};
  for (index_t i = 0; i < h.rows; ++i) {
    const offset_t a = h.row_ptr[i], len = h.row_ptr[i + 1] - a;
    for (offset_t k = a + len * q / parts; k < a + len * (q + 1) / parts; ++k) {
      p.col.push_back(h.col[k]);
      p.val.push_back(h.val[k]);
    }
    p.row_ptr.push_back(static_cast<offset_t>(p.col.size()));
  }
  return from_host_csr(p, Space::device);
}

// Triplets [lo, hi) of host arrays as a device COO.
CooMatrix coo_slice(index_t rows, index_t cols, std::size_t lo, std::size_t hi, const std::vector<index_t>& r,
                    const std::vector<index_t>& c, const std::vector<double>& v) {
  return {rows, cols, Array<index_t>::from_vector({r.begin() + lo, r.begin() + hi}, Space::device),
          Array<index_t>::from_vector({c.begin() + lo, c.begin() + hi}, Space::device),
          Array<double>::from_vector({v.begin() + lo, v.begin() + hi}, Space::device)};
}

// The first n entries of a device array (the "append" of a growing COO: a copy
// of what it holds into a larger buffer).
template <class T>
Array<T> prefix(const Array<T>& a, std::size_t n) {
  Array<T> p(n, Space::device, "COO prefix");
  if (n) device::copy(p.data(), a.data(), n * sizeof(T), device::Copy::device_to_device);
  return p;
}

void check_same(const Vector& a, const Vector& b, const std::string& what) {
  const std::vector<double> x = a.to_vector(), y = b.to_vector();
  double worst = 0, scale = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    worst = std::max(worst, std::abs(x[i] - y[i]));
    scale = std::max(scale, std::abs(y[i]));
  }
  if (worst > 1e-10 * std::max(1.0, scale)) throw Error(fmt::format("{}: results differ by {}", what, worst));
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"saga DCSR benchmark (run on a GPU machine)"};
  std::string json_path = "bench_dcsr.json", md_path;
  int repeat = 7, rmat_scale = 21;
  app.add_option("--json", json_path, "where to write the results as JSON");
  app.add_option("--markdown", md_path, "also write the tables as Markdown");
  app.add_option("--repeat", repeat, "timed repetitions (median reported)");
  app.add_option("--rmat-scale", rmat_scale, "R-MAT graphs of 2^scale vertices, 16 edges each");
  CLI11_PARSE(app, argc, argv);
  try {
    std::optional<bench::Session> session = bench::start_session("saga-bench-dcsr", repeat);
    if (!session) return 2;
    const auto& info = session->info;
    const double bw = session->bandwidth_gbs;
    nlohmann::json& out = session->out;
    auto time = [&](const std::function<void()>& f) { return session->time(f); };

    std::vector<Named> mats;
    mats.push_back({"3D 7-pt N=128", poisson(Stencil::fd3d_7pt, 128, Space::device)});
    mats.push_back({"3D 27-pt N=100", poisson(Stencil::fe3d_27pt, 100, Space::device)});
    mats.push_back({"2D 5-pt N=1024", poisson(Stencil::fd2d_5pt, 1024, Space::device)});
    RmatParams rp;
    rp.scale = rmat_scale;
    rp.edges = 16;
    rp.seed = 2026;
    mats.push_back({fmt::format("R-MAT 2^{} x 16", rmat_scale), rmat_matrix(rp, Space::device)});

    // ---- 1. SpMV, conversion, defragmentation, memory -----------------------------------------
    std::string t1 =
        "| matrix | rows | nnz | CSR SpMV ms | DCSR defrag. / CSR | DCSR 4 segments / CSR | CSR->DCSR / CSR copy | "
        "defragment / SpMV | memory k=2 / 3 / 4 vs CSR |\n|---|---|---|---|---|---|---|---|---|\n";
    for (Named& m : mats) {
      const CsrMatrix& A = m.A;
      const Vector x = random_vector(A.cols(), 7, Space::device);
      Vector y(A.rows(), Space::device), yref(A.rows(), Space::device);
      spmv_prepare(A);
      spmv(A, x, yref);
      const double csr_ms = time([&] { spmv(A, x, y); });
      const double copy_ms = time([&] { CsrMatrix c = A.clone(); });
      DcsrParams p;
      const double conv_ms = time([&] { DcsrMatrix d = DcsrMatrix::from_csr(A, p); });
      DcsrMatrix D = DcsrMatrix::from_csr(A, p);
      D.spmv(1.0, x, 0.0, y);
      check_same(y, yref, m.name + " DCSR SpMV");
      const double dcsr_ms = time([&] { D.spmv(1.0, x, 0.0, y); });
      // Every row in 4 segments: a quarter at construction, three inserted.
      const HostCsr h = to_host_csr(A);
      DcsrParams q;
      q.slack = 0;
      q.segments = 4;
      DcsrMatrix F = DcsrMatrix::from_csr(part_of_rows(h, 0, 4), q);
      for (int part = 1; part < 4; ++part) F.insert(csr_to_coo(part_of_rows(h, part, 4)));  // keep: no search
      const DcsrMemory fm = F.memory();
      F.spmv(1.0, x, 0.0, y);
      check_same(y, yref, m.name + " fragmented DCSR SpMV");
      const double frag_ms = time([&] { F.spmv(1.0, x, 0.0, y); });
      const double defrag_ms = time([&] { F.defragment(); });
      F.spmv(1.0, x, 0.0, y);
      check_same(y, yref, m.name + " defragmented DCSR SpMV");
      const double csr_bytes = bench::csr_bytes(A.rows(), A.nnz());
      std::vector<double> mem;
      for (int k : {2, 3, 4}) {
        DcsrParams pk;
        pk.segments = k;
        pk.slack = 0;
        pk.reserve = 1.0;
        mem.push_back(static_cast<double>(DcsrMatrix::from_csr(A, pk).memory().bytes) / csr_bytes);
      }
      const std::string row = fmt::format(
          "| {} | {} | {} | {:.3f} | {:.3f} | {:.3f} ({} segments) | {:.2f} | {:.2f} | {:.3f} / {:.3f} / {:.3f} |\n",
          m.name, A.rows(), A.nnz(), csr_ms, dcsr_ms / csr_ms, frag_ms / csr_ms, fm.max_segments, conv_ms / copy_ms,
          defrag_ms / csr_ms, mem[0], mem[1], mem[2]);
      t1 += row;
      std::cout << row << std::flush;
      out["spmv"].push_back({{"matrix", m.name}, {"rows", A.rows()}, {"nnz", A.nnz()}, {"csr_ms", csr_ms},
                             {"dcsr_ms", dcsr_ms}, {"fragmented_ms", frag_ms}, {"copy_ms", copy_ms},
                             {"from_csr_ms", conv_ms}, {"defragment_ms", defrag_ms}, {"memory_vs_csr", mem}});
    }

    // ---- 2. Streaming and 3. iterative updates --------------------------------------------------
    std::string t2 =
        "| matrix | batches | DCSR inserts ms | CSR rebuilds ms | COO append+sort ms | vs CSR | vs COO | "
        "defragmentations | batch sorts ms (in both) |\n|---|---|---|---|---|---|---|---|---|\n";
    std::string t3 =
        "| matrix | rounds | new per round | DCSR ms | CSR rebuild ms | speed-up | defragmentations |\n"
        "|---|---|---|---|---|---|---|\n";
    for (Named& m : mats) {
      const CsrMatrix& A = m.A;
      const HostCsr h = to_host_csr(A);
      std::vector<index_t> r, c;
      std::vector<double> v;
      for (index_t i = 0; i < h.rows; ++i)
        for (offset_t k = h.row_ptr[i]; k < h.row_ptr[i + 1]; ++k) r.push_back(i);
      c = h.col;
      v = h.val;
      {  // shuffle the entries: batches arrive in any order
        std::mt19937_64 rng(11);
        for (std::size_t e = r.size(); e > 1; --e) {
          const std::size_t j = rng() % e;
          std::swap(r[e - 1], r[j]);
          std::swap(c[e - 1], c[j]);
          std::swap(v[e - 1], v[j]);
        }
      }
      const int batches = 16;
      const std::size_t n = r.size();
      std::vector<CooMatrix> parts;
      for (int b = 0; b < batches; ++b)
        parts.push_back(coo_slice(A.rows(), A.cols(), n * b / batches, n * (b + 1) / batches, r, c, v));
      const CooMatrix all = coo_slice(A.rows(), A.cols(), 0, n, r, c, v);
      // The paper's protocol: rows start a quarter of the mean length wide, and
      // a new segment gets the mean row length as slack.
      const double mean = static_cast<double>(A.nnz()) / std::max<index_t>(A.rows(), 1);
      DcsrParams p;
      p.initial_width = std::max<index_t>(1, static_cast<index_t>(mean / 4));
      p.slack = std::ceil(mean);
      int stream_defrags = 0;
      const double dcsr_ms = device::elapsed_ms([&] {
        DcsrMatrix D = DcsrMatrix::blank(A.rows(), A.cols(), Space::device, p);
        stream_defrags = 0;
        for (const CooMatrix& part : parts) stream_defrags += D.insert(part).defragmentations;
      });
      // The share of both that is sorting each batch by row (coo_to_csr).
      const double sort_ms = device::elapsed_ms([&] {
        for (const CooMatrix& part : parts) CsrMatrix B = coo_to_csr(part);
      });
      const double csr_ms = device::elapsed_ms([&] {
        CsrMatrix C = CsrMatrix::zeros(A.rows(), A.cols(), Space::device);
        for (const CooMatrix& part : parts) C = add(1.0, C, 1.0, coo_to_csr(part));
      });
      const double coo_ms = device::elapsed_ms([&] {
        for (int b = 1; b <= batches; ++b) {
          const std::size_t held = n * b / batches;
          const CooMatrix grown{A.rows(), A.cols(), prefix(all.row, held), prefix(all.col, held), prefix(all.val, held)};
          CsrMatrix C = coo_to_csr(grown);
        }
      });
      const std::string row2 =
          fmt::format("| {} | {} | {:.1f} | {:.1f} | {:.1f} | {:.2f}x | {:.2f}x | {} | {:.1f} |\n", m.name, batches,
                      dcsr_ms, csr_ms, coo_ms, csr_ms / dcsr_ms, coo_ms / dcsr_ms, stream_defrags, sort_ms);
      t2 += row2;
      std::cout << row2 << std::flush;
      out["streaming"].push_back({{"matrix", m.name}, {"batches", batches}, {"dcsr_ms", dcsr_ms},
                                  {"csr_rebuild_ms", csr_ms}, {"coo_sort_ms", coo_ms},
                                  {"defragmentations", stream_defrags}, {"batch_sort_ms", sort_ms}});

      // Iterative updates.
      const int rounds = 50;
      const std::size_t fresh = std::max<std::size_t>(1, static_cast<std::size_t>(A.nnz() * 0.002));
      std::mt19937_64 rng(5);
      std::vector<CooMatrix> updates;
      for (int k = 0; k < rounds; ++k) {
        std::vector<index_t> ur(fresh), uc(fresh);
        std::vector<double> uv(fresh, 1e-3);
        for (std::size_t e = 0; e < fresh; ++e) {
          ur[e] = static_cast<index_t>(rng() % A.rows());
          uc[e] = static_cast<index_t>(rng() % A.cols());
        }
        updates.push_back(coo_slice(A.rows(), A.cols(), 0, fresh, ur, uc, uv));
      }
      const Vector x = random_vector(A.cols(), 3, Space::device);
      Vector y(A.rows(), Space::device), y2(A.rows(), Space::device);
      int defrags = 0;
      DcsrMatrix D = DcsrMatrix::from_csr(A);
      const double it_dcsr = device::elapsed_ms([&] {
        for (const CooMatrix& u : updates) {
          defrags += D.insert(u).defragmentations;
          for (int s = 0; s < 5; ++s) D.spmv(1.0, x, 0.0, y);
        }
      });
      CsrMatrix C = A.clone();
      const double it_csr = device::elapsed_ms([&] {
        for (const CooMatrix& u : updates) {
          C = add(1.0, C, 1.0, coo_to_csr(u));
          for (int s = 0; s < 5; ++s) spmv(C, x, y2);
        }
      });
      check_same(y, y2, m.name + " after the updates");
      const std::string row3 = fmt::format("| {} | {} | {} | {:.1f} | {:.1f} | {:.2f}x | {} |\n", m.name, rounds,
                                           fresh, it_dcsr, it_csr, it_csr / it_dcsr, defrags);
      t3 += row3;
      std::cout << row3 << std::flush;
      out["iterative"].push_back({{"matrix", m.name}, {"rounds", rounds}, {"new_per_round", fresh},
                                  {"dcsr_ms", it_dcsr}, {"csr_ms", it_csr}, {"defragmentations", defrags}});
    }
    std::ofstream(json_path) << out.dump(2) << "\n";
    if (!md_path.empty())
      std::ofstream(md_path) << fmt::format("# DCSR against CSR — {} (CUDA runtime {}), copy {:.0f} GB/s\n\n", info.name,
                                            info.runtime_version, bw)
                             << "## SpMV, conversion, defragmentation, memory\n\n" << t1
                             << "\n## Streaming: the matrix inserted in batches\n\n" << t2
                             << "\n## Iterative updates: new nonzeros, then 5 SpMVs, per round\n\n" << t3;
  } catch (const std::exception& e) {
    std::cerr << "saga-bench-dcsr: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
