# Runs one `gpuprim` command line that must fail with exit code 2, one line
# on stderr containing STDERR_CONTAINS, and must leave no OUTPUT file
# (which is removed first).
#
#   cmake -DOUTPUT=<file> -DSTDERR_CONTAINS=<text> -P run_cli_no_output.cmake -- <gpuprim> <args...>
include(${CMAKE_CURRENT_LIST_DIR}/cli_script_steps.cmake)
gpuprim_command_after_separator(command)
file(REMOVE "${OUTPUT}")
execute_process(COMMAND ${command} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
string(REPLACE ";" " " shown "${command}")
set(report "command: ${shown}\nexit: ${code}\nstdout:\n${out}\nstderr:\n${err}")
if(NOT code STREQUAL "2")
  message(FATAL_ERROR "expected exit code 2\n${report}")
endif()
string(FIND "${err}" "${STDERR_CONTAINS}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "expected stderr to contain \"${STDERR_CONTAINS}\"\n${report}")
endif()
gpuprim_expect_one_stderr_line("${err}" "${report}")
if(EXISTS "${OUTPUT}")
  message(FATAL_ERROR "the failed command left ${OUTPUT} behind\n${report}")
endif()
message("${report}")
