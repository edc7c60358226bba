// `gpuprim tune [FAMILY...] [--quick] [--budget SECONDS] [--show]`: measure
// the device algorithms' candidate launch configurations on this GPU, print
// a table per algorithm, type and size, and store the winners in the
// per-device cache that later calls read (gpuprim/tune/cache.hpp).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "lab/bench/bench.hpp"
#include "commands.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/tune/cache.hpp"
#include "gpuprim/tune/tuner.hpp"
#include "options.hpp"

namespace gpuprim::cli {
namespace {

namespace tn = gpuprim::tuning;

// Every family of the library; each has at least one space (src/tune/
// config.cpp). A family without one would be reported as having nothing
// tunable rather than as unknown.
const std::vector<std::string> all_families = {
    "reduce",          "scan",      "segmented", "histogram", "sort",
    "sorting-network", "transpose", "convolve",  "spmv",      "closest-pair"};

struct tune_options_cli {
  std::vector<std::string> families;
  bool quick = false;
  bool show = false;
  double budget_seconds = 0.0;  // 0: no time limit
  std::uint64_t seed = 1;
};

std::string size_name(int log2_size) {
  return "2^" + std::to_string(log2_size);
}

int show_cache() {
  std::optional<std::filesystem::path> path;
  if (cuda_device_count() > 0) {
    path = tn::cache_path(tn::current_device_key());
  } else if (const char* file = std::getenv("GPUPRIM_TUNE_CACHE");
             file && *file && std::string_view(file) != "off") {
    path = file;
  } else {
    std::printf(
        "no CUDA device: no tuning cache to show (set GPUPRIM_TUNE_CACHE to name a file)\n");
    return exit_success;
  }
  if (!path) {
    std::printf("the tuning cache is off (GPUPRIM_TUNE_CACHE=off)\n");
    return exit_success;
  }
  std::error_code ec;
  if (!std::filesystem::exists(*path, ec)) {
    std::printf("no tuning cache at %s (run `gpuprim tune`)\n", path->c_str());
    return exit_success;
  }
  std::string problem;
  const auto contents = tn::read_cache_any_device(*path, &problem);
  if (!contents) throw usage_error(path->string() + " " + problem);
  const tn::device_key& d = contents->device;
  std::printf("tuning cache %s\ndevice: %s (sm_%d%d, %d SMs), version %d\n\n", path->c_str(),
              d.name.c_str(), d.compute_capability_major, d.compute_capability_minor,
              d.multiprocessors, tn::cache_version);
  std::printf("| algorithm | type | size | config | time (us) | default (us) | gain |\n");
  std::printf("| --- | --- | --- | --- | ---: | ---: | ---: |\n");
  for (const tn::cache_entry& e : contents->entries) {
    const tn::space& s = tn::space_of(e.id);
    std::printf("| %s | %s | %s | %s | %.2f | %.2f | %.3fx |\n", s.name.c_str(),
                std::string(tn::element_type_name(e.type)).c_str(), size_name(e.log2_size).c_str(),
                s.describe(e.choice).c_str(), e.time_us, e.default_time_us,
                e.time_us > 0 ? e.default_time_us / e.time_us : 1.0);
  }
  return exit_success;
}

void print_result(const tn::tune_result& r) {
  const tn::space& s = *r.algorithm;
  std::printf("\n%s %s, n = 2^%d (%s, %zu of %zu candidates)\n", s.name.c_str(),
              std::string(tn::element_type_name(r.type)).c_str(), tn::size_bucket(r.n),
              r.exhaustive ? "exhaustive" : "budgeted", r.rows.size(), s.candidates.size());
  std::printf(
      "| config | time (us) | spread (us) | GB/s | registers | shared (B) | blocks/SM | "
      "occupancy | |\n");
  std::printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const tn::candidate_row& row = r.rows[i];
    std::string note = i == 0 ? "default" : "";
    if (i == r.winner) note += note.empty() ? "winner" : ", winner";
    if (!row.time.ok) {
      std::printf("| %s | failed | | | | | | | %s |\n", s.describe(row.candidate).c_str(),
                  note.c_str());
      continue;
    }
    std::printf("| %s | %.2f | %.2f | %.0f | %d | %d | %d of %d | %.0f%% | %s |\n",
                s.describe(row.candidate).c_str(), row.time.median_us, row.time.spread_us, row.gbs,
                row.kernel.registers, row.kernel.shared_bytes, row.kernel.blocks_per_sm,
                row.kernel.max_blocks_per_sm, 100.0 * row.kernel.occupancy, note.c_str());
  }
  std::printf("winner: %s, %.3fx the default's speed%s\n",
              s.describe(r.rows[r.winner].candidate).c_str(), r.gain(),
              r.winner == 0 ? " (the default; others within the noise or slower)" : "");
}

int run_tune(const tune_options_cli& o) {
  if (o.show) return show_cache();
  // Which spaces: the named families (or all).
  std::vector<const tn::space*> chosen;
  std::vector<std::string> untuned;
  const bool all = o.families.empty() ||
                   std::find(o.families.begin(), o.families.end(), "all") != o.families.end();
  for (const std::string& name : all ? all_families : o.families) {
    const std::string f = bench::canonical_family(name);
    if (std::find(all_families.begin(), all_families.end(), f) == all_families.end())
      throw usage_error("unknown family '" + name +
                        "' (families: all, reduce, scan, segmented, "
                        "histogram, sort, sorting-network, transpose, convolve, spmv, "
                        "closest-pair)");
    bool any = false;
    for (const tn::space& s : tn::spaces()) {
      if (s.family == f) {
        chosen.push_back(&s);
        any = true;
      }
    }
    if (!any) untuned.push_back(f);
  }
  if (!tn::tuning_available()) {
    std::printf("nothing to tune: %s\n", GPUPRIM_HAS_CUDA
                                             ? "no CUDA device is present"
                                             : "this gpuprim was built without the CUDA backend");
    return exit_success;
  }
  for (const std::string& f : untuned)
    std::fprintf(stderr, "gpuprim tune: %s has no tunable configuration yet, skipped\n", f.c_str());

  // Jobs: each space, type and size (--quick: the first type only).
  struct job {
    const tn::space* s;
    tn::element_type type;
    int log2_size;
  };
  std::vector<job> jobs;
  for (const tn::space* s : chosen) {
    for (std::size_t t = 0; t < s->types.size() && (!o.quick || t == 0); ++t) {
      for (int size : s->log2_sizes)
        jobs.push_back({s, s->types[t], size});
    }
  }
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  const tn::device_key device = tn::current_device_key();
  std::printf("tuning on %s (sm_%d%d, %d SMs)%s\n", device.name.c_str(),
              device.compute_capability_major, device.compute_capability_minor,
              device.multiprocessors, o.quick ? ", quick" : "");

  std::vector<tn::cache_entry> winners;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    const job& jb = jobs[j];
    tn::tune_options options;
    options.search.seed = o.seed;
    if (o.quick) {
      options.warmup_runs = 2;
      options.timed_runs = 11;
      options.search.max_trials = 12;
    }
    if (o.budget_seconds > 0) {
      // Each job gets an equal share of what is left.
      const auto job_start = clock::now();
      const double left =
          o.budget_seconds - std::chrono::duration<double>(job_start - start).count();
      const double share = std::max(0.0, left / double(jobs.size() - j));
      options.search.out_of_time = [job_start, share] {
        return std::chrono::duration<double>(clock::now() - job_start).count() > share;
      };
    }
    const std::string what = jb.s->name + " " + std::string(tn::element_type_name(jb.type)) +
                             " 2^" + std::to_string(jb.log2_size);
    options.progress = [&](const tn::config& c) {
      std::fprintf(stderr, "[%zu/%zu] %s: %s\n", j + 1, jobs.size(), what.c_str(),
                   jb.s->describe(c).c_str());
    };
    const tn::tune_result r =
        tune(jb.s->name, tn::element_type_name(jb.type), std::uint64_t(1) << jb.log2_size, options);
    print_result(r);
    std::fflush(stdout);
    winners.push_back({jb.s->id, jb.type, jb.log2_size, r.rows[r.winner].candidate,
                       r.rows[r.winner].time.median_us, r.rows[0].time.median_us});
  }
  // Stored once at the end: an interrupted run leaves the old cache as it was.
  const auto path = tn::cache_path(device);
  if (!path) {
    std::printf("\nnot stored: the tuning cache is off (GPUPRIM_TUNE_CACHE=off)\n");
  } else if (!winners.empty()) {
    tn::store_cache(*path, device, winners);
    std::printf("\nstored %zu winners in %s\n", winners.size(), path->c_str());
  }
  std::fprintf(stderr, "gpuprim tune: %.1f s\n",
               std::chrono::duration<double>(clock::now() - start).count());
  return exit_success;
}

// `gpuprim tune --help`: what the command does, then each of its options.
constexpr command_help help(R"(
tune: Measure the GPU algorithms' launch configurations and store the fastest
FAMILY: Families to tune (default: all): all, reduce, scan, segmented, histogram, sort,
  sorting-network, transpose, convolve, spmv, closest-pair (spelt as the commands; closest_pair,
  segmented_reduce and sorting_network are taken too, as in `gpuprim bench`)
--quick: Fewer runs per candidate, the first type only
--budget: Seconds for the whole run, shared among the algorithms (default: no limit)
--seed: Seed of the budgeted search's random samples
--show: Print the stored tuning cache of this GPU and exit
)");

}  // namespace

command add_tune_command(CLI::App& app) {
  const auto [cmd, opts] = help.add_to<tune_options_cli>(app);
  cmd->add_option("FAMILY", opts->families, help["FAMILY"])->type_name("FAMILY");
  cmd->add_flag("--quick", opts->quick, help["--quick"]);
  cmd->add_option("--budget", opts->budget_seconds, help["--budget"])->check(CLI::PositiveNumber);
  cmd->add_option("--seed", opts->seed, help["--seed"]);
  cmd->add_flag("--show", opts->show, help["--show"]);
  return [opts] { return run_tune(*opts); };
}

}  // namespace gpuprim::cli
