// The sizes of an all-to-all exchange among the p GPUs of a group (the
// groups' alltoallv, see gpu_sort.hpp): one row per GPU of this process,
// one column per GPU of the group.
#pragma once

#include <cstdint>
#include <vector>

namespace gpuprim {

// table[d][e], in elements: for the sending side, what GPU d sends to GPU
// e (count) and where it starts in d's send buffer (offset); for the
// receiving side, what GPU d receives from GPU e and where it lands in d's
// receive buffer.
using exchange_table = std::vector<std::vector<std::uint64_t>>;

}  // namespace gpuprim
