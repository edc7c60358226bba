// The N-D filters on the GPU (gpuprim/convolve_nd.hpp) against the host
// backend, bit for bit: input/output type pairs (integer wrap-around and
// out-of-range casts included), 1-4 axes, every border mode, origins,
// strided, transposed and reversed views, the 1-D filters in place. The
// whole output buffer is compared, so elements between a strided view's
// elements must keep their poison.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/convolve_nd.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "support/cuda_fixture.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

const gp::border kModes[] = {gp::border::zero, gp::border::replicate, gp::border::reflect,
                             gp::border::mirror, gp::border::wrap};

// Where a view's elements lie in its buffer.
struct layout {
  std::vector<std::size_t> shape;
  std::vector<std::ptrdiff_t> strides;
  std::size_t offset = 0;  // of element 0
  std::size_t buffer = 0;  // elements
};

enum class arrangement { c_order, transposed, padded, reversed };

layout make_layout(const std::vector<std::size_t>& shape, arrangement how) {
  layout l;
  l.shape = shape;
  const std::size_t nd = shape.size();
  l.strides.assign(nd, 1);
  std::ptrdiff_t stride = 1;
  if (how == arrangement::transposed) {  // the first axis contiguous
    for (std::size_t a = 0; a < nd; ++a) {
      l.strides[a] = stride;
      stride *= static_cast<std::ptrdiff_t>(shape[a]);
    }
  } else {
    const std::ptrdiff_t pad = how == arrangement::padded ? 2 : 1;
    for (std::size_t a = nd; a-- > 0;) {
      l.strides[a] = stride * (a + 1 == nd && how == arrangement::padded ? 3 : 1);
      stride = l.strides[a] * static_cast<std::ptrdiff_t>(shape[a]) * pad;
    }
  }
  l.buffer = static_cast<std::size_t>(stride) + 3;
  if (how == arrangement::reversed) {  // the last axis runs backwards
    l.strides[nd - 1] = -l.strides[nd - 1];
    l.offset = shape[nd - 1] - 1;
  }
  return l;
}

template <class T>
std::vector<T> random_buffer(std::size_t n, unsigned seed, bool wide) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      std::normal_distribution<double> d(0.0, 50.0);
      x = static_cast<T>(d(rng));
      // Now and then a value no integer output holds (out-of-range casts).
      if (wide && rng() % 7 == 0) x = static_cast<T>((rng() % 2 ? 1 : -1) * 3.0e19);
      if (wide && rng() % 11 == 0) x = static_cast<T>((rng() % 2 ? 1 : -1) * 5.0e9);
    } else if (wide) {
      x = static_cast<T>(rng());  // the whole range: sums wrap
    } else {
      x = static_cast<T>(rng() % 100);
    }
  }
  return v;
}

// Equal bits, or both NaN (the GPU's NaN payloads may differ).
template <class T>
void expect_same_bits(const std::vector<T>& got, const std::vector<T>& want,
                      const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(got[i]) && std::isnan(want[i])) continue;
    }
    ASSERT_EQ(std::memcmp(&got[i], &want[i], sizeof(T)), 0)
        << what << ": element " << i << " is " << +got[i] << " on the GPU, " << +want[i]
        << " on the host";
  }
}

enum class filter { correlate1d, uniform1d, correlate };

struct nd_case {
  filter kind = filter::correlate1d;
  std::vector<double> weights;        // correlate1d, correlate
  std::vector<std::size_t> wshape;    // correlate
  std::size_t axis = 0, size = 0;     // 1-D filters; uniform1d
  std::vector<long long> origins{0};  // one (1-D filters) or one per axis
  gp::border mode = gp::border::reflect;
  double cval = 0.0;
};

std::string describe(const nd_case& c, const layout& l) {
  std::string s = c.kind == filter::correlate1d ? "correlate1d"
                  : c.kind == filter::uniform1d ? "uniform1d"
                                                : "correlate";
  s += " mode " + std::to_string(static_cast<int>(c.mode)) + " axis " + std::to_string(c.axis) +
       " shape";
  for (auto n : l.shape)
    s += " " + std::to_string(n);
  s += " strides";
  for (auto n : l.strides)
    s += " " + std::to_string(n);
  s += " origins";
  for (auto o : c.origins)
    s += " " + std::to_string(o);
  return s;
}

template <class Backend, class In, class Out>
void run_case(Backend backend, const nd_case& c, In in, Out out) {
  switch (c.kind) {
    case filter::correlate1d:
      gp::correlate1d(backend, in, c.weights, c.axis, out, c.mode, c.cval, c.origins[0]);
      return;
    case filter::uniform1d:
      gp::uniform_filter1d(backend, in, c.size, c.axis, out, c.mode, c.cval, c.origins[0]);
      return;
    case filter::correlate:
      gp::correlate_nd(backend, in, gp::nd_view<const double>(c.weights.data(), c.wshape), out,
                       c.mode, c.cval, c.origins);
      return;
  }
}

// The case on both backends from the same buffers; in_place: the output is
// the input's view itself.
template <class In, class Out>
void expect_backends_agree(const nd_case& c, const layout& lin, const layout& lout, bool wide,
                           unsigned seed, bool in_place = false) {
  const auto in = random_buffer<In>(lin.buffer, seed, wide);
  std::vector<Out> host_out(lout.buffer);
  std::memset(host_out.data(), 0x5A, host_out.size() * sizeof(Out));
  gp::device_vector<In> d_in = gp::to_device(in);
  gp::device_vector<Out> d_out(lout.buffer);
  d_out.fill_bytes(0x5A);
  if constexpr (std::is_same_v<In, Out>) {
    if (in_place) {
      host_out = in;
      run_case(gp::host, c,
               gp::nd_view<const In>(host_out.data() + lin.offset, lin.shape, lin.strides),
               gp::nd_view<Out>(host_out.data() + lin.offset, lin.shape, lin.strides));
      run_case(gp::cuda, c,
               gp::device_nd_view<const In>(d_in.data() + lin.offset, lin.shape, lin.strides),
               gp::device_nd_view<Out>(d_in.data() + lin.offset, lin.shape, lin.strides));
      expect_same_bits(gp::to_host(d_in), host_out, "in place: " + describe(c, lin));
      return;
    }
  }
  run_case(gp::host, c, gp::nd_view<const In>(in.data() + lin.offset, lin.shape, lin.strides),
           gp::nd_view<Out>(host_out.data() + lout.offset, lout.shape, lout.strides));
  run_case(gp::cuda, c,
           gp::device_nd_view<const In>(d_in.data() + lin.offset, lin.shape, lin.strides),
           gp::device_nd_view<Out>(d_out.data() + lout.offset, lout.shape, lout.strides));
  expect_same_bits(gp::to_host(d_out), host_out, describe(c, lin));
}

// Every filter kind, mode and a spread of origins on one shape and layout
// pair, for In -> Out.
template <class In, class Out>
void sweep(const std::vector<std::size_t>& shape, arrangement in_how, arrangement out_how,
           bool wide, unsigned seed) {
  const layout lin = make_layout(shape, in_how);
  const layout lout = make_layout(shape, out_how);
  const std::size_t nd = shape.size();
  const std::vector<std::vector<double>> line_weights = {
      {0.25, 0.5, 0.25},                    // symmetric: SciPy's pair sums
      {-1.0, 0.0, 1.0},                     // antisymmetric
      {0.5, -2.0, 3.0, 1.0},                // even size
      {1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0},  // neither, longer than some axes
      {1e-20, 1.0, 1e-20}};                 // tiny taps kept by correlate1d
  for (gp::border mode : kModes) {
    for (std::size_t axis = 0; axis < nd; ++axis) {
      for (const auto& w : line_weights) {
        const long long k = static_cast<long long>(w.size());
        for (long long origin : {-(k / 2), 0LL, (k - 1) / 2}) {
          nd_case c;
          c.kind = filter::correlate1d;
          c.weights = w;
          c.axis = axis;
          c.origins = {origin};
          c.mode = mode;
          c.cval = 1.5;
          expect_backends_agree<In, Out>(c, lin, lout, wide, seed++);
        }
      }
      for (std::size_t size : {1u, 2u, 3u, 8u}) {
        nd_case c;
        c.kind = filter::uniform1d;
        c.size = size;
        c.axis = axis;
        c.origins = {static_cast<long long>(size - 1) / 2};
        c.mode = mode;
        c.cval = -2.0;
        expect_backends_agree<In, Out>(c, lin, lout, wide, seed++);
      }
    }
    nd_case c;
    c.kind = filter::correlate;
    c.mode = mode;
    c.cval = 3.0;
    c.wshape.assign(nd, 1);
    c.origins.assign(nd, 0);
    for (std::size_t a = 0; a < nd; ++a) {
      c.wshape[a] = 2 + a % 3;  // 2, 3, 4, 2: even and odd sides
      c.origins[a] = a % 2 ? -static_cast<long long>(c.wshape[a] / 2) : 0;
    }
    std::size_t taps = 1;
    for (auto k : c.wshape)
      taps *= k;
    std::mt19937 rng(seed);
    std::normal_distribution<double> d(0.0, 1.0);
    for (std::size_t t = 0; t < taps; ++t)
      c.weights.push_back(t % 5 == 3 ? 1e-17 : d(rng));  // some taps skipped
    expect_backends_agree<In, Out>(c, lin, lout, wide, seed++);
  }
}

}  // namespace

TEST_F(cuda_test, convolve_nd_float_types_match_the_host_on_1_to_4_axes) {
  sweep<double, double>({23}, arrangement::c_order, arrangement::c_order, false, 1);
  sweep<float, float>({9, 13}, arrangement::c_order, arrangement::c_order, false, 2);
  sweep<double, float>({5, 6, 7}, arrangement::c_order, arrangement::padded, false, 3);
  sweep<float, double>({3, 4, 5, 2}, arrangement::transposed, arrangement::c_order, false, 4);
}

TEST_F(cuda_test, convolve_nd_integer_pairs_round_and_wrap_as_the_host) {
  sweep<std::uint8_t, float>({7, 11}, arrangement::c_order, arrangement::c_order, true, 10);
  sweep<std::int16_t, std::uint8_t>({6, 5, 4}, arrangement::padded, arrangement::c_order, true, 11);
  sweep<std::int32_t, std::int8_t>({29}, arrangement::c_order, arrangement::reversed, true, 12);
  sweep<std::uint64_t, double>({4, 9}, arrangement::reversed, arrangement::c_order, true, 13);
  sweep<std::int64_t, std::uint32_t>({5, 8}, arrangement::c_order, arrangement::transposed, true,
                                     14);
  sweep<std::uint16_t, std::int16_t>({2, 3, 2, 5}, arrangement::c_order, arrangement::c_order, true,
                                     15);
}

TEST_F(cuda_test, convolve_nd_float_to_integer_casts_out_of_range_as_the_host) {
  // Values of +-3e19 and +-5e9 among the inputs: int64 / uint64 / int32 /
  // uint32 / int16 outputs get SciPy's x86-64 casts of them.
  sweep<double, std::int64_t>({8, 9}, arrangement::c_order, arrangement::c_order, true, 20);
  sweep<double, std::uint64_t>({31}, arrangement::c_order, arrangement::c_order, true, 21);
  sweep<float, std::int32_t>({4, 6, 5}, arrangement::transposed, arrangement::c_order, true, 22);
  sweep<double, std::uint32_t>({10, 7}, arrangement::padded, arrangement::padded, true, 23);
  sweep<float, std::int16_t>({12, 5}, arrangement::c_order, arrangement::c_order, true, 24);
  sweep<double, std::uint8_t>({6, 6}, arrangement::reversed, arrangement::c_order, true, 25);
}

TEST_F(cuda_test, convolve_nd_one_dimensional_filters_in_place_match_the_host) {
  for (arrangement how : {arrangement::c_order, arrangement::padded, arrangement::transposed,
                          arrangement::reversed}) {
    const layout l = make_layout({7, 9, 4}, how);
    for (gp::border mode : kModes) {
      for (std::size_t axis = 0; axis < 3; ++axis) {
        nd_case c;
        c.kind = filter::correlate1d;
        c.weights = {1.0, -2.0, 0.5, 4.0, 0.25};
        c.axis = axis;
        c.origins = {-1};
        c.mode = mode;
        c.cval = 0.5;
        expect_backends_agree<double, double>(c, l, l, false, 30 + axis, true);
        expect_backends_agree<std::int32_t, std::int32_t>(c, l, l, true, 40 + axis, true);
        c.kind = filter::uniform1d;
        c.size = 5;
        c.origins = {2};
        expect_backends_agree<float, float>(c, l, l, false, 50 + axis, true);
        expect_backends_agree<std::uint8_t, std::uint8_t>(c, l, l, true, 60 + axis, true);
      }
    }
  }
}

TEST_F(cuda_test, convolve_nd_large_filters_and_arrays_match_the_host) {
  // 301 taps and a 1001-wide running mean on 2^16 + 3 elements, a 3-D
  // correlate of 9 x 9 x 9 taps (729 weights, 2187 offsets: 23 KiB, two
  // upload launches).
  const layout line = make_layout({65539}, arrangement::c_order);
  nd_case c;
  c.kind = filter::correlate1d;
  for (int j = 0; j < 301; ++j)
    c.weights.push_back(std::sin(0.1 * j));
  c.origins = {-17};
  c.mode = gp::border::mirror;
  expect_backends_agree<float, float>(c, line, line, false, 70);
  c.kind = filter::uniform1d;
  c.size = 1001;
  c.origins = {100};
  c.mode = gp::border::wrap;
  expect_backends_agree<double, double>(c, line, line, false, 71);

  // The running mean's chunks: 200 positions along axis 0 (chunks of 64
  // for a block of 32 lines; 40 lines: a partial second block) and 5000
  // along the last axis (chunks of 2048 for one line a block).
  nd_case mean;
  mean.kind = filter::uniform1d;
  mean.size = 9;
  mean.origins = {-3};
  mean.mode = gp::border::wrap;
  const layout tall = make_layout({200, 40}, arrangement::padded);
  expect_backends_agree<float, float>(mean, tall, tall, false, 74);
  expect_backends_agree<std::int16_t, std::uint8_t>(
      mean, tall, make_layout({200, 40}, arrangement::c_order), true, 75);
  mean.axis = 1;
  mean.mode = gp::border::reflect;
  const layout wide = make_layout({3, 5000}, arrangement::c_order);
  expect_backends_agree<double, double>(mean, wide, wide, false, 76);
  expect_backends_agree<double, double>(mean, wide, wide, false, 77, true);

  const layout cube = make_layout({20, 21, 22}, arrangement::c_order);
  nd_case n;
  n.kind = filter::correlate;
  n.wshape = {9, 9, 9};
  n.origins = {-4, 0, 4};
  n.mode = gp::border::reflect;
  for (int t = 0; t < 729; ++t)
    n.weights.push_back(std::cos(0.37 * t));
  expect_backends_agree<float, float>(n, cube, cube, false, 72);
  n.mode = gp::border::zero;
  n.cval = 7.0;
  expect_backends_agree<std::int16_t, std::int32_t>(n, cube, cube, true, 73);
}

TEST_F(cuda_test, convolve_nd_refuses_bad_arguments_before_writing) {
  gp::device_vector<double> in(12), out(12);
  out.fill_bytes(0x33);
  const std::vector<double> w{1, 2, 1};
  gp::device_nd_view<const double> vin(in.data(), {3, 4});
  gp::device_nd_view<double> vout(out.data(), {3, 4});
  EXPECT_THROW(gp::correlate1d(gp::cuda, vin, w, 2, vout), std::invalid_argument);
  EXPECT_THROW(gp::correlate1d(gp::cuda, vin, w, 0, gp::device_nd_view<double>(out.data(), {4, 3})),
               std::invalid_argument);
  EXPECT_THROW(gp::uniform_filter1d(gp::cuda, vin, 3, 0, vout, gp::border::reflect, 0.0, 2),
               std::invalid_argument);
  EXPECT_THROW(gp::correlate_nd(gp::cuda, vin, gp::nd_view<const double>(w.data(), {3}), vout),
               std::invalid_argument);
  EXPECT_THROW(gp::correlate1d(gp::cuda, vin, w, 0, vout, static_cast<gp::border>(9)),
               std::invalid_argument);
  const std::vector<std::size_t> many(33, 1);
  EXPECT_THROW(gp::uniform_filter1d(gp::cuda, gp::device_nd_view<const double>(in.data(), many), 1,
                                    0, gp::device_nd_view<double>(out.data(), many)),
               std::invalid_argument);
  for (double v : gp::to_host(out)) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, 8);
    ASSERT_EQ(bits, 0x3333333333333333ull);
  }
}
