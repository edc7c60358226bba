// The tuner on a GPU: tune a small reduction, store the winner, and check
// that a later call reads it back and agrees with the default's result.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <vector>

#include "gpuprim/histogram.hpp"
#include "gpuprim/reduce.hpp"
#include "gpuprim/segmented.hpp"
#include "gpuprim/tune/cache.hpp"
#include "gpuprim/tune/tuner.hpp"
#include "support/cuda_fixture.hpp"

namespace {

namespace fs = std::filesystem;
namespace gp = gpuprim;
using namespace gpuprim::tuning;

class TuneCuda : public gp::test::cuda_test {
 protected:
  void SetUp() override {
    gp::test::cuda_test::SetUp();
    if (IsSkipped()) return;
    path_ =
        fs::temp_directory_path() / ("gpuprim_tune_cuda_" + std::to_string(::getpid()) + ".json");
    fs::remove(path_);
    ::setenv("GPUPRIM_TUNE_CACHE", path_.c_str(), 1);
    detail::reset_loaded_caches();
  }
  void TearDown() override {
    ::unsetenv("GPUPRIM_TUNE_CACHE");
    detail::reset_loaded_caches();
    std::error_code ec;
    fs::remove(path_, ec);
    fs::remove(fs::path(path_.string() + ".lock"), ec);
  }
  fs::path path_;
};

TEST_F(TuneCuda, ReduceWinnerIsStoredReadBackAndAgreesWithTheDefault) {
  const std::uint64_t n = (1u << 16) + 7;
  tune_options options;
  options.warmup_runs = 1;
  options.timed_runs = 5;
  const tune_result r = gp::tune("reduce", "float32", n, options);
  ASSERT_EQ(r.algorithm, &space_of(algorithm::reduce));
  ASSERT_EQ(r.rows.size(), r.algorithm->candidates.size());  // exhaustive: a small space
  EXPECT_EQ(r.rows[0].candidate, r.algorithm->default_config);
  for (const candidate_row& row : r.rows) {
    SCOPED_TRACE(r.algorithm->describe(row.candidate));
    EXPECT_TRUE(row.time.ok);
    EXPECT_GT(row.time.median_us, 0.0);
    EXPECT_GT(row.kernel.registers, 0);
    EXPECT_GT(row.kernel.max_blocks_per_sm, 0);
    EXPECT_LE(row.kernel.blocks_per_sm, row.kernel.max_blocks_per_sm);
    EXPECT_GT(row.kernel.occupancy, 0.0);
    EXPECT_LE(row.kernel.occupancy, 1.0);
  }
  EXPECT_GE(r.gain(), 1.0);

  // Store a candidate other than the default, so that reading it back is seen.
  const config stored = r.algorithm->candidates.front();
  ASSERT_NE(stored, r.algorithm->default_config);
  store_cache(path_, current_device_key(),
              {{algorithm::reduce, element_type::f32, size_bucket(n), stored, 1.0, 2.0}});
  detail::reset_loaded_caches();

  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> host(n);
  for (float& x : host)
    x = dist(rng);
  const gp::device_vector<float> x = gp::to_device(host);

  const float tuned = gp::reduce(gp::cuda, x, 0.0f, gp::plus{});
  ASSERT_TRUE(last_use(algorithm::reduce));
  EXPECT_EQ(last_use(algorithm::reduce)->source, choice_source::cache);
  EXPECT_EQ(last_use(algorithm::reduce)->choice, stored);

  ::setenv("GPUPRIM_TUNE_CACHE", "off", 1);
  detail::reset_loaded_caches();
  const float by_default = gp::reduce(gp::cuda, x, 0.0f, gp::plus{});
  EXPECT_EQ(last_use(algorithm::reduce)->source, choice_source::default_config);
  EXPECT_EQ(last_use(algorithm::reduce)->choice, r.algorithm->default_config);
  double exact = 0.0;
  for (float v : host)
    exact += v;
  EXPECT_NEAR(tuned, by_default, 4 * 17 * 1.2e-7 * exact);
  EXPECT_NEAR(tuned, exact, 4 * 17 * 1.2e-7 * exact);
}

TEST_F(TuneCuda, HistogramWinnerIsReadBackAndCountsAgree) {
  const std::uint64_t n = (1u << 18) + 3;
  tune_options options;
  options.warmup_runs = 1;
  options.timed_runs = 5;
  for (const char* type : {"uint8", "float32"}) {
    SCOPED_TRACE(type);
    const tune_result r = gp::tune("histogram", type, n, options);
    ASSERT_EQ(r.rows.size(), r.algorithm->candidates.size());
    for (const candidate_row& row : r.rows) {
      EXPECT_TRUE(row.time.ok) << r.algorithm->describe(row.candidate);  // counts agreed
      EXPECT_GT(row.kernel.registers, 0);
    }
  }
  const config stored{1};
  store_cache(path_, current_device_key(),
              {{algorithm::histogram, element_type::u8, size_bucket(n), stored, 1.0, 2.0}});
  detail::reset_loaded_caches();
  std::vector<std::uint8_t> host(n);
  for (std::size_t i = 0; i < n; ++i)
    host[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 24);
  const gp::device_vector<std::uint8_t> x = gp::to_device(host);
  gp::device_vector<std::uint32_t> counts(256);
  gp::histogram_even(gp::cuda, x, counts, 0, 256);
  EXPECT_EQ(last_use(algorithm::histogram)->source, choice_source::cache);
  EXPECT_EQ(last_use(algorithm::histogram)->choice, stored);
  std::vector<std::uint32_t> expected(256, 0);
  for (std::uint8_t v : host)
    ++expected[v];
  EXPECT_EQ(gp::to_host(counts), expected);
}

TEST_F(TuneCuda, SegmentedReduceWinnerIsReadBackAndAgrees) {
  const std::uint64_t n = 1u << 17;
  tune_options options;
  options.warmup_runs = 1;
  options.timed_runs = 5;
  const tune_result r = gp::tune("segmented_reduce", "float32", n, options);
  ASSERT_EQ(r.rows.size(), r.algorithm->candidates.size());
  for (const candidate_row& row : r.rows)
    EXPECT_TRUE(row.time.ok) << r.algorithm->describe(row.candidate);

  const config stored{1};
  store_cache(path_, current_device_key(),
              {{algorithm::segmented_reduce, element_type::f32, size_bucket(n), stored, 1.0, 2.0}});
  detail::reset_loaded_caches();
  std::vector<float> host(n);
  for (std::size_t i = 0; i < n; ++i)
    host[i] = float(i % 7);
  std::vector<std::uint64_t> host_offsets;
  for (std::uint64_t at = 0; at <= n; at += 1024)
    host_offsets.push_back(at);
  const gp::device_vector<float> x = gp::to_device(host);
  const gp::device_vector<std::uint64_t> offsets = gp::to_device(host_offsets);
  gp::device_vector<float> sums(host_offsets.size() - 1);
  gp::segmented_reduce(gp::cuda, x, offsets, gp::device_span<float>(sums.data(), sums.size()),
                       0.0f);
  EXPECT_EQ(last_use(algorithm::segmented_reduce)->source, choice_source::cache);
  EXPECT_EQ(last_use(algorithm::segmented_reduce)->choice, stored);
  const std::vector<float> got = gp::to_host(sums);
  for (std::size_t s = 0; s < got.size(); ++s) {
    double exact = 0;
    for (std::uint64_t i = host_offsets[s]; i < host_offsets[s + 1]; ++i)
      exact += host[i];
    ASSERT_EQ(got[s], float(exact)) << "segment " << s;  // small integers: exact
  }
}

TEST_F(TuneCuda, AForeignCacheIsIgnoredAndTheDefaultUsed) {
  device_key other = current_device_key();
  other.multiprocessors += 1;
  store_cache(path_, other, {{algorithm::reduce, element_type::f32, 20, config{1}, 1.0, 2.0}});
  const gp::device_vector<float> x = gp::to_device(std::vector<float>(1u << 20, 1.0f));
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(gp::reduce(gp::cuda, x, 0.0f, gp::plus{}), float(1u << 20));
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("another device"), std::string::npos) << err;
  EXPECT_EQ(last_use(algorithm::reduce)->source, choice_source::default_config);
}

TEST_F(TuneCuda, UnknownAlgorithmOrTypeIsAnArgumentError) {
  EXPECT_THROW(gp::tune("fft", "float32", 1024), std::invalid_argument);
  EXPECT_THROW(gp::tune("reduce", "complex64", 1024), std::invalid_argument);
}

}  // namespace
