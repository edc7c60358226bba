// Where a data command runs: --backend parsed to a backend_request, resolved
// once to the library's own tag (gp::host or gp::cuda) held in a variant, and
// visited, so each command's body is one template over the tag. The staging
// helpers below say where that body's arrays live: on the host they are the
// caller's memory (a view, no copy), on the GPU device copies.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace gpuprim::cli {

// What --backend asked for; automatic when it was not given.
enum class backend_request { automatic, host, cuda };

using backend = std::variant<host_backend, cuda_backend>;

// host or cuda as asked; automatic is cuda when a device is present, host
// otherwise. Throws usage_error for cuda without a device.
backend resolve(backend_request requested);

// Adds `--backend host|cuda` (default: cuda when a GPU is present).
CLI::Option* add_backend_option(CLI::App* command, backend_request& requested);

template <class B>
inline constexpr bool is_gpu = std::is_same_v<B, cuda_backend>;

// ---- staging: the arrays of a command body, where its backend reads them ----

// Input values as backend b reads them: on the host a view of the caller's
// memory, on the GPU a device copy. The view of a temporary is refused.
template <class T>
std::span<const T> stage(host_backend, std::span<const T> values) {
  return values;
}
template <class T>
std::span<const T> stage(host_backend, const std::vector<T>& values) {
  return values;
}
template <class T>
std::span<const T> stage(host_backend, std::vector<T>&& values) = delete;
template <class T>
device_vector<T> stage(cuda_backend, std::span<const T> values) {
  return to_device(values);
}
template <class T>
device_vector<T> stage(cuda_backend, const std::vector<T>& values) {
  return to_device(values);
}

// Values that backend b reads and overwrites in place: on the host the
// caller's vector itself, on the GPU a device copy that write_back copies
// into the caller's vector.
template <class T>
std::span<T> stage_in_place(host_backend, std::vector<T>& values) {
  return values;
}
template <class T>
device_vector<T> stage_in_place(cuda_backend, std::vector<T>& values) {
  return to_device(values);
}
template <class T>
void write_back(std::vector<T>&, std::span<T>) {}
template <class T>
void write_back(std::vector<T>& values, const device_vector<T>& staged) {
  values = to_host(staged);
}
// The same over memory the caller owns in another form (a file's bytes).
template <class T>
std::span<T> stage_in_place(host_backend, std::span<T> values) {
  return values;
}
template <class T>
device_vector<T> stage_in_place(cuda_backend, std::span<T> values) {
  return to_device(std::span<const T>(values));
}
template <class T>
void write_back(std::span<T>, std::span<T>) {}
template <class T>
void write_back(std::span<T> values, const device_vector<T>& staged) {
  copy(staged.span(), values);
}

// Other objects the library copies to a device with gp::to_device (a CSR
// matrix): the object itself on the host (bind the result to a const
// reference, not to a copy).
template <class X>
const X& stage_object(host_backend, const X& x) {
  return x;
}
template <class X>
auto stage_object(cuda_backend, const X& x) {
  return to_device(x);
}

// The values converted to D where the GPU needs it (the types it
// precompiles); the host reads them as they are.
template <class D, class T>
std::span<const T> stage_as(host_backend, std::span<const T> values) {
  return values;
}
template <class D, class T>
device_vector<D> stage_as(cuda_backend, std::span<const T> values) {
  if constexpr (std::is_same_v<D, T>) {
    return to_device(values);
  } else {
    std::vector<D> converted(values.begin(), values.end());
    return to_device(std::span<const D>(converted));
  }
}

// n elements for backend b to write.
template <class T>
std::vector<T> make_output(host_backend, std::size_t n) {
  return std::vector<T>(n);
}
template <class T>
device_vector<T> make_output(cuda_backend, std::size_t n) {
  return device_vector<T>(n);
}

// An output of make_output in host memory.
template <class T>
std::vector<T> fetch(std::vector<T>&& values) {
  return std::move(values);
}
template <class T>
std::vector<T> fetch(const device_vector<T>& values) {
  return to_host(values);
}

}  // namespace gpuprim::cli
