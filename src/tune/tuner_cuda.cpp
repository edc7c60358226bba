// gp::tune on a CUDA device: each candidate runs through the library's own
// entry point with the config forced on this thread (tuning::detail::force),
// so the tuner measures exactly the code a later call runs, and needs no
// kernels of its own.
#include "tuner_cuda.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/error.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/detail/timing.hpp"
#include "gpuprim/tune/cache.hpp"
#include "gpuprim/tune/tuner.hpp"

namespace gpuprim {
namespace tuning {
bool tuning_available() {
  return cuda_device_count() > 0;
}

namespace cuda_tuning {
tune_result run_search(const tuning_job& job, double bytes_moved, cudaStream_t stream,
                       std::size_t copies, const std::function<void(std::size_t)>& enqueue,
                       const std::function<bool()>& result_ok,
                       const std::function<void()>& before_check) {
  const space& s = job.s;
  const tune_options& options = job.options;
  std::map<int, kernel_report> reports;
  const measure_fn measure = [&](const config& c) {
    if (options.progress) options.progress(c);
    const forced_config forced(s.id, c);
    measurement m;
    try {
      if (before_check) before_check();
      tuning::detail::want_kernel_report();
      enqueue(0);
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
      reports[s.index_of(c)] = tuning::detail::take_kernel_report();
      if (!result_ok()) return measurement{0.0, 0.0, false};
      // Isolated runs (the host waits for each): median and interquartile range.
      const gpuprim::detail::timing t = gpuprim::detail::time_device(
          stream, [&](int call) { enqueue(static_cast<std::size_t>(call) % copies); },
          {.warmup_runs = options.warmup_runs, .timed_runs = options.timed_runs});
      m = measurement{t.median_us, t.spread_us, true};
    } catch (const cuda_error&) {
      cudaGetLastError();
      return measurement{0.0, 0.0, false};
    }
    return m;
  };
  search_result found = search(s, measure, options.search);
  if (found.winner != 0) {
    // Confirmation: the default and the winner again, alternately, three
    // times each; the winner stays only if the medians of those runs still
    // put it ahead by more than the noise (machines drift during a search).
    std::vector<double> again_default, again_winner;
    bool all_ran = true;
    for (int round = 0; round < 3; ++round) {
      const measurement d = measure(found.default_trial().candidate);
      const measurement w = measure(found.best().candidate);
      all_ran = all_ran && d.ok && w.ok;
      again_default.push_back(d.median_us);
      again_winner.push_back(w.median_us);
    }
    std::sort(again_default.begin(), again_default.end());
    std::sort(again_winner.begin(), again_winner.end());
    const std::vector<trial> pair = {
        {found.default_trial().candidate,
         {again_default[1], found.default_trial().time.spread_us, true}},
        {found.best().candidate, {again_winner[1], found.best().time.spread_us, true}}};
    if (!all_ran || pick_winner(pair, options.search.noise_floor) == 0) found.winner = 0;
  }
  tune_result result;
  result.algorithm = &s;
  result.type = job.type;
  result.n = job.n;
  result.exhaustive = found.exhaustive;
  result.winner = found.winner;
  for (const trial& t : found.trials) {
    candidate_row row{t.candidate, t.time, 0.0, reports[s.index_of(t.candidate)]};
    if (t.time.ok && t.time.median_us > 0.0) row.gbs = bytes_moved / (t.time.median_us * 1e3);
    result.rows.push_back(row);
  }
  return result;
}

namespace {

// What n a family's tuning input needs.
enum class size_rule {
  positive,
  at_least_two,   // points: a pair at least
  power_of_two,   // at least 2
  matrix,         // 2^k elements, k >= 2: a square (or 1 x 2 rectangle) of them
  square_matrix,  // 2^k elements, k even and >= 2
};

struct family {
  algorithm id;
  family_tuner run;
  size_rule sizes;
};

// The job, once n is checked against `rule` (std::invalid_argument saying
// what n must be), with the matrix shape for the matrix rules.
tuning_job checked_job(const space& s, element_type type, std::uint64_t n,
                       const tune_options& options, size_rule rule) {
  const std::string prefix = "tune " + s.name + ": n must be ";
  const bool power_of_two = n != 0 && (n & (n - 1)) == 0;
  tuning_job job{s, type, n, options};
  switch (rule) {
    case size_rule::positive:
      if (n == 0) throw std::invalid_argument(prefix + "positive");
      break;
    case size_rule::at_least_two:
      if (n < 2) throw std::invalid_argument(prefix + "at least 2");
      break;
    case size_rule::power_of_two:
      if (n < 2 || !power_of_two)
        throw std::invalid_argument(prefix + "a power of two of at least 2");
      break;
    case size_rule::matrix:
    case size_rule::square_matrix: {
      if (n < 4 || !power_of_two)
        throw std::invalid_argument(prefix + "a power of two of at least 4 (rows x cols)");
      const int k = size_bucket(n);
      job.rows = std::size_t(1) << (k / 2);
      job.cols = std::size_t(1) << (k - k / 2);
      if (rule == size_rule::square_matrix && job.rows != job.cols)
        throw std::invalid_argument(prefix + "a square (an even power of two)");
      break;
    }
  }
  return job;
}

}  // namespace
}  // namespace cuda_tuning
}  // namespace tuning

tuning::tune_result tune(std::string_view algorithm_name, std::string_view type_name,
                         std::uint64_t n, const tuning::tune_options& options) {
  const tuning::space* s = tuning::find_space(algorithm_name);
  if (!s)
    throw std::invalid_argument("tune: unknown algorithm '" + std::string(algorithm_name) + "'");
  const tuning::element_type type = tuning::parse_element_type(type_name);
  if (std::find(s->types.begin(), s->types.end(), type) == s->types.end())
    throw std::invalid_argument("tune " + s->name + ": no tuning inputs for type '" +
                                std::string(type_name) + "'");
  if (!tuning::tuning_available())
    throw cuda_error(cudaErrorNoDevice, "cudaGetDeviceCount", "tune", "no CUDA device");
  using namespace tuning::cuda_tuning;
  static constexpr family families[] = {
      {tuning::algorithm::reduce, tune_reduce, size_rule::positive},
      {tuning::algorithm::histogram, tune_histogram, size_rule::positive},
      {tuning::algorithm::segmented_reduce, tune_segmented_reduce, size_rule::positive},
      {tuning::algorithm::scan, tune_scan, size_rule::positive},
      {tuning::algorithm::segmented_scan, tune_scan, size_rule::positive},
      {tuning::algorithm::radix_sort, tune_radix_sort, size_rule::positive},
      {tuning::algorithm::sorting_network, tune_sorting_network, size_rule::power_of_two},
      {tuning::algorithm::transpose, tune_transpose, size_rule::matrix},
      {tuning::algorithm::convolve, tune_convolve, size_rule::matrix},
      {tuning::algorithm::spmv, tune_spmv, size_rule::square_matrix},
      {tuning::algorithm::closest_pair, tune_closest_pair, size_rule::at_least_two},
  };
  for (const family& f : families)
    if (f.id == s->id) return f.run(checked_job(*s, type, n, options, f.sizes));
  throw std::invalid_argument("tune: '" + s->name + "' has no tuner yet");
}

}  // namespace gpuprim
