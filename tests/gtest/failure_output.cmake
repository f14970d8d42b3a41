# Runs the deliberately failing GoogleTest program and checks that it failed and that its output
# shows the values as canonical JSON and names the rank that fell short.
#   cmake -DPROGRAM=path -P failure_output.cmake
execute_process(COMMAND "${PROGRAM}" RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(status EQUAL 0)
  message(FATAL_ERROR "the failing test passed:\n${out}")
endif()
foreach(
  expected IN
  ITEMS [[Which is: {"loaded":["a","b"],"failed_loads":[],"reclaimed":[],"pending_saves":false,"failed_saves":[]}]]
        [[Which is: {"loaded":["b"],"failed_loads":["a"],"reclaimed":[],"pending_saves":false,"failed_saves":[]}]]
        [[Expected: has "a" loaded on every rank that reported (silent ranks skipped)]]
        [[null,{"loaded":["b"],"failed_loads":["a"],"reclaimed":[],"pending_saves":false,"failed_saves":[]}], rank 2 failed to load it]])
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the output lacks\n  ${expected}\nOutput:\n${out}${err}")
  endif()
endforeach()
message(STATUS "the failure shows canonical JSON and the rank that fell short")
