// Which passes of a GPU radix sort move keys, and between which arrays.
// A pass whose digit is the same for every key is trivial: the stable
// reorder by that digit is the identity, so it needs no pass. The routes
// are planned on the device from the digit counts (cuda/device/radix_sort/
// onesweep.cuh, radix_route_passes), so a sort needs no host synchronization;
// the plan itself is plain code, tested on the host.
#pragma once

#include "gpuprim/core/macros.hpp"

namespace gpuprim::detail {

// The three arrays a sort moves keys (and values) between: the input, the
// output (the same memory as the input in place) and a temporary array.
enum radix_buffer : unsigned char { radix_input, radix_output, radix_temporary };

// What one pass's launch does.
enum radix_move : unsigned char { radix_skip, radix_sort_tiles, radix_copy_tiles };

struct alignas(4) radix_route {
  unsigned char move;  // radix_move
  unsigned char from;  // radix_buffer
  unsigned char to;    // radix_buffer (never radix_input)
  unsigned char unused;
};

inline constexpr int radix_max_passes = 8;  // 64-bit keys, 8 bits a pass

// routes[0 .. passes] for passes whose trivial[p] says whether pass p's
// digit is the same for every key (routes[passes]: a copy after the last
// pass, or nothing). Every non-trivial pass sorts; each move goes from
// where the keys are to the other buffer, and the moves alternate backwards
// from the output, so the last one writes it. In place (input = output) the
// number of moves must be even (the first move cannot write the array it
// reads): an odd number of sorting passes borrows a trivial pass as a copy,
// or, when no pass is trivial, ends with the copy of routes[passes]. Out of
// place with every pass trivial, the last pass copies the input.
GPUPRIM_HD inline void radix_plan_routes(const bool* trivial, int passes, bool in_place,
                                         radix_route* routes) {
  int sorting = 0, last_trivial = -1;
  for (int p = 0; p < passes; ++p) {
    if (trivial[p]) {
      last_trivial = p;
    } else {
      ++sorting;
    }
  }
  int borrowed = -1;  // the trivial pass that copies
  bool final_copy = false;
  if (!in_place && sorting == 0) borrowed = last_trivial;
  if (in_place && sorting % 2 == 1) {
    if (last_trivial >= 0) {
      borrowed = last_trivial;
    } else {
      final_copy = true;
    }
  }
  const int moves = sorting + (borrowed >= 0 ? 1 : 0) + (final_copy ? 1 : 0);
  int done = 0;
  unsigned char at = radix_input;
  for (int p = 0; p <= passes; ++p) {
    radix_route r{radix_skip, at, at, 0};
    const bool sorts = p < passes && !trivial[p];
    const bool copies = p == borrowed || (p == passes && final_copy);
    if (sorts || copies) {
      r.move = sorts ? radix_sort_tiles : radix_copy_tiles;
      r.to = (moves - 1 - done) % 2 == 0 ? radix_output : radix_temporary;
      at = r.to;
      ++done;
    }
    routes[p] = r;
  }
}

}  // namespace gpuprim::detail
