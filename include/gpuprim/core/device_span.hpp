// A non-owning view of device memory. It has no begin()/end() and no host
// element access on purpose: host code cannot dereference device pointers,
// and algorithms tell host and device ranges apart by type, so handing
// device memory to gp::host (or host memory to gp::cuda) does not compile.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/macros.hpp"

namespace gpuprim {

template <class T>
class device_span {
 public:
  using element_type = T;
  using value_type = std::remove_cv_t<T>;

  constexpr device_span() = default;
  constexpr device_span(T* data, std::size_t size) : data_(data), size_(size) {}

  // device_span<T> converts to device_span<const T>.
  template <class U>
  requires(std::is_convertible_v<U (*)[], T (*)[]>) constexpr device_span(device_span<U> other)
      : data_(other.data()), size_(other.size()) {}

  GPUPRIM_HD constexpr T* data() const { return data_; }
  GPUPRIM_HD constexpr std::size_t size() const { return size_; }
  GPUPRIM_HD constexpr std::size_t size_bytes() const { return size_ * sizeof(T); }
  GPUPRIM_HD constexpr bool empty() const { return size_ == 0; }

  // Device-side element access (only meaningful inside kernels).
  GPUPRIM_DEVICE T& operator[](std::size_t i) const { return data_[i]; }

  device_span subspan(std::size_t offset, std::size_t count) const {
    if (offset > size_ || count > size_ - offset) {
      throw std::out_of_range("device_span::subspan: [" + std::to_string(offset) + ", +" +
                              std::to_string(count) + ") is outside a span of " +
                              std::to_string(size_));
    }
    return device_span(data_ + offset, count);
  }
  device_span first(std::size_t count) const { return subspan(0, count); }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class T>
device_span(T*, std::size_t) -> device_span<T>;

}  // namespace gpuprim
