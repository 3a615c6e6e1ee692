# One install layout for plain CMake installs and for the wheel.
#
# Plain CMake: GNU directories below CMAKE_INSTALL_PREFIX, versioned libraries with
# their soname links (lib/libecgemm.so -> .so.0 -> .so.0.1.0).
# scikit-build-core (SKBUILD): the prefix is the ecgemm package directory
# (wheel.install-dir), so the wheel holds ecgemm/lib, ecgemm/include,
# ecgemm/lib/cmake/ecgemm and ecgemm/lib/pkgconfig. python/ecgemm/_paths.py reads
# the same lib/ and include/ names. Wheels cannot hold symlinks (every link would
# become a full copy), so there each library is one file under an unversioned
# soname: the wheel's version is the library's version.
#
# Every path in the installed CMake and pkg-config files is relative to the file
# itself, so an installed tree (or an unpacked wheel) can be moved.
if(SKBUILD)
  set(CMAKE_INSTALL_LIBDIR lib)
  set(CMAKE_INSTALL_INCLUDEDIR include)
  set(CMAKE_INSTALL_BINDIR bin)
endif()
include(GNUInstallDirs)
set(ECGEMM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/ecgemm)
set(ECGEMM_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ecgemm_install_library(<target> [NO_EXPORT]): install a shared library of the
# project into the library directory, in the ecgemmTargets export set unless
# NO_EXPORT (e.g. an LD_PRELOAD library nobody links against). Libraries that
# load one another find each other through INSTALL_RPATH "$ORIGIN".
function(ecgemm_install_library target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "NO_EXPORT" "" "")
  if(SKBUILD)
    set_property(TARGET ${target} PROPERTY VERSION)
    set_property(TARGET ${target} PROPERTY SOVERSION)
  endif()
  if(arg_NO_EXPORT)
    set(export)
  else()
    set(export EXPORT ecgemmTargets)
  endif()
  install(TARGETS ${target} ${export}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()

# ecgemm_install_pkgconfig(<name>): cmake/<name>.pc.in -> lib/pkgconfig/<name>.pc,
# with prefix=${pcfiledir}/<the way back up to the install prefix>.
function(ecgemm_install_pkgconfig name)
  file(RELATIVE_PATH up "${CMAKE_INSTALL_PREFIX}/${ECGEMM_INSTALL_PKGCONFIGDIR}"
       "${CMAKE_INSTALL_PREFIX}")
  string(REGEX REPLACE "/$" "" up "${up}")
  set(ECGEMM_PC_PREFIX "\${pcfiledir}/${up}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${name}.pc.in
                 ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/${name}.pc
          DESTINATION ${ECGEMM_INSTALL_PKGCONFIGDIR})
endfunction()

# The CMake package: find_package(ecgemm CONFIG) -> ecgemm::ecgemm, ecgemm::blas,
# ecgemm::fortran. Called once, after every library joined the export set.
function(ecgemm_install_cmake_package)
  include(CMakePackageConfigHelpers)
  install(EXPORT ecgemmTargets NAMESPACE ecgemm:: DESTINATION ${ECGEMM_INSTALL_CMAKEDIR})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/ecgemmConfig.cmake.in
          ${PROJECT_BINARY_DIR}/ecgemmConfig.cmake
          INSTALL_DESTINATION ${ECGEMM_INSTALL_CMAKEDIR}
          PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/ecgemmConfigVersion.cmake
          COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/ecgemmConfig.cmake
                ${PROJECT_BINARY_DIR}/ecgemmConfigVersion.cmake
          DESTINATION ${ECGEMM_INSTALL_CMAKEDIR})
endfunction()
