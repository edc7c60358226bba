// Compiles every entry point of a list of precompiled instances into the
// library. Included only by the instantiation files CMake generates from a
// family's table (cmake/GpuprimInstantiate.cmake); a family's instantiate.cuh
// says which entry point an instance names, by an overload of entry_of.
// Where the entry point is one function template over the instance's type
// parameters, in order, GPUPRIM_ENTRY_OF writes the overload:
//
//   GPUPRIM_ENTRY_OF(reduce_instance, cuda_reduce_into)
//
// Where an instance names several entry points (a std::tuple of their
// addresses) or takes a value parameter, the family writes entry_of itself.
// The generated file explicitly instantiates instantiation<list>. The
// addresses in its member make the compiler emit each entry point (with
// the kernels it launches), as an explicit instantiation of each would.
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

// The entry_of overload of Instance<T...> (in namespace gpuprim::detail)
// whose entry point is Entry<T...>.
#define GPUPRIM_ENTRY_OF(Instance, Entry)   \
  template <class... T>                     \
  constexpr auto entry_of(Instance<T...>) { \
    return &Entry<T...>;                    \
  }
