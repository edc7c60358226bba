// The GPU sample sort of dist/gpu_sort.hpp for any number of ranks, on one
// GPU: a group of p ranks that all live on device 0 (its all-gather and
// all-to-all are device copies) runs the same steps as p GPUs of a
// multi_gpu or p GPU ranks, and must give the one-process stable sort, cut
// into balanced shares. Also the merge kernel against std::merge. Skipped
// (never passed) without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/dist/gpu_sort.hpp"
#include "gpuprim/sort.hpp"
#include "support/cuda_fixture.hpp"
#include "support/order_reference.hpp"

namespace gp = gpuprim;

namespace {

// p ranks on the current device, on the default stream.
class one_device_group {
 public:
  explicit one_device_group(int p) : p_(p) {}
  int ranks() const { return p_; }
  int local_devices() const { return p_; }
  int rank_of(int i) const { return i; }
  void use(int) const {}
  gp::stream_t stream(int) const { return nullptr; }
  gp::cuda_backend backend(int) const { return gp::cuda; }
  void synchronize() const { gp::synchronize(nullptr); }
  void* workspace(int i, int slot, std::size_t bytes) const {
    auto& b = kept_[{i, slot}];
    if (b.size() < bytes) b = gp::device_vector<char>(bytes);
    return b.data();
  }
  void* host_workspace(std::size_t bytes) const {
    host_.resize(bytes / 8 + 1);
    return host_.data();
  }
  void allgather(const std::vector<void*>& buffers, std::size_t bytes) const {
    for (int i = 0; i < p_; ++i)
      for (int j = 0; j < p_; ++j)
        if (i != j) {
          gp::detail::copy_device_to_device(static_cast<char*>(buffers[j]) + i * bytes,
                                            static_cast<char*>(buffers[i]) + i * bytes, bytes,
                                            nullptr);
        }
  }
  // counts[d][e] and offsets[d][e], in elements: what rank d sends to (or
  // receives from) rank e.
  using table = std::vector<std::vector<std::uint64_t>>;
  void alltoallv(const std::vector<const void*>& sends, const table& send_counts,
                 const table& send_offsets, const std::vector<void*>& recvs,
                 const table& recv_counts, const table& recv_offsets,
                 std::size_t element_bytes) const {
    for (int d = 0; d < p_; ++d) {
      for (int e = 0; e < p_; ++e) {
        if (d == e) continue;
        EXPECT_EQ(send_counts[d][e], recv_counts[e][d]);
        gp::detail::copy_device_to_device(
            static_cast<char*>(recvs[e]) + recv_offsets[e][d] * element_bytes,
            static_cast<const char*>(sends[d]) + send_offsets[d][e] * element_bytes,
            send_counts[d][e] * element_bytes, nullptr);
      }
    }
  }

 private:
  int p_;
  mutable std::map<std::pair<int, int>, gp::device_vector<char>> kept_;
  mutable std::vector<std::uint64_t> host_;
};

enum class pattern { uniform, few_values, all_equal, sorted, reversed };

template <class K>
std::vector<K> make_keys(std::size_t n, pattern like, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<K> k(n);
  for (std::size_t i = 0; i < n; ++i) {
    switch (like) {
      case pattern::uniform:
        if constexpr (std::is_floating_point_v<K>) {
          k[i] = static_cast<K>(std::normal_distribution<double>(0, 100)(rng));
        } else {
          k[i] = static_cast<K>(rng());
        }
        break;
      case pattern::few_values:
        k[i] = static_cast<K>(rng() % 7);
        break;
      case pattern::all_equal:
        k[i] = K(3);
        break;
      case pattern::sorted:
      case pattern::reversed:
        k[i] = static_cast<K>(i % 100000);
        break;
    }
  }
  if (like == pattern::reversed) std::reverse(k.begin(), k.end());
  if constexpr (std::is_floating_point_v<K>) {
    for (std::size_t i = 0; i < n; i += 11)
      k[i] = (i % 3 == 0) ? std::numeric_limits<K>::quiet_NaN() : (i % 3 == 1 ? K(-0.0) : K(0.0));
  }
  return k;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

// Sorts keys (with their positions as values) over p ranks whose slices
// have the sizes `sizes`, and checks the result against the host's stable
// sort_by_key; returns the report.
template <class K>
gp::sort_report check_sort(int p, const std::vector<K>& keys,
                           const std::vector<std::uint64_t>& sizes, gp::sort_order order,
                           gp::key_bits bits) {
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> values(n);
  std::iota(values.begin(), values.end(), 0u);
  std::vector<K> want_keys(n);
  std::vector<std::uint32_t> want_values(n);
  gp::sort_by_key(gp::host, keys, values, want_keys, want_values, order, bits);

  std::vector<std::uint64_t> offsets{0};
  for (auto s : sizes)
    offsets.push_back(offsets.back() + s);
  std::vector<gp::device_vector<K>> dk;
  std::vector<gp::device_vector<std::uint32_t>> dv;
  std::vector<gp::device_span<const K>> ks;
  std::vector<gp::device_span<const std::uint32_t>> vs;
  for (int r = 0; r < p; ++r) {
    dk.push_back(
        gp::to_device(std::vector<K>(keys.begin() + offsets[r], keys.begin() + offsets[r + 1])));
    dv.push_back(gp::to_device(
        std::vector<std::uint32_t>(values.begin() + offsets[r], values.begin() + offsets[r + 1])));
  }
  for (int r = 0; r < p; ++r) {
    ks.push_back(dk[r].span());
    vs.push_back(dv[r].span());
  }
  std::vector<gp::device_vector<K>> ok(p);
  std::vector<gp::device_vector<std::uint32_t>> ov(p);
  auto output = [&](int i, std::uint64_t count) {
    ok[i] = gp::device_vector<K>(count);
    ov[i] = gp::device_vector<std::uint32_t>(count);
    ok[i].fill_bytes(0xab);  // poisoned: an unwritten element fails
    ov[i].fill_bytes(0xab);
    return std::pair<K*, std::uint32_t*>(ok[i].data(), ov[i].data());
  };
  const one_device_group group(p);
  const gp::sort_report r = gp::detail::gpu_sample_sort<K, std::uint32_t>(
      group, offsets, ks, vs, output, order, bits, "sort_by_key");
  std::vector<K> got_keys;
  std::vector<std::uint32_t> got_values;
  std::uint64_t largest = 0;
  for (int i = 0; i < p; ++i) {
    const auto k = gp::to_host(ok[i]);
    const auto v = gp::to_host(ov[i]);
    got_keys.insert(got_keys.end(), k.begin(), k.end());
    got_values.insert(got_values.end(), v.begin(), v.end());
    largest = std::max<std::uint64_t>(largest, k.size());
  }
  EXPECT_TRUE(same_bits(got_keys, want_keys));
  EXPECT_EQ(got_values, want_values);  // stable: equal keys keep their input order
  EXPECT_EQ(r.total, n);
  EXPECT_EQ(r.largest, largest);
  EXPECT_EQ(r.offset, 0u);
  EXPECT_EQ(r.count, ok[0].size());
  return r;
}

std::vector<std::uint64_t> even_sizes(std::uint64_t n, int p) {
  std::vector<std::uint64_t> s(p);
  for (int r = 0; r < p; ++r)
    s[r] = n * (r + 1) / p - n * r / p;
  return s;
}

TEST(gpu_sample_sort, AnyNumberOfRanksOnOneDevice) {
  GPUPRIM_REQUIRE_CUDA();
  for (int p : {1, 2, 3, 4, 5, 8}) {
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1000},
                          std::size_t{65537}, std::size_t{300007}}) {
      for (pattern like : {pattern::uniform, pattern::few_values, pattern::all_equal,
                           pattern::sorted, pattern::reversed}) {
        SCOPED_TRACE(std::to_string(p) + " ranks, " + std::to_string(n) + " keys, pattern " +
                     std::to_string(int(like)));
        const auto keys = make_keys<std::uint32_t>(n, like, n * 7 + p);
        const auto r = check_sort(p, keys, even_sizes(n, p), gp::sort_order::ascending, {});
        // Each sample stands for n / (32 p^2) keys: shares within n / (16 p).
        if (n >= 1000u * p) EXPECT_LE(r.imbalance, 0.10) << "largest " << r.largest;
        check_sort(p, keys, even_sizes(n, p), gp::sort_order::descending, {});
      }
    }
  }
}

TEST(gpu_sample_sort, UnevenAndEmptySlicesAndKeyBits) {
  GPUPRIM_REQUIRE_CUDA();
  const auto keys = make_keys<std::uint32_t>(50000, pattern::uniform, 5);
  check_sort<std::uint32_t>(4, keys, {0, 50000, 0, 0}, gp::sort_order::ascending, {});
  check_sort<std::uint32_t>(4, keys, {10, 20, 49970, 0}, gp::sort_order::ascending, {});
  check_sort<std::uint32_t>(3, keys, {25000, 0, 25000}, gp::sort_order::ascending,
                            gp::key_bits{4, 12});
  check_sort<std::uint32_t>(6, keys, even_sizes(50000, 6), gp::sort_order::descending,
                            gp::key_bits{8, 32});
}

TEST(gpu_sample_sort, KeyTypes) {
  GPUPRIM_REQUIRE_CUDA();
  for (int p : {2, 3, 4}) {
    SCOPED_TRACE(std::to_string(p) + " ranks");
    const std::size_t n = 40009;
    check_sort(p, make_keys<float>(n, pattern::uniform, 1), even_sizes(n, p),
               gp::sort_order::ascending, {});
    check_sort(p, make_keys<float>(n, pattern::uniform, 2), even_sizes(n, p),
               gp::sort_order::descending, {});
    check_sort(p, make_keys<double>(n, pattern::uniform, 3), even_sizes(n, p),
               gp::sort_order::ascending, {});
    check_sort(p, make_keys<std::int64_t>(n, pattern::uniform, 4), even_sizes(n, p),
               gp::sort_order::ascending, {});
    check_sort(p, make_keys<std::int8_t>(n, pattern::uniform, 5), even_sizes(n, p),
               gp::sort_order::ascending, {});
    check_sort(p, make_keys<std::uint16_t>(n, pattern::few_values, 6), even_sizes(n, p),
               gp::sort_order::descending, {});
  }
}

// The merge kernel: two sorted runs, a before b on equal keys.
TEST(gpu_sample_sort, MergeOfTwoRunsIsStdMerge) {
  GPUPRIM_REQUIRE_CUDA();
  std::mt19937_64 rng(11);
  const gp::detail::compared_bits<std::uint32_t> bits{false, 0, 32};
  for (auto [na, nb] : std::vector<std::pair<std::size_t, std::size_t>>{{0, 0},
                                                                        {0, 5},
                                                                        {5, 0},
                                                                        {1, 1},
                                                                        {2047, 1},
                                                                        {2048, 2048},
                                                                        {2049, 3},
                                                                        {100000, 77777},
                                                                        {1, 300000}}) {
    SCOPED_TRACE(std::to_string(na) + " + " + std::to_string(nb));
    std::vector<std::uint32_t> a(na), b(nb);
    for (auto& x : a)
      x = static_cast<std::uint32_t>(rng() % 1000);
    for (auto& x : b)
      x = static_cast<std::uint32_t>(rng() % 1000);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    const auto va = gp::test::origins<std::uint64_t>(na, 0);
    const auto vb = gp::test::origins<std::uint64_t>(nb, na);
    const auto da = gp::to_device(a), db = gp::to_device(b);
    const auto dva = gp::to_device(va), dvb = gp::to_device(vb);
    gp::device_vector<std::uint32_t> out(na + nb);
    gp::device_vector<std::uint64_t> vout(na + nb);
    out.fill_bytes(0xab);
    vout.fill_bytes(0xab);
    gp::detail::cuda_merge_runs<std::uint32_t, std::uint64_t>(da.data(), dva.data(), na, db.data(),
                                                              dvb.data(), nb, out.data(),
                                                              vout.data(), bits, nullptr);
    gp::synchronize(nullptr);
    // The kernel takes from a on ties, as std::merge does.
    gp::test::expect_pairs(gp::to_host(out), gp::to_host(vout),
                           gp::test::reference_merge_by_key(a, va, b, vb), "");
  }
}

}  // namespace
