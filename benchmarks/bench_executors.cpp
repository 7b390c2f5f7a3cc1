// saga-bench-executors: do two solvers on two executors (two CUDA streams)
// overlap when driven from two host threads? For each problem size, the same
// two independent AMG-PCG solves (3D 7-point, different right-hand sides) are
// timed one after the other on one thread, and at the same time on two
// threads, each on its own executor; K repetitions, median. Results equal the
// sequential ones bit for bit (checked). Writes JSON and prints a table.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <thread>

#include "api/saga.hpp"
#include "benchmarks/bench_common.hpp"
#include "core/device.hpp"
#include "problems/structured.hpp"
#include "sparse/vector_ops.hpp"

using namespace saga;

namespace {
using bench::median;
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Job {
  std::shared_ptr<const Executor> exec;
  std::unique_ptr<Solver> solver;
  Vector b, x;
  SolveResult result;
  void run() {
    ExecutorScope scope(exec);
    fill(x, 0.0);
    result = solver->solve(b, x);
  }
};
}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"saga executor-concurrency benchmark (run on a GPU machine)"};
  std::string json_path = "bench_executors.json";
  int repeat = 9;
  app.add_option("--json", json_path, "where to write the results as JSON");
  app.add_option("--repeat", repeat, "timed repetitions (median reported)");
  CLI11_PARSE(app, argc, argv);
  try {
    if (device::count() == 0) {
      std::cerr << "saga-bench-executors: no GPU\n";
      return 77;
    }
    nlohmann::json out;
    out["gpu"] = device::info().name;
    std::cout << "| 3D 7-pt N | rows | PCG its | one solve ms | two sequential ms | two concurrent ms | speedup |\n"
                 "|---:|---:|---:|---:|---:|---:|---:|\n";
    for (index_t N : {24, 48, 96, 160}) {
      Job jobs[2];
      for (int k = 0; k < 2; ++k) {
        jobs[k].exec = Executor::cuda();
        ExecutorScope scope(jobs[k].exec);
        CsrMatrix A = poisson(Stencil::fd3d_7pt, N, Space::device);
        jobs[k].b = random_vector(A.rows(), 17 + k, Space::device);
        jobs[k].x = Vector::zeros(A.rows(), Space::device);
        jobs[k].solver = std::make_unique<Solver>(std::move(A), AmgParams{}, SolverParams{}, jobs[k].exec);
        jobs[k].run();  // warm-up
      }
      const std::vector<double> h0 = jobs[0].result.residual_history, h1 = jobs[1].result.residual_history;
      std::vector<double> one, seq, con;
      for (int r = 0; r < repeat; ++r) {
        double t = now_s();
        jobs[0].run();
        one.push_back(now_s() - t);
        jobs[1].run();
        seq.push_back(now_s() - t);
        t = now_s();
        std::thread a([&] { jobs[0].run(); }), b([&] { jobs[1].run(); });
        a.join();
        b.join();
        con.push_back(now_s() - t);
        if (jobs[0].result.residual_history != h0 || jobs[1].result.residual_history != h1)
          throw Error("concurrent solves differ from the sequential ones");
      }
      const double o = median(one) * 1e3, s = median(seq) * 1e3, c = median(con) * 1e3;
      std::cout << fmt::format("| {} | {} | {} | {:.2f} | {:.2f} | {:.2f} | {:.2f} |\n", N,
                               static_cast<std::int64_t>(N) * N * N, jobs[0].result.iterations, o, s, c, s / c);
      out["runs"].push_back({{"N", N}, {"iterations", jobs[0].result.iterations}, {"one_ms", o},
                             {"sequential_ms", s}, {"concurrent_ms", c}, {"speedup", s / c}});
    }
    std::ofstream(json_path) << out.dump(2) << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "saga-bench-executors: " << e.what() << "\n";
    return 1;
  }
}
