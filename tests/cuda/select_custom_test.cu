// GPU selections of user types, predicates and operators (instantiated here
// from gpuprim/cuda/select.cuh): 3-, 12- and 16-byte elements, a device
// lambda, a non-commutative reduce_by_key.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "gpuprim/cuda/select.cuh"
#include "support/cuda_fixture.hpp"
#include "support/reduce_reference.hpp"
#include "support/select_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

struct rgb {
  std::uint8_t r, g, b;
  friend bool operator==(const rgb&, const rgb&) = default;
};
struct point3 {
  float x, y, z;
  friend bool operator==(const point3&, const point3&) = default;
};
struct wide {
  std::uint64_t key, payload;
  friend bool operator==(const wide&, const wide&) = default;
};

struct reddish {
  __host__ __device__ bool operator()(const rgb& c) const { return c.r > c.g && c.r > c.b; }
};
struct same_key {
  __host__ __device__ bool operator()(const wide& a, const wide& b) const { return a.key == b.key; }
};

}  // namespace

TEST_F(cuda_test, select_three_byte_elements) {
  auto rng = make_rng(91);
  for (std::size_t n : test_sizes({0, 1, 33, 8191, 8193, 1'000'003})) {
    std::vector<rgb> x(n);
    for (auto& c : x)
      c = {static_cast<std::uint8_t>(rng()), static_cast<std::uint8_t>(rng()),
           static_cast<std::uint8_t>(rng())};
    const auto d = gp::to_device(x);
    gp::device_vector<rgb> out(n);
    out.fill_bytes(0xA5);
    const auto want = reference_copy_if(x, reddish{});
    ASSERT_EQ(gp::copy_if(gp::cuda, d, out, reddish{}), want.size());
    auto got = gp::to_host(out);
    got.resize(want.size());
    EXPECT_EQ(got, want);
    ASSERT_EQ(gp::partition(gp::cuda, d, out, reddish{}), want.size());
    EXPECT_EQ(gp::to_host(out), reference_partition(x, reddish{}, false));
  }
}

// Extended lambdas need an enclosing function of external linkage that is
// no class member (a test body is a private member): this one.
void check_three_way_with_device_lambdas(std::mt19937_64& rng) {
  const std::size_t n = 2'000'003;
  std::vector<point3> x(n);
  std::uniform_real_distribution<float> u(-1, 1);
  for (auto& p : x)
    p = {u(rng), u(rng), u(rng)};
  const auto inside = [] __host__ __device__(const point3& p) {
    return p.x * p.x + p.y * p.y + p.z * p.z < 0.5f;
  };
  const auto upper = [] __host__ __device__(const point3& p) { return p.z > 0; };
  const auto d = gp::to_device(x);
  gp::device_vector<point3> a(n), b(n), c(n);
  const gp::three_way_counts t = gp::partition_three_way(gp::cuda, d, a, b, c, inside, upper);
  std::vector<point3> wa, wb, wc;
  for (const auto& p : x)
    (inside(p) ? wa : upper(p) ? wb : wc).push_back(p);
  ASSERT_EQ(t.first, wa.size());
  ASSERT_EQ(t.second, wb.size());
  auto ga = gp::to_host(a), gb = gp::to_host(b), gc = gp::to_host(c);
  ga.resize(wa.size());
  gb.resize(wb.size());
  gc.resize(wc.size());
  EXPECT_EQ(ga, wa);
  EXPECT_EQ(gb, wb);
  EXPECT_EQ(gc, wc);
}

TEST_F(cuda_test, select_twelve_byte_elements_with_a_device_lambda) {
  auto rng = make_rng(92);
  check_three_way_with_device_lambdas(rng);
}

TEST_F(cuda_test, select_sixteen_byte_keys_and_a_non_commutative_reduce_by_key) {
  auto rng = make_rng(93);
  const std::size_t n = 1'500'007;
  const auto run_keys = keys_in_runs<std::uint64_t>(n, rng, 40);
  std::vector<wide> x(n);
  const std::vector<mat2> values = random_mat2s(n, rng);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = {run_keys[i], i};
  const auto d = gp::to_device(x);
  gp::device_vector<wide> out(n);
  const auto heads = reference_run_heads(x, same_key{});
  ASSERT_EQ(gp::unique(gp::cuda, d, out, same_key{}), heads.size());
  auto got = gp::to_host(out);
  for (std::size_t r = 0; r < heads.size(); ++r)
    ASSERT_EQ(got[r], x[heads[r]]) << "run " << r;

  const auto dk = gp::to_device(run_keys);
  const auto dv = gp::to_device(values);
  gp::device_vector<std::uint64_t> keys_out(n);
  gp::device_vector<mat2> folds(n);
  // 2x2 matrix products: associative, not commutative.
  const auto key_heads = reference_run_heads(run_keys, gp::equal_to{});
  ASSERT_EQ(gp::reduce_by_key(gp::cuda, dk, dv, keys_out, folds, mat2_product{}), key_heads.size());
  const auto f = gp::to_host(folds);
  for (std::size_t r = 0; r < key_heads.size(); ++r) {
    const std::size_t end = r + 1 < key_heads.size() ? key_heads[r + 1] : n;
    mat2 want = values[key_heads[r]];
    for (std::size_t i = key_heads[r] + 1; i < end; ++i)
      want = mat2_product{}(want, values[i]);
    ASSERT_EQ(f[r], want) << "run " << r;
  }
}
