// A slice's reduction without `init` (nullopt when the slice is empty), on
// the host or on a GPU: what each rank or device contributes to a
// distributed reduction, combined afterwards in rank or device order.
#pragma once

#include <optional>
#include <type_traits>

#include "gpuprim/reduce.hpp"

namespace gpuprim {
namespace detail {

template <class T, class R, class Op, class Fetch>
std::optional<T> local_partial(host_backend local, const R& in, Op op, Fetch fetch) {
  const auto s = host_span(in);
  if (s.empty()) return std::nullopt;
  const T first = static_cast<T>(fetch(s[0], 0));
  return host_impl::transform_reduce(local, s.data() + 1, s.size() - 1, first, op, fetch);
}

template <class T, class R, class Op, class Fetch>
std::optional<T> local_partial(cuda_backend local, const R& in, Op op, Fetch fetch) {
  using In = device_range_value_t<const R>;
  device_span<const In> s = as_device_span(in);
  if (s.empty()) return std::nullopt;
  std::remove_const_t<In> head;
  copy_to_host(&head, s.data(), sizeof head, local.stream);
  synchronize(local.stream);
  const T first = static_cast<T>(fetch(head, 0));
  if (s.size() == 1) return first;
  return cuda_reduce_to_host(local, device_span<const In>(s.data() + 1, s.size() - 1), first, op,
                             fetch);
}

}  // namespace detail
}  // namespace gpuprim
