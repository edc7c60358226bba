# The direction of includes (docs/design.md, "The direction of includes"):
# facade -> detail -> backends, never back up. Reads every header under
# INCLUDE_DIR/gpuprim/detail and INCLUDE_DIR/gpuprim/cuda and fails, naming
# file and line, when one includes
#  - a backend above it: gpuprim/host/ or gpuprim/dist/ (and, from detail/,
#    gpuprim/cuda/: the GPU is reached through detail/<family>/entry.hpp);
#  - a facade: gpuprim/<name>.hpp (a family's <family>_types.hpp is
#    vocabulary, not a facade, and may be included), or one of the .cu
#    files' facades, gpuprim/cuda/<family>.cuh.
# The .cu files' facades themselves (the headers directly in gpuprim/cuda/)
# sit beside the facade they extend and are not read.
#
#   cmake -DINCLUDE_DIR=<repo>/include -P cmake/check_include_direction.cmake
if(NOT DEFINED INCLUDE_DIR)
  message(FATAL_ERROR "check_include_direction.cmake: INCLUDE_DIR is not set")
endif()
set(root ${INCLUDE_DIR}/gpuprim)
if(NOT IS_DIRECTORY ${root}/detail OR NOT IS_DIRECTORY ${root}/cuda)
  message(FATAL_ERROR "check_include_direction.cmake: no gpuprim/detail and gpuprim/cuda "
                      "under ${INCLUDE_DIR}")
endif()

set(header_globs)
foreach(dir detail cuda)
  foreach(ext hpp cuh h inl)
    list(APPEND header_globs ${root}/${dir}/*.${ext})
  endforeach()
endforeach()
file(GLOB_RECURSE headers LIST_DIRECTORIES false ${header_globs})
list(SORT headers)

set(include_line "^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"]*)[>\"]")
set(violations 0)
set(checked 0)
foreach(header ${headers})
  file(RELATIVE_PATH name ${INCLUDE_DIR} ${header})
  if(name MATCHES "^gpuprim/cuda/[^/]+$")
    continue()  # a .cu file's facade (see above)
  endif()
  math(EXPR checked "${checked} + 1")
  set(from_detail FALSE)
  if(name MATCHES "^gpuprim/detail/")
    set(from_detail TRUE)
  endif()
  # One list element per line: the characters CMake's lists treat specially
  # are replaced first (an include path holds none of them).
  file(READ ${header} text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "[" "<open>" text "${text}")
  string(REPLACE "]" "<close>" text "${text}")
  string(REPLACE "\\" "<backslash>" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(NOT line MATCHES "${include_line}")
      continue()
    endif()
    set(target "${CMAKE_MATCH_1}")
    set(why "")
    if(target MATCHES "^gpuprim/(host|dist)/")
      set(why "a backend above it (gpuprim/${CMAKE_MATCH_1}/)")
    elseif(from_detail AND target MATCHES "^gpuprim/cuda/")
      set(why "the CUDA backend (detail/ reaches it through entry.hpp declarations)")
    elseif(target MATCHES "^gpuprim/cuda/[^/]+$")
      set(why "a .cu file's facade")
    elseif(target MATCHES "^gpuprim/([^/]+)\\.hpp$" AND NOT target MATCHES "_types\\.hpp$")
      set(why "a facade")
    endif()
    if(why)
      message(SEND_ERROR "${name}:${number}: includes ${target}: ${why}")
      math(EXPR violations "${violations} + 1")
    endif()
  endforeach()
endforeach()

if(checked EQUAL 0)
  message(FATAL_ERROR "check_include_direction.cmake: no header found under ${root}")
endif()
if(violations GREATER 0)
  message(FATAL_ERROR "${violations} include(s) against the direction facade -> detail -> "
                      "backends (docs/design.md, \"The direction of includes\")")
endif()
message(STATUS "${checked} headers of gpuprim/detail and gpuprim/cuda include only downwards")
