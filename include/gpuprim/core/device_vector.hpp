// Owning, contiguous device memory with explicit transfers. Elements are not
// initialized by the (size) constructor: a GPU allocation is data the next
// kernel writes, and zero-filling every buffer would cost a pass over memory.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/runtime.hpp"

namespace gpuprim {

template <class T>
class device_vector {
  static_assert(std::is_trivially_copyable_v<T>, "device_vector holds trivially copyable types");

 public:
  using value_type = T;

  device_vector() = default;
  explicit device_vector(std::size_t size)
      : data_(static_cast<T*>(detail::device_allocate(size * sizeof(T), "device_vector"))),
        size_(size) {}
  device_vector(const device_vector& other) : device_vector(other.size_) {
    detail::copy_device_to_device(data_, other.data_, size_ * sizeof(T), nullptr);
  }
  device_vector(device_vector&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  device_vector& operator=(device_vector other) noexcept {
    swap(other);
    return *this;
  }
  ~device_vector() { detail::device_free(data_); }

  void swap(device_vector& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t size_bytes() const { return size_ * sizeof(T); }
  bool empty() const { return size_ == 0; }

  device_span<T> span() { return {data_, size_}; }
  device_span<const T> span() const { return {data_, size_}; }
  operator device_span<T>() { return span(); }
  operator device_span<const T>() const { return span(); }

  // Sets every byte of the storage to `byte` (e.g. to poison outputs in
  // tests), and waits for it: the fill runs on the legacy default stream,
  // which does not order itself with non-blocking streams, so work enqueued
  // on one of those afterwards could otherwise overtake it.
  void fill_bytes(int byte) {
    detail::fill_bytes(data_, byte, size_bytes(), nullptr);
    synchronize(nullptr);
  }

 private:
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

// Host -> device copy of a whole contiguous host range.
template <class T>
device_vector<T> to_device(std::span<const T> host_values) {
  device_vector<T> out(host_values.size());
  detail::copy_to_device(out.data(), host_values.data(), host_values.size_bytes(), nullptr);
  synchronize(nullptr);
  return out;
}
template <class T>
device_vector<T> to_device(const std::vector<T>& host_values) {
  return to_device(std::span<const T>(host_values));
}

// Device -> host copy into a new vector.
template <class T>
std::vector<std::remove_cv_t<T>> to_host(device_span<T> values) {
  std::vector<std::remove_cv_t<T>> out(values.size());
  detail::copy_to_host(out.data(), values.data(), values.size_bytes(), nullptr);
  synchronize(nullptr);
  return out;
}
template <class T>
std::vector<T> to_host(const device_vector<T>& values) {
  return to_host(values.span());
}

// Device -> host copy into caller-provided memory of the same size.
template <class U, class T>
requires std::is_same_v<std::remove_const_t<U>, T>
void copy(device_span<U> from, std::span<T> to) {
  if (from.size() != to.size()) {
    throw std::invalid_argument("gpuprim::copy: device span has " + std::to_string(from.size()) +
                                " elements, host span " + std::to_string(to.size()));
  }
  detail::copy_to_host(to.data(), from.data(), from.size_bytes(), nullptr);
  synchronize(nullptr);
}

// Host -> device copy into existing device memory of the same size.
template <class U, class T>
requires std::is_same_v<std::remove_const_t<U>, T>
void copy(std::span<U> from, device_span<T> to) {
  if (from.size() != to.size()) {
    throw std::invalid_argument("gpuprim::copy: host span has " + std::to_string(from.size()) +
                                " elements, device span " + std::to_string(to.size()));
  }
  detail::copy_to_device(to.data(), from.data(), from.size_bytes(), nullptr);
  synchronize(nullptr);
}

// What algorithms accept as device input: device_span<T> or device_vector<T>.
template <class T>
device_span<T> as_device_span(device_span<T> s) {
  return s;
}
template <class T>
device_span<T> as_device_span(device_vector<T>& v) {
  return v.span();
}
template <class T>
device_span<const T> as_device_span(const device_vector<T>& v) {
  return v.span();
}

// What algorithms accept as a device output: the same, and writable (const
// data is a compile-time error).
template <class R>
auto writable_device_span(R&& r) {
  auto s = as_device_span(r);
  static_assert(!std::is_const_v<typename decltype(s)::element_type>,
                "gpuprim: an output (or data sorted in place) must be writable device memory");
  return s;
}

template <class R>
concept device_range = requires(R& r) {
  gpuprim::as_device_span(r);
};

template <class R>
using device_range_value_t =
    typename decltype(gpuprim::as_device_span(std::declval<R&>()))::value_type;

}  // namespace gpuprim
