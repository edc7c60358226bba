// The tuner's spaces of the families plugged in after reduce, histogram and
// segmented reduce (issue 23, item 1): for each algorithm, a call through
// the public API reports the config it used (tuning::last_use), every
// candidate forced on it gives the default's result, and gp::tune measures
// every candidate with each result checked against the default's.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "gpuprim/closest_pair.hpp"
#include "gpuprim/convolve.hpp"
#include "gpuprim/filters.hpp"
#include "gpuprim/scan.hpp"
#include "gpuprim/segmented.hpp"
#include "gpuprim/sort.hpp"
#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "gpuprim/transpose.hpp"
#include "gpuprim/tune/cache.hpp"
#include "gpuprim/tune/tuner.hpp"
#include "support/cuda_fixture.hpp"

namespace {

namespace fs = std::filesystem;
namespace gp = gpuprim;
using namespace gpuprim::tuning;

// Values in [0, 1) from a hash of the index (no two runs differ).
std::vector<float> unit_values(std::size_t n, std::uint64_t seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t x = (i + seed) * 0x9e3779b97f4a7c15ull;
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    v[i] = static_cast<float>(double(x >> 11) * 0x1.0p-53);
  }
  return v;
}

// One plugged algorithm: its space, and a call of the public API on a fixed
// input that is large enough for the space's parameters to act, returning
// the result as numbers.
struct plugged {
  algorithm id;
  std::function<std::vector<double>()> run;
  double tolerance;  // relative to 1 + |default's value|
};

template <class T>
std::vector<double> as_doubles(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

// A rows x cols matrix of unit_values on the device, and an output of as many
// elements for a matrix call to write.
struct matrix_call {
  std::size_t rows, cols;
  gp::device_vector<float> in, out;
  matrix_call(std::size_t r, std::size_t c, std::uint64_t seed)
      : rows(r), cols(c), in(gp::to_device(unit_values(r * c, seed))), out(r * c) {}
  gp::device_matrix_view<const float> input() const { return {in.data(), rows, cols}; }
  gp::device_matrix_view<float> output(std::size_t r, std::size_t c) { return {out.data(), r, c}; }
  std::vector<double> result() const { return as_doubles(gp::to_host(out)); }
};

std::vector<plugged> plugged_algorithms() {
  std::vector<plugged> all;
  // scan: 2^23 floats is more tiles than are resident, so the prefetch acts.
  all.push_back({algorithm::scan,
                 [] {
                   const auto x = gp::to_device(unit_values(1u << 23, 1));
                   gp::device_vector<float> y(x.size());
                   gp::inclusive_scan(gp::cuda, x, y);
                   return as_doubles(gp::to_host(y));
                 },
                 24 * 1.2e-7});
  all.push_back({algorithm::segmented_scan,
                 [] {
                   const std::size_t n = 1u << 23;
                   const auto x = gp::to_device(unit_values(n, 2));
                   std::vector<std::uint8_t> heads(n, 0);
                   for (std::size_t i = 0; i < n; i += 1000)
                     heads[i] = 1;
                   const auto flags = gp::to_device(heads);
                   gp::device_vector<float> y(n);
                   gp::inclusive_segmented_scan(gp::cuda, x, flags, y);
                   return as_doubles(gp::to_host(y));
                 },
                 24 * 1.2e-7});
  // radix sort, keys only: 2^20 + 5 keys, many tiles per pass.
  all.push_back({algorithm::radix_sort,
                 [] {
                   std::vector<std::uint32_t> keys(1u << 20 | 5);
                   for (std::size_t i = 0; i < keys.size(); ++i)
                     keys[i] = static_cast<std::uint32_t>((i * 2654435761u) ^ (i >> 7));
                   gp::device_vector<std::uint32_t> d = gp::to_device(keys);
                   gp::sort(gp::cuda, d);
                   return as_doubles(gp::to_host(d));
                 },
                 0.0});
  // bitonic sort of 2^17 floats: longer than every tile, so global steps run.
  all.push_back({algorithm::sorting_network,
                 [] {
                   gp::device_vector<float> d = gp::to_device(unit_values(1u << 17, 3));
                   gp::bitonic_sort(gp::cuda, d);
                   return as_doubles(gp::to_host(d));
                 },
                 0.0});
  // transpose: odd sides (edge tiles of every candidate's shape).
  all.push_back({algorithm::transpose,
                 [] {
                   matrix_call m(1001, 777, 4);
                   gp::transpose(gp::cuda, m.input(), m.output(m.cols, m.rows));
                   return m.result();
                 },
                 0.0});
  // convolve: a general 5 x 5 filter (unrolled or looped kernel, capacity
  // 5 or 9).
  all.push_back({algorithm::convolve,
                 [] {
                   matrix_call m(300, 517, 5);
                   std::vector<double> w(25);
                   for (std::size_t i = 0; i < w.size(); ++i)
                     w[i] = 0.5 + 0.03 * double(i);
                   gp::convolve(gp::cuda, m.input(), gp::filter(5, 5, w), m.output(m.rows, m.cols),
                                gp::border::mirror);
                   return m.result();
                 },
                 64 * 1.2e-7});
  all.push_back({algorithm::spmv,
                 [] {
                   const auto A = gp::to_device(gp::poisson2d<float, int>(256));
                   const auto x = gp::to_device(unit_values(A.cols(), 6));
                   gp::device_vector<float> y(A.rows());
                   gp::spmv(gp::cuda, 1.0f, A, x, 0.0f, y);
                   return as_doubles(gp::to_host(y));
                 },
                 16 * 1.2e-7});
  // closest pair: 2^16 points, the grid algorithm (automatic at this size).
  all.push_back({algorithm::closest_pair,
                 [] {
                   const std::size_t n = 1u << 16;
                   const auto x = gp::to_device(unit_values(n, 7));
                   const auto y = gp::to_device(unit_values(n, 8));
                   const gp::closest_pair_result r =
                       gp::closest_pair(gp::cuda, x, y, gp::closest_pair_algorithm::grid);
                   return std::vector<double>{double(r.i), double(r.j), r.squared_distance};
                 },
                 0.0});
  return all;
}

class TuneFamilies : public gp::test::cuda_test {
 protected:
  void SetUp() override {
    gp::test::cuda_test::SetUp();
    if (IsSkipped()) return;
    ::setenv("GPUPRIM_TUNE_CACHE", "off", 1);
    detail::reset_loaded_caches();
  }
  void TearDown() override {
    for (int a = 0; a < static_cast<int>(algorithm::count); ++a)
      detail::force(static_cast<algorithm>(a), nullptr);
    ::unsetenv("GPUPRIM_TUNE_CACHE");
    detail::reset_loaded_caches();
  }
};

void expect_agree(const std::vector<double>& got, const std::vector<double>& reference,
                  double tolerance, const std::string& what) {
  ASSERT_EQ(got.size(), reference.size()) << what;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(std::abs(got[i] - reference[i]) <= tolerance * (1 + std::abs(reference[i])))) {
      if (++bad <= 3)
        ADD_FAILURE() << what << ": [" << i << "] " << got[i] << " vs " << reference[i];
    }
  }
  EXPECT_EQ(bad, 0u) << what;
}

TEST_F(TuneFamilies, EveryForcedCandidateIsReportedAndGivesTheDefaultsResult) {
  for (const plugged& p : plugged_algorithms()) {
    const space& s = space_of(p.id);
    SCOPED_TRACE(s.name);
    const std::vector<double> reference = p.run();
    ASSERT_TRUE(last_use(p.id)) << "the call did not report its config";
    EXPECT_EQ(last_use(p.id)->source, choice_source::default_config);
    EXPECT_EQ(last_use(p.id)->choice, s.default_config);
    for (const config& c : s.candidates) {
      detail::force(p.id, &c);
      const std::vector<double> got = p.run();
      detail::force(p.id, nullptr);
      ASSERT_TRUE(last_use(p.id));
      EXPECT_EQ(last_use(p.id)->source, choice_source::forced) << s.describe(c);
      EXPECT_EQ(last_use(p.id)->choice, c) << s.describe(c);
      expect_agree(got, reference, p.tolerance, s.describe(c));
    }
  }
}

// A stored winner is what a later call uses.
TEST_F(TuneFamilies, AStoredChoiceIsReadBackByEachAlgorithm) {
  const fs::path path =
      fs::temp_directory_path() / ("gpuprim_tune_families_" + std::to_string(::getpid()) + ".json");
  ::setenv("GPUPRIM_TUNE_CACHE", path.c_str(), 1);
  for (const plugged& p : plugged_algorithms()) {
    const space& s = space_of(p.id);
    SCOPED_TRACE(s.name);
    // The last candidate is never the default in these spaces; stored for
    // every size bucket and type the test's calls can have.
    const config stored = s.candidates.back();
    ASSERT_NE(stored, s.default_config);
    std::vector<cache_entry> entries;
    for (element_type t : {element_type::f32, element_type::u32})
      entries.push_back({p.id, t, 20, stored, 1.0, 2.0});
    store_cache(path, current_device_key(), entries);
    detail::reset_loaded_caches();
    p.run();
    ASSERT_TRUE(last_use(p.id));
    EXPECT_EQ(last_use(p.id)->source, choice_source::cache);
    EXPECT_EQ(last_use(p.id)->choice, stored);
  }
  std::error_code ec;
  fs::remove(path, ec);
  fs::remove(fs::path(path.string() + ".lock"), ec);
}

// gp::tune measures every candidate of each new space (small sizes) and
// each agreed with the default's result (a failed check is ok = false).
TEST_F(TuneFamilies, TuneMeasuresEveryCandidateOfEachNewSpace) {
  const std::vector<std::pair<std::string, int>> jobs = {
      {"scan", 20},      {"segmented_scan", 20}, {"radix_sort", 20}, {"sorting_network", 16},
      {"transpose", 18}, {"convolve", 18},       {"spmv", 16},       {"closest_pair", 16}};
  tune_options options;
  options.warmup_runs = 1;
  options.timed_runs = 3;
  for (const auto& [name, log2_n] : jobs) {
    const space& s = *find_space(name);
    for (element_type t : s.types) {
      const std::string type(element_type_name(t));
      SCOPED_TRACE(name + " " + type);
      const tune_result r = gp::tune(name, type, std::uint64_t(1) << log2_n, options);
      ASSERT_EQ(r.algorithm, &s);
      ASSERT_EQ(r.rows.size(), s.candidates.size());
      EXPECT_EQ(r.rows[0].candidate, s.default_config);
      for (const candidate_row& row : r.rows) {
        EXPECT_TRUE(row.time.ok) << s.describe(row.candidate);
        EXPECT_GT(row.time.median_us, 0.0) << s.describe(row.candidate);
        EXPECT_GT(row.kernel.registers, 0) << s.describe(row.candidate);
        EXPECT_GT(row.kernel.threads, 0) << s.describe(row.candidate);
      }
      EXPECT_TRUE(r.rows[r.winner].time.ok);
    }
  }
}

TEST_F(TuneFamilies, SizesTheTunerCannotShapeAreArgumentErrors) {
  EXPECT_THROW(gp::tune("transpose", "uint32", 1000), std::invalid_argument);
  EXPECT_THROW(gp::tune("spmv", "float32", 1u << 17), std::invalid_argument);  // not a square
  EXPECT_THROW(gp::tune("sorting_network", "float32", 3000), std::invalid_argument);
  EXPECT_THROW(gp::tune("radix_sort", "float64", 1u << 10), std::invalid_argument);
}

}  // namespace
