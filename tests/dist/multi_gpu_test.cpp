// gp::multi_gpu against the one-process host result. The one-device case
// (degenerate: no exchange at all) runs with any GPU; the others need two
// or more and skip (never pass) otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/runtime.hpp"
#include "gpuprim/dist/multi_gpu.hpp"

namespace gp = gpuprim;

namespace {

std::vector<int> first_devices(int count) {
  std::vector<int> d(count);
  std::iota(d.begin(), d.end(), 0);
  return d;
}

void check_everything(const std::vector<int>& devices) {
  gp::multi_gpu gpus(devices);
  {
    // A vector without one slice per device is refused, untouched.
    const gp::multi_gpu_vector<float> none;
    EXPECT_THROW(gp::reduce(gpus, none, 0.0), std::invalid_argument);
    gp::multi_gpu_vector<float> out;
    EXPECT_THROW(gp::inclusive_scan(gpus, none, out), std::invalid_argument);
    EXPECT_EQ(out.slices(), 0);
  }
  for (std::size_t n :
       {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}, std::size_t{1} << 20}) {
    SCOPED_TRACE(std::to_string(n) + " elements on " + std::to_string(devices.size()) + " devices");
    std::mt19937_64 rng(n + 5);
    std::vector<std::int64_t> ints(n);
    for (auto& x : ints)
      x = static_cast<std::int64_t>(rng() % 2000) - 1000;
    auto d_ints = gp::multi_gpu_vector<std::int64_t>::scatter(gpus, ints);
    EXPECT_EQ(gp::reduce(gpus, d_ints, std::int64_t{3}),
              gp::reduce(gp::host, ints, std::int64_t{3}));
    if (n > 0) {
      const auto lo = gp::min_element(gpus, d_ints);
      const auto want = gp::min_element(gp::host, ints);
      EXPECT_EQ(lo.value, want.value);
      EXPECT_EQ(lo.index, want.index);
    }

    std::vector<std::int64_t> incl(n), excl(n);
    gp::inclusive_scan(gp::host, ints, incl);
    gp::exclusive_scan(gp::host, ints, excl, std::int64_t{7});
    auto out = gp::multi_gpu_vector<std::int64_t>(gpus, [&] {
      std::vector<std::uint64_t> s;
      for (int i = 0; i < gpus.size(); ++i)
        s.push_back(d_ints.slice(i).size());
      return s;
    }());
    gp::inclusive_scan(gpus, d_ints, out);
    EXPECT_EQ(out.gather(), incl);
    // In place (scan, then the carries), and a max scan (no identity: the
    // first elements come first).
    auto in_place = gp::multi_gpu_vector<std::int64_t>::scatter(gpus, ints);
    gp::inclusive_scan(gpus, in_place, in_place);
    EXPECT_EQ(in_place.gather(), incl);
    std::vector<std::int64_t> incl_max(n);
    gp::inclusive_scan(gp::host, ints, incl_max, gp::maximum{});
    gp::inclusive_scan(gpus, d_ints, out, gp::maximum{});
    EXPECT_EQ(out.gather(), incl_max);
    gp::exclusive_scan(gpus, d_ints, out, std::int64_t{7});
    EXPECT_EQ(out.gather(), excl);

    std::vector<float> samples(n);
    for (auto& x : samples)
      x = std::uniform_real_distribution<float>(0, 1)(rng);
    auto d_samples = gp::multi_gpu_vector<float>::scatter(gpus, samples);

    // The overlapped float sum is bit for bit the devices' partials taken
    // one device after another (local_partial, which waits on each) and
    // combined in device order, and the same on a second run.
    std::optional<double> in_order;
    for (int i = 0; i < gpus.size(); ++i) {
      gpus.use(i);
      const auto part = gp::detail::local_partial<double>(
          gpus.backend(i), d_samples.slice(i), gp::plus{}, gp::detail::unary_fetch<gp::identity>{});
      if (part) in_order = in_order ? *in_order + *part : *part;
    }
    const double want_sum = in_order ? 0.5 + *in_order : 0.5;
    const double sum = gp::reduce(gpus, d_samples, 0.5);
    EXPECT_EQ(std::memcmp(&sum, &want_sum, sizeof sum), 0) << sum << " vs " << want_sum;
    const double again = gp::reduce(gpus, d_samples, 0.5);
    EXPECT_EQ(std::memcmp(&sum, &again, sizeof sum), 0);
    EXPECT_NEAR(sum, gp::reduce(gp::host, samples, 0.5), 1e-9 * (1.0 + n));
    std::vector<std::uint32_t> want_counts(64);
    const auto want_left = gp::histogram_even(gp::host, samples, want_counts, 0.1f, 0.9f);
    std::vector<gp::device_vector<std::uint32_t>> counts;
    for (int i = 0; i < gpus.size(); ++i) {
      gpus.use(i);
      counts.emplace_back(64);
    }
    EXPECT_EQ(gp::histogram_even(gpus, d_samples, counts, 0.1f, 0.9f), want_left);
    for (int i = 0; i < gpus.size(); ++i) {
      gpus.use(i);
      EXPECT_EQ(gp::to_host(counts[i]), want_counts);
    }

    std::vector<std::uint32_t> keys(n);
    for (auto& k : keys)
      k = static_cast<std::uint32_t>(rng() % 100);  // many equal keys
    std::vector<std::uint32_t> values(n);
    std::iota(values.begin(), values.end(), 0u);
    std::vector<std::uint32_t> want_keys(n), want_values(n);
    gp::sort_by_key(gp::host, keys, values, want_keys, want_values);
    auto d_keys = gp::multi_gpu_vector<std::uint32_t>::scatter(gpus, keys);
    auto d_values = gp::multi_gpu_vector<std::uint32_t>::scatter(gpus, values);
    gp::multi_gpu_vector<std::uint32_t> k_out, v_out;
    const gp::sort_report r = gp::sort_by_key(gpus, d_keys, d_values, k_out, v_out);
    EXPECT_EQ(k_out.gather(), want_keys);
    EXPECT_EQ(v_out.gather(), want_values);
    if (n >= 1000u * devices.size()) EXPECT_LE(r.imbalance, 0.10);
    // Again into the same outputs (kept buffers, outputs reused), and
    // descending keys alone.
    gp::sort_by_key(gpus, d_keys, d_values, k_out, v_out);
    EXPECT_EQ(k_out.gather(), want_keys);
    EXPECT_EQ(v_out.gather(), want_values);
    std::vector<std::uint32_t> want_desc(n);
    gp::sort(gp::host, keys, want_desc, gp::sort_order::descending);
    gp::multi_gpu_vector<std::uint32_t> desc;
    gp::sort(gpus, d_keys, desc, gp::sort_order::descending);
    EXPECT_EQ(desc.gather(), want_desc);
  }
}

TEST(multi_gpu, OneDeviceIsTheDegenerateCase) {
  if (gp::cuda_device_count() < 1) GTEST_SKIP() << "no CUDA device";
  check_everything({0});
}

TEST(multi_gpu, TwoDevices) {
  if (gp::cuda_device_count() < 2) GTEST_SKIP() << "fewer than 2 CUDA devices";
  check_everything(first_devices(2));
}

TEST(multi_gpu, AllDevices) {
  if (gp::cuda_device_count() < 3) GTEST_SKIP() << "fewer than 3 CUDA devices";
  check_everything(first_devices(gp::cuda_device_count()));
}

}  // namespace
