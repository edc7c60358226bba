// Non-owning views of a row-major matrix: rows x cols elements, row r
// starting `ld` (the leading dimension, in elements) after row r - 1, so a
// view can be a block of a larger matrix. The memory space is in the type,
// as for spans: gp::matrix_view<T> is host memory, gp::device_matrix_view<T>
// device memory, and handing one to the other backend does not compile.
//
//   std::vector<float> a(m * k);
//   gp::matrix_view<const float> A(a.data(), m, k);          // ld = k
//   gp::device_matrix_view<float> C(d_c.data(), m, n, ldc);  // ldc >= n
//
// The constructor checks the shape: ld >= cols (ld may be anything when a
// dimension is 0), and the last element's offset fits in std::size_t. The
// view does not know how large the allocation behind it is; the factory
// functions from spans (make_matrix_view) check that too.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/macros.hpp"

namespace gpuprim {

namespace detail::matrix {

// The number of elements from the first to one past the last of a
// rows x cols matrix with leading dimension ld (0 for an empty matrix).
// Throws std::invalid_argument for ld < cols or a size past std::size_t.
inline std::size_t checked_extent(std::size_t rows, std::size_t cols, std::size_t ld,
                                  const char* what) {
  if (rows == 0 || cols == 0) return 0;
  if (ld < cols) {
    throw std::invalid_argument(std::string(what) + ": leading dimension " + std::to_string(ld) +
                                " is less than the " + std::to_string(cols) + " columns");
  }
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  if (rows - 1 > (max - cols) / ld) {
    throw std::invalid_argument(std::string(what) + ": " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " with leading dimension " +
                                std::to_string(ld) + " does not fit in memory");
  }
  return (rows - 1) * ld + cols;
}

// Where a view's memory is: the host or a CUDA device.
struct host_space {};
struct device_space {};

}  // namespace detail::matrix

template <class T, class Space>
class basic_matrix_view {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  static constexpr bool on_host = std::is_same_v<Space, detail::matrix::host_space>;

  constexpr basic_matrix_view() = default;
  // A packed matrix: ld = cols.
  basic_matrix_view(T* data, std::size_t rows, std::size_t cols)
      : basic_matrix_view(data, rows, cols, cols) {}
  basic_matrix_view(T* data, std::size_t rows, std::size_t cols, std::size_t ld)
      : data_(data), rows_(rows), cols_(cols), ld_(ld) {
    detail::matrix::checked_extent(rows, cols, ld, "matrix_view");
  }

  // A view of T converts to a view of const T.
  template <class U>
  requires(std::is_convertible_v<U (*)[], T (*)[]>) constexpr basic_matrix_view(
      basic_matrix_view<U, Space> other)
      : data_(other.data()), rows_(other.rows()), cols_(other.cols()), ld_(other.ld()) {}

  GPUPRIM_HD constexpr T* data() const { return data_; }
  GPUPRIM_HD constexpr std::size_t rows() const { return rows_; }
  GPUPRIM_HD constexpr std::size_t cols() const { return cols_; }
  GPUPRIM_HD constexpr std::size_t ld() const { return ld_; }
  GPUPRIM_HD constexpr bool empty() const { return rows_ == 0 || cols_ == 0; }
  GPUPRIM_HD constexpr bool packed() const { return ld_ == cols_ || rows_ <= 1; }
  // Elements from the first to one past the last (0 when empty).
  GPUPRIM_HD constexpr std::size_t extent() const {
    return empty() ? 0 : (rows_ - 1) * ld_ + cols_;
  }

  // Element access: on the host for host views, inside kernels for device
  // views.
  T& operator()(std::size_t r, std::size_t c) const requires on_host { return data_[r * ld_ + c]; }
  GPUPRIM_DEVICE T& operator()(std::size_t r, std::size_t c) const requires(!on_host) {
    return data_[r * ld_ + c];
  }
  std::span<T> row(std::size_t r) const requires on_host { return {data_ + r * ld_, cols_}; }

  // The block of rows [row, row + rows) and columns [col, col + cols).
  basic_matrix_view block(std::size_t row, std::size_t col, std::size_t rows,
                          std::size_t cols) const {
    if (row > rows_ || rows > rows_ - row || col > cols_ || cols > cols_ - col) {
      throw std::out_of_range("matrix_view::block: rows [" + std::to_string(row) + ", +" +
                              std::to_string(rows) + "), columns [" + std::to_string(col) + ", +" +
                              std::to_string(cols) + ") are outside a " + std::to_string(rows_) +
                              " x " + std::to_string(cols_) + " matrix");
    }
    return basic_matrix_view(data_ + row * ld_ + col, rows, cols, ld_);
  }

 private:
  T* data_ = nullptr;
  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
  std::size_t ld_ = 0;
};

// A row-major matrix in host memory.
template <class T>
using matrix_view = basic_matrix_view<T, detail::matrix::host_space>;
// A row-major matrix in device memory (element access only inside kernels).
template <class T>
using device_matrix_view = basic_matrix_view<T, detail::matrix::device_space>;

// Views over a span, checked against its size: std::invalid_argument when
// the matrix reaches past the end of the span.
namespace detail::matrix {
// Throws when a rows x cols matrix with leading dimension ld needs more
// than `size` elements (`what` names the span in the message).
inline void check_span_holds(std::size_t rows, std::size_t cols, std::size_t ld, std::size_t size,
                             const char* what) {
  const std::size_t need = checked_extent(rows, cols, ld, "make_matrix_view");
  if (need > size) {
    throw std::invalid_argument("make_matrix_view: a " + std::to_string(rows) + " x " +
                                std::to_string(cols) + " matrix with leading dimension " +
                                std::to_string(ld) + " needs " + std::to_string(need) +
                                " elements, " + what + " has " + std::to_string(size));
  }
}
}  // namespace detail::matrix

template <class T>
matrix_view<T> make_matrix_view(std::span<T> s, std::size_t rows, std::size_t cols,
                                std::size_t ld) {
  detail::matrix::check_span_holds(rows, cols, ld, s.size(), "the span");
  return matrix_view<T>(s.data(), rows, cols, ld);
}
template <class T>
matrix_view<T> make_matrix_view(std::span<T> s, std::size_t rows, std::size_t cols) {
  return make_matrix_view(s, rows, cols, cols);
}
template <class T>
device_matrix_view<T> make_matrix_view(device_span<T> s, std::size_t rows, std::size_t cols,
                                       std::size_t ld) {
  detail::matrix::check_span_holds(rows, cols, ld, s.size(), "the device span");
  return device_matrix_view<T>(s.data(), rows, cols, ld);
}
template <class T>
device_matrix_view<T> make_matrix_view(device_span<T> s, std::size_t rows, std::size_t cols) {
  return make_matrix_view(s, rows, cols, cols);
}

// Whether two views' memory ranges [first, last element] overlap (the
// algorithms refuse outputs that overlap their inputs).
template <class A, class B>
bool ranges_overlap(const A& a, const B& b) {
  if (a.empty() || b.empty()) return false;
  const auto* a_first = reinterpret_cast<const unsigned char*>(a.data());
  const auto* b_first = reinterpret_cast<const unsigned char*>(b.data());
  const auto* a_last = a_first + a.extent() * sizeof(*a.data());
  const auto* b_last = b_first + b.extent() * sizeof(*b.data());
  return a_first < b_last && b_first < a_last;
}

}  // namespace gpuprim
