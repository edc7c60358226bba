// The closest pair's ladder rungs on the GPU (lab/ladder): every rung and
// launch shape against the double reference and the production path.
// Skips without a device. Every algorithm of gp::closest_pair on both
// backends: tests/sides/closest_pair_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/closest_pair.hpp"
#include "lab/ladder/closest_pair.cuh"
#include "support/closest_pair_reference.hpp"
#include "support/cuda_fixture.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

class cuda_closest_pair_ladder : public cuda_test {};

// The rung of that name, or nullptr.
const gp::ladder::closest_pair_rung* find_rung(const std::string& name) {
  for (const auto& rung : gp::ladder::closest_pair_rungs())
    if (rung.name == name) return &rung;
  return nullptr;
}

TEST_F(cuda_closest_pair_ladder, every_rung_and_launch_shape_agrees) {
  auto rng = make_rng(15);
  ASSERT_EQ(gp::ladder::closest_pair_rungs().size(), 5u);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({2, 33, 1000, 5003})) {
      const auto pts = uniform_points<float>(n, dim, rng);
      const auto want = reference_closest_pair(pts);
      const auto d = gp::to_device(pts.xyz);
      const gp::device_matrix_view<const float> view(d.data(), n, dim);
      for (const auto& rung : gp::ladder::closest_pair_rungs()) {
        expect_same_pair(rung.run(view, {}, nullptr), want, rung.name);
        if (!rung.quadratic) continue;
        for (int threads : {32, 128, 1024})
          for (int blocks : {1, 7, 300})
            expect_same_pair(rung.run(view, {threads, blocks}, nullptr), want,
                             std::string(rung.name) + " " + std::to_string(threads) + "x" +
                                 std::to_string(blocks));
        const auto o = rung.occupancy({256, 0});
        EXPECT_GT(o.registers, 0);
        EXPECT_GT(o.blocks_per_multiprocessor, 0);
      }
    }
  }
}

// The tiled rung's item options (points per thread, item width, diagonal
// items last): every option shape on uniform sets and on sets with planted
// pairs closer than float can order (the double recheck must), sizes around
// the squares (1024 to 4096 points a side) and their partial last columns;
// points beyond +-2^60 (the double path keeps its defaults). Bad options
// throw std::invalid_argument naming them.
TEST_F(cuda_closest_pair_ladder, tiled_item_options_agree) {
  auto rng = make_rng(19);
  const auto* tiled = find_rung("closest_pair_tiled_shared");
  ASSERT_NE(tiled, nullptr);
  struct option {
    int threads, points, width;
    bool diagonals_last;
    int tail_width = 0;
  };
  const option options[] = {
      {128, 8, 512, true},      {128, 8, 256, false},    {128, 8, 1024, true},
      {32, 8, 32, true},        {64, 16, 512, false},    {64, 16, 1024, true},
      {128, 16, 512, true},     {128, 16, 2048, true},   {256, 16, 1024, true},
      {256, 16, 4096, false},   {0, 16, 0, true},        {0, 0, 0, true},
      {128, 8, 512, true, 128}, {128, 8, 0, false, 256}, {128, 16, 1024, true, 128},
      {64, 16, 512, true, 64},  {32, 8, 256, false, 32}};
  const auto shape_of = [](const option& o) {
    gp::closest_pair_launch shape{o.threads, 0};
    shape.points_per_thread = o.points;
    shape.item_width = o.width;
    shape.diagonals_last = o.diagonals_last;
    shape.tail_item_width = o.tail_width;
    return shape;
  };
  const auto name_of = [](const option& o) {
    return std::to_string(o.threads) + " threads, " + std::to_string(o.points) + " pts, w " +
           std::to_string(o.width) + (o.diagonals_last ? ", diagonals last" : "") + ", tail w " +
           std::to_string(o.tail_width);
  };
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({2, 1000, 2049, 5003, 9001})) {
      const std::string size = ", n " + std::to_string(n) + ", dim " + std::to_string(dim);
      auto near = uniform_points<float>(n, dim, rng);
      plant_near_pairs(near, rng);
      auto far = uniform_points<float>(n, dim, rng, 0x1.0p61);
      for (const point_rows<float>* pts : {&near, &far}) {
        const auto want = reference_closest_pair(*pts);
        const auto d = gp::to_device(pts->xyz);
        const gp::device_matrix_view<const float> view(d.data(), n, dim);
        for (const option& o : options)
          for (int blocks : {0, 7}) {
            gp::closest_pair_launch shape = shape_of(o);
            shape.blocks = blocks;
            expect_same_pair(tiled->run(view, shape, nullptr), want,
                             name_of(o) + ", " + std::to_string(blocks) + " blocks" +
                                 (pts == &far ? ", beyond 2^60" : "") + size);
          }
      }
    }
  }
  for (const option& o : options) {
    const auto occ = tiled->occupancy(shape_of(o));
    EXPECT_GT(occ.registers, 0) << name_of(o);
    EXPECT_GT(occ.blocks_per_multiprocessor, 0) << name_of(o);
  }
  // Bad options: the message names what was wrong; the points are untouched.
  const auto pts = uniform_points<float>(3000, 2, rng);
  const auto d = gp::to_device(pts.xyz);
  const gp::device_matrix_view<const float> view(d.data(), pts.n, 2);
  const option bad[] = {{512, 16, 0, false},       {1024, 16, 0, false},      {128, 12, 0, false},
                        {128, -8, 0, false},       {128, 8, 384, false},      {128, 8, 2048, false},
                        {128, 16, 100, false},     {128, 8, -512, false},     {0, 8, 512, false},
                        {128, 8, 512, false, 384}, {128, 8, 256, false, 512}, {0, 8, 0, false, 128},
                        {128, 8, 0, false, -128}};
  const char* says[] = {"at most 256",       "at most 256",     "points per thread",
                        "points per thread", "item width",      "item width",
                        "item width",        "item width",      "needs the threads",
                        "tail item width",   "tail item width", "needs the threads",
                        "tail item width"};
  for (std::size_t b = 0; b < std::size(bad); ++b) {
    try {
      tiled->run(view, shape_of(bad[b]), nullptr);
      ADD_FAILURE() << "no exception: " << name_of(bad[b]);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says[b]), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(gp::to_host(d), pts.xyz);
}

// The divide and conquer on the sorting networks (the ladder's rung):
// sizes around the leaves (32), the register network (64), the shared tile
// (2048) and several global merge steps (> 8192), on every point set that
// stresses the strips, against the reference or the production path.
TEST_F(cuda_closest_pair_ladder, divide_and_conquer_on_sorting_networks) {
  auto rng = make_rng(16);
  const auto* networks = find_rung("closest_pair_divide_and_conquer_networks");
  ASSERT_NE(networks, nullptr);
  const auto run = [&](const point_rows<float>& pts) {
    const auto d = gp::to_device(pts.xyz);
    return networks->run(gp::device_matrix_view<const float>(d.data(), pts.n, pts.dim), {},
                         nullptr);
  };
  for (int dim : {2, 3}) {
    const std::string where = ", dim " + std::to_string(dim);
    for (std::size_t n : test_sizes(
             {2, 3, 31, 32, 33, 63, 64, 65, 127, 1000, 2047, 2048, 2049, 4097, 7919, 20011})) {
      const std::string size = ", n " + std::to_string(n) + where;
      const auto u = uniform_points<float>(n, dim, rng);
      expect_same_pair(run(u), reference_closest_pair(u), "uniform" + size);
      if (n < 33) continue;
      const auto c = clustered_points<float>(n, dim, rng);
      expect_same_pair(run(c), reference_closest_pair(c), "clustered" + size);
      const auto l = collinear_points<float>(n, dim, rng);
      expect_same_pair(run(l), reference_closest_pair(l), "collinear" + size);
      const auto v = axis_line_points<float>(n, dim, true, rng);
      expect_same_pair(run(v), reference_closest_pair(v), "vertical line" + size);
      const auto h = axis_line_points<float>(n, dim, false, rng);
      expect_same_pair(run(h), reference_closest_pair(h), "horizontal line" + size);
    }
    for (bool shuffle : {false, true}) {
      const auto lattice = dim == 2 ? lattice_points<float>(90, 2, 0.125, rng, shuffle)
                                    : lattice_points<float>(17, 3, 3.0, rng, shuffle);
      expect_same_pair(run(lattice), reference_closest_pair(lattice), "lattice" + where);
    }
    const auto copies = copies_of_few_points<float>(4000, dim);
    expect_same_pair(run(copies), reference_closest_pair(copies), "copies" + where);
    for (std::size_t n : test_sizes({(1u << 20) + 7})) {
      const auto big = uniform_points<float>(n, dim, rng);
      const auto d = gp::to_device(big.xyz);
      const gp::device_matrix_view<const float> view(d.data(), n, dim);
      expect_same_pair(run(big), gp::closest_pair(gp::cuda, view, gp::closest_pair_algorithm::grid),
                       "large uniform" + where);
    }
  }
}

}  // namespace
