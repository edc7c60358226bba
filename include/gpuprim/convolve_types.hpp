// The convolution family's public vocabulary (gpuprim/convolve.hpp is the
// header to include): the border modes, the filter type and the largest
// filter side. The common filters are in gpuprim/filters.hpp.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/matrix_view.hpp"

namespace gpuprim {

// How pixels outside the image are made, as scipy.ndimage's modes: zero =
// 'constant' with cval 0; replicate = 'nearest' (a a a | a b c d | d d d);
// reflect = 'reflect' (d c b a | a b c d | d c b a); mirror = 'mirror'
// (d c b | a b c d | c b a); wrap = 'wrap' (periodic).
enum class border { zero, replicate, reflect, mirror, wrap };

// The largest filter side the convolution family takes.
inline constexpr std::size_t max_filter_size = 63;

class filter {
 public:
  filter() = default;
  // rows x cols weights, row-major. Throws std::invalid_argument when
  // weights.size() != rows * cols.
  filter(std::size_t rows, std::size_t cols, std::vector<double> weights)
      : rows_(rows), cols_(cols), weights_(std::move(weights)) {
    if (weights_.size() != rows * cols) {
      throw std::invalid_argument("gpuprim::filter: " + std::to_string(rows) + " x " +
                                  std::to_string(cols) + " needs " + std::to_string(rows * cols) +
                                  " weights, got " + std::to_string(weights_.size()));
    }
  }
  // A copy of a host matrix of float or double weights.
  template <class T>
  requires std::is_floating_point_v<T>
  explicit filter(matrix_view<const T> m) : rows_(m.rows()), cols_(m.cols()) {
    weights_.reserve(m.rows() * m.cols());
    for (std::size_t r = 0; r < m.rows(); ++r) {
      for (std::size_t c = 0; c < m.cols(); ++c)
        weights_.push_back(static_cast<double>(m(r, c)));
    }
  }
  // The outer product column x row: weight (i, j) = column[i] * row[j].
  static filter outer(std::span<const double> column, std::span<const double> row) {
    std::vector<double> w;
    w.reserve(column.size() * row.size());
    for (double c : column) {
      for (double r : row)
        w.push_back(c * r);
    }
    return filter(column.size(), row.size(), std::move(w));
  }

  std::size_t rows() const { return rows_; }
  std::size_t cols() const { return cols_; }
  bool empty() const { return rows_ == 0 || cols_ == 0; }
  double operator()(std::size_t r, std::size_t c) const { return weights_[r * cols_ + c]; }
  std::span<const double> weights() const { return weights_; }

 private:
  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
  std::vector<double> weights_;
};

}  // namespace gpuprim
