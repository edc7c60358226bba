// Compiles every entry point of a list of precompiled instances into the
// library. Included only by the instantiation files CMake generates from a
// family's table (cmake/GpuprimInstantiate.cmake); a family's instantiate.cuh
// says which entry point an instance names, by an overload of entry_of:
//
//   template <class In, class T, class Op, class Fetch>
//   constexpr auto entry_of(reduce_instance<In, T, Op, Fetch>) {
//     return &cuda_reduce_into<In, T, Op, Fetch>;
//   }
//
// and the generated file explicitly instantiates instantiation<list>. The
// addresses in its member make the compiler emit each entry point (with the
// kernels it launches), as an explicit instantiation of each would.
#pragma once

#include <tuple>

#include "gpuprim/detail/type_list.hpp"

namespace gpuprim::detail {

template <class List>
struct instantiation;

template <class... Instance>
struct instantiation<type_list<Instance...>> {
  static constexpr auto entries = std::tuple{entry_of(Instance{})...};
};

}  // namespace gpuprim::detail
