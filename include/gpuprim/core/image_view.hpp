// Non-owning views of a batch of images with interleaved channels: `count`
// images of rows x cols pixels, each pixel `channels` consecutive elements
// (gray 1, gray + alpha 2, RGB 3, RGBA 4), row r of image b starting at
// b * image_stride + r * ld elements. A single-channel image is a
// gp::matrix_view (image_view_of converts); the convolution family takes
// both. As for matrix views, the memory space is in the type.
//
//   std::vector<std::uint8_t> rgba(h * w * 4);
//   gp::image_view<std::uint8_t> img(rgba.data(), h, w, 4);          // one image
//   gp::image_view<const float> batch(x.data(), 8, h, w, 1, w, h * w);  // 8 images
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/matrix_view.hpp"

namespace gpuprim {

template <class T, class Space>
class basic_image_view {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;
  static constexpr bool on_host = std::is_same_v<Space, detail::matrix::host_space>;

  constexpr basic_image_view() = default;
  // One packed image: ld = cols * channels.
  basic_image_view(T* data, std::size_t rows, std::size_t cols, std::size_t channels)
      : basic_image_view(data, 1, rows, cols, channels, cols * channels, rows * cols * channels) {}
  // `count` images; ld >= cols * channels, image_stride >= rows * ld (when
  // count > 1). Throws std::invalid_argument for a shape that does not fit.
  basic_image_view(T* data, std::size_t count, std::size_t rows, std::size_t cols,
                   std::size_t channels, std::size_t ld, std::size_t image_stride)
      : data_(data),
        count_(count),
        rows_(rows),
        cols_(cols),
        channels_(channels),
        ld_(ld),
        image_stride_(image_stride) {
    if (channels == 0) throw std::invalid_argument("image_view: channels must be at least 1");
    if (empty()) return;
    constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
    if (cols > max / channels) throw std::invalid_argument("image_view: the row does not fit");
    const std::size_t one = detail::matrix::checked_extent(rows, cols * channels, ld, "image_view");
    if (count > 1) {
      if (image_stride < one) {
        throw std::invalid_argument("image_view: image stride " + std::to_string(image_stride) +
                                    " is less than one image's " + std::to_string(one) +
                                    " elements");
      }
      if (count - 1 > (max - one) / image_stride) {
        throw std::invalid_argument("image_view: the batch does not fit in memory");
      }
    }
  }
  // A single-channel image from a matrix view.
  template <class U>
  requires(std::is_convertible_v<U (*)[], T (*)[]>) basic_image_view(basic_matrix_view<U, Space> m)
      : basic_image_view(m.data(), 1, m.rows(), m.cols(), 1, m.empty() ? m.cols() : m.ld(),
                         m.extent()) {}
  // A view of T converts to a view of const T.
  template <class U>
  requires(std::is_convertible_v<U (*)[], T (*)[]>) constexpr basic_image_view(
      basic_image_view<U, Space> o)
      : data_(o.data()),
        count_(o.count()),
        rows_(o.rows()),
        cols_(o.cols()),
        channels_(o.channels()),
        ld_(o.ld()),
        image_stride_(o.image_stride()) {}

  GPUPRIM_HD constexpr T* data() const { return data_; }
  GPUPRIM_HD constexpr std::size_t count() const { return count_; }
  GPUPRIM_HD constexpr std::size_t rows() const { return rows_; }
  GPUPRIM_HD constexpr std::size_t cols() const { return cols_; }
  GPUPRIM_HD constexpr std::size_t channels() const { return channels_; }
  GPUPRIM_HD constexpr std::size_t ld() const { return ld_; }
  GPUPRIM_HD constexpr std::size_t image_stride() const { return image_stride_; }
  GPUPRIM_HD constexpr bool empty() const { return count_ == 0 || rows_ == 0 || cols_ == 0; }
  // Elements from the first to one past the last (0 when empty).
  GPUPRIM_HD constexpr std::size_t extent() const {
    return empty() ? 0 : (count_ - 1) * image_stride_ + (rows_ - 1) * ld_ + cols_ * channels_;
  }

  // Channel c of pixel (r, x) of image b (host views only).
  T& operator()(std::size_t b, std::size_t r, std::size_t x, std::size_t c) const requires on_host {
    return data_[b * image_stride_ + r * ld_ + x * channels_ + c];
  }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
  std::size_t rows_ = 0;
  std::size_t cols_ = 0;
  std::size_t channels_ = 1;
  std::size_t ld_ = 0;
  std::size_t image_stride_ = 0;
};

template <class T>
using image_view = basic_image_view<T, detail::matrix::host_space>;
template <class T>
using device_image_view = basic_image_view<T, detail::matrix::device_space>;

}  // namespace gpuprim
