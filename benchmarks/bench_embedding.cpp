// saga-bench-embedding: what an embedding code pays (issue 16's acceptance), in
// one process on the GPU:
//  1. Numeric resetup against a full setup on the 3D seed problems: the setup
//     of a preconditioner from A, then resetups from new values on the same
//     pattern (1.5 A: timing does not depend on the values), keeping P (the
//     default, AmgX's / AMGCL's reuse: the first resetup, and the next ones
//     that reuse its A P) and refreshing P; each phase's time;
//     the PCG iterations after each against those after a fresh setup.
//  2. Zero copy: device memory in use after the setup of a Solver from a view
//     of the caller's device CSR (CsrMatrix::view) against one from the same
//     matrix copied (the const& constructor), at a large 3D 7-pt size.
// Writes JSON and Markdown.
#include <CLI/CLI.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "api/saga.hpp"
#include "benchmarks/bench_common.hpp"
#include "core/device.hpp"
#include "problems/structured.hpp"
#include "sparse/vector_ops.hpp"

using namespace saga;

namespace {
struct Problem {
  std::string name;
  Stencil stencil;
  index_t N;
};

double seconds_of(const std::function<void()>& f) {
  device::synchronize();
  const auto t0 = std::chrono::steady_clock::now();
  f();
  device::synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::size_t bytes_of(const CsrMatrix& A) { return static_cast<std::size_t>(bench::csr_bytes(A.rows(), A.nnz())); }

std::size_t in_use() {
  device::synchronize();
  return device::pool_usage().current;
}

std::string phases(const std::map<std::string, double>& p) {
  std::string s;
  for (const auto& [name, sec] : p)
    if (sec >= 5e-5) s += fmt::format("{}{} {:.1f}", s.empty() ? "" : ", ", name, 1e3 * sec);
  return s;
}
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"saga embedding benchmark: resetup against setup, zero-copy memory (run on a GPU machine)"};
  std::string json_path = "bench_embedding.json", md_path;
  int repeat = 5;
  index_t zero_copy_n = 512;
  app.add_option("--json", json_path, "where to write the results as JSON");
  app.add_option("--markdown", md_path, "also write the tables as Markdown");
  app.add_option("--repeat", repeat, "timed repetitions (median reported)");
  app.add_option("--zero-copy-n", zero_copy_n, "3D 7-pt N of the zero-copy memory measurement (0: skip)");
  CLI11_PARSE(app, argc, argv);
  try {
    std::optional<bench::Session> session = bench::start_session("saga-bench-embedding", repeat);
    if (!session) return 2;
    nlohmann::json& out = session->out;
    SolverParams sp;
    sp.tolerance = 1e-8;

    // ---- 1. resetup against setup -------------------------------------------------------------
    std::string t1 =
        "| problem | rows | setup ms | first resetup ms, P kept | next resetups ms, P kept | speed-up | resetup ms, "
        "P refreshed | speed-up | PCG its: setup / kept / refreshed |\n|---|---|---|---|---|---|---|---|---|\n";
    std::string t1p = "| problem | setup phases ms | next resetups' phases ms (P kept) |\n|---|---|---|\n";
    const std::vector<Problem> problems{{"3D 7-pt N=100", Stencil::fd3d_7pt, 100},
                                        {"3D 7-pt N=128", Stencil::fd3d_7pt, 128},
                                        {"3D 27-pt N=100", Stencil::fe3d_27pt, 100}};
    for (const Problem& pr : problems) {
      const CsrMatrix A = poisson(pr.stencil, pr.N, Space::device);
      CsrMatrix A2 = A.clone();
      scale(1.5, A2.mutable_val());
      const Vector b = random_vector(A.rows(), 7, Space::device);
      std::vector<double> ts, tk1, tk, tr;
      ResetupStats keep_stats;
      std::map<std::string, double> setup_phases;
      int its_setup = 0, its_kept = 0, its_refreshed = 0;
      for (int k = 0; k <= repeat; ++k) {  // the first of each is a warm-up
        std::unique_ptr<Solver> s;
        const double t = seconds_of([&] { s = std::make_unique<Solver>(A.clone(), AmgParams{}, sp); });
        if (k > 0) ts.push_back(t);
        if (k == repeat) {
          for (const auto& lvl : s->stats().levels)
            for (const auto& [name, sec] : lvl.seconds) setup_phases[name] += sec;
          Vector x = Vector::zeros(A.rows(), Space::device);
          its_setup = s->solve(b, x).iterations;
        }
        ResetupStats st;
        // P kept: the first resetup computes A P in full and keeps it, the
        // next ones (a time-stepping loop's steady state) only its values.
        const double a1 = seconds_of([&] { s->resetup(A2.clone(), ResetupOptions{false}); });
        const double a = seconds_of([&] { st = s->resetup(A2.clone(), ResetupOptions{false}); });
        if (k > 0) {
          tk1.push_back(a1);
          tk.push_back(a);
        }
        if (k == repeat) {
          keep_stats = st;
          Vector x = Vector::zeros(A.rows(), Space::device);
          its_kept = s->solve(b, x).iterations;
        }
        const double r = seconds_of([&] { s->resetup(A.clone(), ResetupOptions{true}); });
        if (k > 0) tr.push_back(r);
        if (k == repeat) {
          Vector x = Vector::zeros(A.rows(), Space::device);
          its_refreshed = s->solve(b, x).iterations;
        }
      }
      // The clone of A inside each timed call is part of neither: subtract it.
      std::vector<double> tc;
      for (int k = 0; k < repeat; ++k) tc.push_back(seconds_of([&] { CsrMatrix c = A.clone(); }));
      const double clone = bench::median(tc);
      const double setup = bench::median(ts) - clone, kept1 = bench::median(tk1) - clone,
                   kept = bench::median(tk) - clone, refreshed = bench::median(tr) - clone;
      const std::string row = fmt::format(
          "| {} | {} | {:.1f} | {:.1f} ({:.2f}x) | {:.1f} | {:.2f}x | {:.1f} | {:.2f}x | {} / {} / {} |\n", pr.name,
          A.rows(), 1e3 * setup, 1e3 * kept1, setup / kept1, 1e3 * kept, setup / kept, 1e3 * refreshed,
          setup / refreshed, its_setup, its_kept, its_refreshed);
      t1 += row;
      t1p += fmt::format("| {} | {} | {} |\n", pr.name, phases(setup_phases), phases(keep_stats.phase_seconds));
      std::cout << row << std::flush;
      out["resetup"].push_back({{"problem", pr.name},
                                {"rows", A.rows()},
                                {"setup_s", setup},
                                {"first_resetup_kept_s", kept1},
                                {"resetup_kept_s", kept},
                                {"resetup_refreshed_s", refreshed},
                                {"iterations", {its_setup, its_kept, its_refreshed}},
                                {"setup_phases_s", setup_phases},
                                {"resetup_kept_phases_s", keep_stats.phase_seconds}});
    }

    // ---- 2. zero copy ---------------------------------------------------------------------------
    std::string t2;
    if (zero_copy_n > 0) {
      t2 = "| problem | bytes(A) GiB | in use after setup, view GiB | from a copy GiB | difference GiB |\n"
           "|---|---|---|---|---|\n";
      const CsrMatrix A = poisson(Stencil::fd3d_7pt, zero_copy_n, Space::device);
      const double gib = 1024.0 * 1024.0 * 1024.0;
      const std::size_t base = in_use();
      std::size_t with_view = 0, with_copy = 0;
      std::string copy_note;
      {
        Solver s(CsrMatrix::view(A.rows(), A.cols(), A.nnz(), A.row_ptr().data(), A.col().data(), A.val().data(),
                                 Space::device),
                 AmgParams{}, sp);
        with_view = in_use();
      }
      try {
        Solver s(A, AmgParams{}, sp);  // the copying constructor
        with_copy = in_use();
      } catch (const DeviceError& e) {
        copy_note = e.what();
      }
      const std::string row =
          copy_note.empty()
              ? fmt::format("| 3D 7-pt N={} | {:.2f} | {:.2f} | {:.2f} | {:.2f} |\n", zero_copy_n, bytes_of(A) / gib,
                            (with_view - base) / gib, (with_copy - base) / gib,
                            (static_cast<double>(with_copy) - static_cast<double>(with_view)) / gib)
              : fmt::format("| 3D 7-pt N={} | {:.2f} | {:.2f} | out of memory | - |\n", zero_copy_n,
                            bytes_of(A) / gib, (with_view - base) / gib);
      t2 += row;
      if (!copy_note.empty()) t2 += "\nThe copy's setup failed: " + copy_note + "\n";
      std::cout << row << copy_note << std::flush;
      out["zero_copy"] = {{"N", zero_copy_n},          {"bytes_A", bytes_of(A)},
                          {"in_use_view", with_view - base}, {"in_use_copy", copy_note.empty() ? with_copy - base : 0},
                          {"copy_error", copy_note}};
    }

    std::ofstream(json_path) << out.dump(2) << "\n";
    if (!md_path.empty())
      std::ofstream(md_path) << "# Embedding: resetup and zero copy — " << session->info.name << "\n\n"
                             << "## Numeric resetup against a full setup (median of " << repeat << ")\n\n"
                             << t1 << "\n" << t1p << "\n## Zero copy: device memory after the setup\n\n" << t2;
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "saga-bench-embedding: " << e.what() << "\n";
    return 1;
  }
}
