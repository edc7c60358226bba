// The tuning spaces of the device algorithms and the config helpers.
#include <algorithm>
#include <bit>
#include <set>
#include <stdexcept>
#include <utility>

#include "gpuprim/tune/config.hpp"

namespace gpuprim::tuning {

config::config(std::initializer_list<int> v) {
  if (v.size() > max_parameters) throw std::invalid_argument("tuning::config: too many parameters");
  for (int x : v)
    values[static_cast<std::size_t>(count++)] = x;
}

namespace {

constexpr std::string_view type_names[] = {"int8",    "uint8",   "int16", "uint16",
                                           "int32",   "uint32",  "int64", "uint64",
                                           "float32", "float64", "other"};

// A space whose candidates are every combination of the parameters'
// value lists (all the spaces below: their parameters are run-time ones,
// so every combination is free to compile).
space product_space(algorithm id, std::string name, std::string family,
                    std::vector<std::string> parameters,
                    const std::vector<std::vector<int>>& values, config default_config,
                    std::vector<element_type> types, std::vector<int> log2_sizes) {
  space s;
  s.id = id;
  s.name = std::move(name);
  s.family = std::move(family);
  s.parameters = std::move(parameters);
  s.candidates = product(values);
  s.default_config = default_config;
  s.types = std::move(types);
  s.log2_sizes = std::move(log2_sizes);
  return s;
}

using et = element_type;

std::vector<space> make_spaces() {
  std::vector<space> all;
  // reduce (cuda/device/device_reduce.cuh): the persistent grid's blocks per
  // SM, a run-time parameter, so every candidate is free to compile. The
  // default (4) was measured on the H100 for 2^28 floats; 8 is the most
  // that 256-thread blocks can keep resident.
  all.push_back(product_space(algorithm::reduce, "reduce", "reduce", {"blocks_per_sm"},
                              {{1, 2, 3, 4, 6, 8}}, {4}, {et::f32, et::f64}, {20, 24, 28}));
  // histogram (cuda/device/device_histogram.cuh): blocks per SM of the
  // persistent grid, capped at what is resident; 0 = all resident (the
  // default). Tuned on the two headline cases: bytes into their 256
  // values, and float32 into 1024 even bins.
  all.push_back(product_space(algorithm::histogram, "histogram", "histogram", {"blocks_per_sm"},
                              {{0, 1, 2, 3, 4, 6}}, {0}, {et::u8, et::f32}, {20, 24, 28}));
  // segmented_reduce (cuda/device/device_segmented_reduce.cuh): blocks per
  // SM of its persistent grids (0 = all resident, the default). Tuned with
  // segments of 1024 elements (the headline case); n is the total.
  all.push_back(product_space(algorithm::segmented_reduce, "segmented_reduce", "segmented",
                              {"blocks_per_sm"}, {{0, 1, 2, 3, 4, 6}}, {0}, {et::f32, et::f64},
                              {20, 24, 28}));
  // scan (cuda/device/device_scan.cuh): how many tiles ahead a tile asks L2
  // for its successor's input (0: no prefetch), a kernel argument. The
  // default (64) is scan_prefetch_tiles, measured on the H100 (2^28 floats:
  // 64 and 128 ahead 0.94x CUB against 0.89x without). The tile shape is
  // compile-time and stays the measured one (docs/families/scan.md).
  all.push_back(product_space(algorithm::scan, "scan", "scan", {"prefetch_tiles"},
                              {{0, 32, 64, 128}}, {64}, {et::f32, et::f64}, {20, 24, 28}));
  // segmented_scan (the same kernel over (value, head) pairs): the same
  // parameter, tuned on its own (the pairs' tiles differ). Segments of 1024.
  all.push_back(product_space(algorithm::segmented_scan, "segmented_scan", "segmented",
                              {"prefetch_tiles"}, {{0, 32, 64, 128}}, {64}, {et::f32, et::f64},
                              {20, 24, 28}));
  // radix_sort (cuda/device/device_radix_sort.cuh), keys-only sorts: the
  // onesweep pass's L2 prefetch distance in tiles (default 64,
  // radix_prefetch_tiles) and the digit-histogram kernel's grid in blocks
  // per SM (default 8). Both kernel arguments or grid sizes. Sorts with
  // values keep their defaults (prefetching hurt them, docs/families/sort.md).
  all.push_back(product_space(
      algorithm::radix_sort, "radix_sort", "sort", {"prefetch_tiles", "histogram_blocks_per_sm"},
      {{0, 32, 64, 128}, {4, 8, 16}}, {64, 8}, {et::u32, et::f32, et::u64}, {20, 24, 28}));
  // sorting_network (cuda/device/device_sorting_network.cuh), arrays longer
  // than a shared-memory tile (the bitonic sort of a whole array): the
  // tile's size in KiB (dynamic shared memory; default 32, shared_tile_bytes)
  // and the grid of the global merge steps in blocks per SM (default 32).
  all.push_back(product_space(algorithm::sorting_network, "sorting_network", "sorting-network",
                              {"tile_kib", "step_blocks_per_sm"}, {{8, 16, 32}, {8, 16, 32, 64}},
                              {32, 32}, {et::u32, et::f32}, {20, 24}));
  // transpose (cuda/device/device_transpose.cuh), keyed by element size
  // (uint32: any 4-byte element, uint64: any 8-byte one): the tile's rows
  // and columns (dynamic shared memory; default 64 x 64) and the
  // grid-stride grid in blocks per SM (0 = one block per tile, the
  // default). n = rows x cols of a square matrix (2^24: 4096^2).
  all.push_back(product_space(
      algorithm::transpose, "transpose", "transpose", {"tile_rows", "tile_cols", "blocks_per_sm"},
      {{32, 64}, {32, 64}, {0, 4, 8}}, {64, 64, 0}, {et::u32, et::u64}, {24, 28}));
  // convolve (cuda/device/device_convolve.cuh), general filters: whether a
  // square float filter up to 17 x 17 runs the kernel with its input-row
  // loop unrolled (default 1; other types have only the loop) and whether
  // the filter runs on the compiled capacity one step larger than the
  // smallest that holds it (zero-padded taps; default 0). Both pick among
  // compiled kernels at run time. n = image pixels (2^24: 4096^2), 5 x 5.
  all.push_back(product_space(algorithm::convolve, "convolve", "convolve",
                              {"unrolled_rows", "capacity_step"}, {{0, 1}, {0, 1}}, {1, 0},
                              {et::f32, et::f64}, {22, 24}));
  // spmv (cuda/device/device_spmv.cuh), the row-group kernels (staged rows,
  // row per thread, sub-warp): blocks per SM of the grid-stride grid, 0 =
  // all resident (the default). n = rows (Poisson 5-point, 2^20: 1024^2).
  all.push_back(product_space(algorithm::spmv, "spmv", "spmv", {"blocks_per_sm"}, {{0, 1, 2, 4}},
                              {0}, {et::f32, et::f64}, {20, 24}));
  // closest_pair (cuda/device/closest_pair/grid.cuh), the grid algorithm:
  // the first grid's cell side in percent of the one-point-per-cell side
  // (default 100). Larger cells let the first grid's bound hold more often
  // at the price of more pairs per cell; any size gives the exact answer.
  all.push_back(product_space(algorithm::closest_pair, "closest_pair", "closest-pair",
                              {"cell_percent"}, {{50, 71, 100, 141, 200}}, {100},
                              {et::f32, et::f64}, {20, 24}));
  return all;
}

}  // namespace

std::string_view element_type_name(element_type t) {
  return type_names[static_cast<int>(t)];
}

element_type parse_element_type(std::string_view name) {
  for (int i = 0; i < static_cast<int>(element_type::other); ++i) {
    if (type_names[i] == name) return static_cast<element_type>(i);
  }
  return element_type::other;
}

int size_bucket(std::uint64_t n) {
  return n <= 1 ? 0 : static_cast<int>(std::bit_width(n)) - 1;
}

int space::index_of(const config& c) const {
  const auto it = std::find(candidates.begin(), candidates.end(), c);
  return it == candidates.end() ? -1 : static_cast<int>(it - candidates.begin());
}

std::vector<config> space::neighbours(const config& c) const {
  std::vector<config> out;
  const int dims = static_cast<int>(parameters.size());
  for (int d = 0; d < dims; ++d) {
    // The sorted values this parameter takes among the candidates.
    std::set<int> values;
    for (const config& k : candidates)
      values.insert(k[d]);
    const auto at = values.find(c[d]);
    if (at == values.end()) continue;
    std::vector<int> steps;
    if (at != values.begin()) steps.push_back(*std::prev(at));
    if (std::next(at) != values.end()) steps.push_back(*std::next(at));
    for (int v : steps) {
      config k = c;
      k.values[static_cast<std::size_t>(d)] = v;
      if (index_of(k) >= 0) out.push_back(k);
    }
  }
  return out;
}

std::string space::describe(const config& c) const {
  std::string text;
  for (int d = 0; d < c.count && d < static_cast<int>(parameters.size()); ++d) {
    if (!text.empty()) text += ' ';
    text += parameters[static_cast<std::size_t>(d)] + '=' + std::to_string(c[d]);
  }
  return text;
}

const std::vector<space>& spaces() {
  static const std::vector<space> all = make_spaces();
  return all;
}

const space& space_of(algorithm a) {
  return spaces().at(static_cast<std::size_t>(a));
}

const space* find_space(std::string_view name) {
  for (const space& s : spaces()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::vector<config> product(const std::vector<std::vector<int>>& values) {
  std::vector<config> out{config{}};
  for (const std::vector<int>& axis : values) {
    std::vector<config> next;
    for (const config& c : out) {
      for (int v : axis) {
        config k = c;
        k.values[static_cast<std::size_t>(k.count++)] = v;
        next.push_back(k);
      }
    }
    out = std::move(next);
  }
  return out;
}

}  // namespace gpuprim::tuning
