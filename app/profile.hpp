#pragma once
// Setup-phase profiling (`saga profile-setup`, `saga sweep`): build the AMG
// hierarchy of a config R times after a warm-up and report, per phase and per
// level, the median time, its spread over the repetitions and its share of the
// setup, with the SpGEMM products (A·T, A·P, Pᵀ(AP)) separated: products,
// nnz, GFLOP/s. One profile per SpGEMM implementation, so the share and the
// speed-up can be compared in one run (000_... Fig. 1, 004_... Fig. 5).
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "app/config.hpp"
#include "api/saga.hpp"

namespace saga {

struct TimeStat {
  double median = 0, min = 0, max = 0;
  // (max - min) / median: the spread of the repetitions.
  double spread() const { return median > 0 ? (max - min) / median : 0.0; }
};
TimeStat time_stat(std::vector<double> samples);

struct SpgemmProfile {
  int level = 0;
  std::string product;  // AT | AP | PtAP
  std::int64_t products = 0, nnz = 0;
  TimeStat seconds;
  double gflops() const { return seconds.median > 0 ? 2.0 * products / seconds.median * 1e-9 : 0.0; }
};

struct SetupProfile {
  std::string config;
  std::string problem;
  Space backend = Space::host;
  std::string executor;
  std::string device;
  std::string spgemm;  // the implementation used
  index_t rows = 0;
  std::int64_t nnz = 0;
  int repeat = 0;
  int levels = 0;
  double operator_complexity = 0;
  TimeStat setup;
  std::vector<std::string> phases;                     // setup_phases()
  std::vector<TimeStat> phase_total;                   // per phase, summed over levels
  std::vector<std::vector<TimeStat>> phase_level;      // [level][phase]
  std::vector<SpgemmProfile> spgemm_products;          // per level and product
  TimeStat spgemm_total;                               // A·T + A·P + Pᵀ(AP)
  double spgemm_share() const { return setup.median > 0 ? spgemm_total.median / setup.median : 0.0; }
  HierarchyStats last;                                 // the last repetition's stats
};

// SpGEMM implementations a profile can use on a backend ("all" expands to these).
std::vector<std::string> profile_spgemm_choices(Space backend);

// Builds the problem once, then the hierarchy 1 + repeat times (the first is a
// warm-up and is not counted). `spgemm` empty: the config's choice.
SetupProfile profile_setup(const RunConfig& config, const std::shared_ptr<const Executor>& exec, int repeat,
                           const std::string& spgemm = "");

std::string format_profile(const SetupProfile& p);
nlohmann::json to_json(const SetupProfile& p);
// One CSV row per phase (level "all") and per phase and level; header first
// when `header`.
void write_profile_csv(const SetupProfile& p, std::ostream& out, bool header);

// A sweep: several configs x SpGEMM choices (YAML, docs/config.md).
struct SweepConfig {
  std::vector<std::string> configs;   // paths (relative to the sweep file)
  std::vector<std::string> spgemm;    // names, or "all"
  std::string backend = "auto";
  int repeat = 5;
  std::string name;
};
SweepConfig load_sweep(const std::string& path);

}  // namespace saga
