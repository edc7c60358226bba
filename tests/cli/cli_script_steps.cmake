# Steps shared by the command-line test scripts (tests/cli/run_cli.cmake,
# run_cli_no_output.cmake, tests/dist/run_dist_cli.cmake), which include it.

# <var>: the command after "--" on the `cmake ... -P <script> -- <command>`
# line.
function(gpuprim_command_after_separator var)
  set(command)
  set(after_separator FALSE)
  math(EXPR last "${CMAKE_ARGC} - 1")
  foreach(i RANGE ${last})
    if(after_separator)
      list(APPEND command "${CMAKE_ARGV${i}}")
    elseif(CMAKE_ARGV${i} STREQUAL "--")
      set(after_separator TRUE)
    endif()
  endforeach()
  set(${var} "${command}" PARENT_SCOPE)
endfunction()

# <var>: why the test cannot run here (empty when it can). <device>:
# "required" (needs a CUDA device), "absent" (needs a machine without one)
# or empty (runs anywhere); `<gpuprim> info --no-measure` counts them. A
# script that gets a reason prints "SKIP: <reason>" (the tests'
# SKIP_REGULAR_EXPRESSION) and returns.
function(gpuprim_device_skip_reason var gpuprim device)
  set(${var} "" PARENT_SCOPE)
  if(NOT device)
    return()
  endif()
  execute_process(COMMAND "${gpuprim}" info --no-measure
    OUTPUT_VARIABLE info RESULT_VARIABLE info_exit)
  if(NOT info_exit EQUAL 0 OR NOT info MATCHES "CUDA devices: ([0-9]+)")
    message(FATAL_ERROR "`gpuprim info --no-measure` failed (${info_exit}):\n${info}")
  endif()
  set(devices ${CMAKE_MATCH_1})
  if(device STREQUAL "required" AND devices EQUAL 0)
    set(${var} "needs a CUDA device" PARENT_SCOPE)
  elseif(device STREQUAL "absent" AND devices GREATER 0)
    set(${var} "needs a machine without a CUDA device" PARENT_SCOPE)
  endif()
endfunction()

# Fails unless `err` (a failed command's stderr) is exactly one line.
function(gpuprim_expect_one_stderr_line err report)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(NOT lines EQUAL 1 OR NOT err MATCHES "\n$")
    message(FATAL_ERROR "expected exactly one line on stderr\n${report}")
  endif()
endfunction()
