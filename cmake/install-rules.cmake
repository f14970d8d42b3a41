include(CMakePackageConfigHelpers)

set(ecmeta_config_dir "${CMAKE_INSTALL_DATADIR}/cmake/ecmeta")

install(DIRECTORY include/ecmeta DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT ecmeta_Development)
set(ecmeta_targets ecmeta_core ecmeta_ecmeta ecmeta_testing ${ecmeta_kit_targets})
if(ECMETA_USES_NLOHMANN)
  list(APPEND ecmeta_targets ecmeta_nlohmann)
endif()
install(TARGETS ${ecmeta_targets} EXPORT ecmetaTargets)
install(
  EXPORT ecmetaTargets
  NAMESPACE ecmeta::
  DESTINATION "${ecmeta_config_dir}"
  COMPONENT ecmeta_Development)

configure_package_config_file(cmake/ecmetaConfig.cmake.in "${PROJECT_BINARY_DIR}/ecmetaConfig.cmake"
                              INSTALL_DESTINATION "${ecmeta_config_dir}")
# Headers only: any architecture may use the package.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/ecmetaConfigVersion.cmake" COMPATIBILITY SameMinorVersion
                                 ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/ecmetaConfig.cmake" "${PROJECT_BINARY_DIR}/ecmetaConfigVersion.cmake"
        DESTINATION "${ecmeta_config_dir}" COMPONENT ecmeta_Development)

# pkg-config, for Meson and Make: ecmeta.pc is ecmeta::core, which needs nothing but the standard library.
set(ecmeta_pc_dir "${CMAKE_INSTALL_DATADIR}/pkgconfig")
file(RELATIVE_PATH ecmeta_pc_to_prefix "/${ecmeta_pc_dir}" "/")
string(REGEX REPLACE "/$" "" ecmeta_pc_to_prefix "${ecmeta_pc_to_prefix}")
configure_file(cmake/ecmeta.pc.in "${PROJECT_BINARY_DIR}/ecmeta.pc" @ONLY)
# ecmeta-nlohmann.pc, ecmeta-gtest.pc and ecmeta-fmt.pc: ecmeta with nlohmann_json (nlohmann_json.pc),
# GoogleTest and gMock (Debian's gtest.pc, gmock.pc), or {fmt} (fmt.pc).
foreach(part IN ITEMS "nlohmann|nlohmann_json integration|nlohmann_json >= ${ecmeta_nlohmann_version}"
                      "gtest|GoogleTest printers and gMock matchers|gmock, gtest"
                      "fmt|{fmt} formatters|fmt >= 9")
  string(REPLACE "|" ";" part "${part}")
  list(GET part 0 ecmeta_pc_part)
  list(GET part 1 ecmeta_pc_part_what)
  list(GET part 2 ecmeta_pc_part_requires)
  configure_file(cmake/ecmeta-part.pc.in "${PROJECT_BINARY_DIR}/ecmeta-${ecmeta_pc_part}.pc" @ONLY)
  install(FILES "${PROJECT_BINARY_DIR}/ecmeta-${ecmeta_pc_part}.pc" DESTINATION "${ecmeta_pc_dir}"
          COMPONENT ecmeta_Development)
endforeach()
install(FILES "${PROJECT_BINARY_DIR}/ecmeta.pc" DESTINATION "${ecmeta_pc_dir}" COMPONENT ecmeta_Development)
