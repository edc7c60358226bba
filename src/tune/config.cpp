// The tuning spaces of the device algorithms and the config helpers.
#include <algorithm>
#include <bit>
#include <set>
#include <stdexcept>

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

std::vector<space> make_spaces() {
  std::vector<space> all;
  // reduce (cuda/device/device_reduce.cuh): the persistent grid's blocks per
  // SM, a run-time parameter, so every candidate is free to compile. The
  // default (4) was measured on the H100 for 2^28 floats; 8 is the most
  // that 256-thread blocks can keep resident.
  {
    space s;
    s.id = algorithm::reduce;
    s.name = "reduce";
    s.family = "reduce";
    s.parameters = {"blocks_per_sm"};
    s.candidates = product({{1, 2, 3, 4, 6, 8}});
    s.default_config = {4};
    s.types = {element_type::f32, element_type::f64};
    s.log2_sizes = {20, 24, 28};
    all.push_back(std::move(s));
  }
  // histogram (cuda/device/device_histogram.cuh): blocks per SM of the
  // persistent grid, capped at what is resident; 0 = all resident (the
  // default). Run-time, so free to compile. Tuned on the two headline
  // cases: bytes into their 256 values, and float32 into 1024 even bins.
  {
    space s;
    s.id = algorithm::histogram;
    s.name = "histogram";
    s.family = "histogram";
    s.parameters = {"blocks_per_sm"};
    s.candidates = product({{0, 1, 2, 3, 4, 6}});
    s.default_config = {0};
    s.types = {element_type::u8, element_type::f32};
    s.log2_sizes = {20, 24, 28};
    all.push_back(std::move(s));
  }
  // segmented_reduce (cuda/device/device_segmented_reduce.cuh): blocks per
  // SM of its persistent grids (0 = all resident, the default). Tuned with
  // segments of 1024 elements (the headline case); n is the total.
  {
    space s;
    s.id = algorithm::segmented_reduce;
    s.name = "segmented_reduce";
    s.family = "segmented";
    s.parameters = {"blocks_per_sm"};
    s.candidates = product({{0, 1, 2, 3, 4, 6}});
    s.default_config = {0};
    s.types = {element_type::f32, element_type::f64};
    s.log2_sizes = {20, 24, 28};
    all.push_back(std::move(s));
  }
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
