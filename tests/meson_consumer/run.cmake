# The Meson consumer, as ctest runs it: its project laid out in WORK with the CMake consumers'
# sources and subprojects/ecmeta linked to ecmeta's source tree, then configured, built and tested.
# -DSOURCE=ecmeta's source tree -DWORK=a scratch folder -DMESON=meson -DNLOHMANN=enabled|disabled
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/src/subprojects")
file(COPY "${SOURCE}/tests/meson_consumer/meson.build" "${SOURCE}/tests/meson_consumer/meson_options.txt"
          "${SOURCE}/tests/cmake_consumers/consumer/core_only.cpp" "${SOURCE}/tests/cmake_consumers/consumer/main.cpp"
     DESTINATION "${WORK}/src")
file(CREATE_LINK "${SOURCE}" "${WORK}/src/subprojects/ecmeta" SYMBOLIC)
foreach(step IN ITEMS "setup;${WORK}/build;${WORK}/src;-Dwith_nlohmann=${NLOHMANN};-Decmeta:nlohmann=${NLOHMANN}"
                      "compile;-C;${WORK}/build" "test;-C;${WORK}/build;--print-errorlogs")
  execute_process(COMMAND "${MESON}" ${step} RESULT_VARIABLE failed)
  if(failed)
    message(FATAL_ERROR "meson ${step} failed")
  endif()
endforeach()
