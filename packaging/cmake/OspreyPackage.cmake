# Installation and the Debian package: `cmake --build build --target package` writes
# build/osprey_<version>_amd64.deb with /usr/bin/osprey and /usr/bin/osprey-cli, the desktop file, icons,
# AppStream metadata, MIME type, translations and man pages (installed by resources/ and packaging/).
# Included once from the top CMakeLists.txt after app/.
#
# Every library the programs load is a Debian package in the system library path (the core modules are
# static), so the installed programs carry no RPATH (packaging/CMakeLists.txt clears Qt's default).
if(OSPREY_ENGINE_ONLY)
    return()
endif()

set(OSPREY_PACKAGE_MAINTAINER "The Osprey developers <osprey@example.org>"
    CACHE STRING "The .deb's Maintainer field and the changelog's signature")
set(OSPREY_HOMEPAGE_URL "https://github.com/osprey/osprey" CACHE STRING "The project's homepage")

if(OSPREY_BUILD_GUI AND TARGET osprey)
    add_subdirectory(${OSPREY_SOURCE_DIR}/resources ${CMAKE_BINARY_DIR}/resources)
endif()
add_subdirectory(${OSPREY_SOURCE_DIR}/packaging ${CMAKE_BINARY_DIR}/packaging)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME osprey)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "The Osprey developers")
set(CPACK_PACKAGE_CONTACT ${OSPREY_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "label images and train object detectors")
set(CPACK_PACKAGE_DESCRIPTION
    "Osprey is a desktop application for people who build object detectors.
Annotators import a YOLO, COCO or Pascal VOC dataset and draw and fix
bounding boxes, with a model proposing boxes for them; engineers train
YOLOv8 and YOLO11 detectors (LibTorch) on an NVIDIA GPU or the CPU and
watch live charts while the run goes. Runs can stream to a dashboard.

The package holds the Qt application (osprey, in English or Simplified
Chinese) and the command-line tool that runs the same engine (osprey-cli).")
set(CPACK_PACKAGE_FILE_NAME "osprey_${PROJECT_VERSION}_amd64")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${OSPREY_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${OSPREY_HOMEPAGE_URL})
# Depends: the shared libraries the programs link (dpkg-shlibdeps), plus what they load at run time:
# OpenBLAS (LibTorch is 15x slower on the reference BLAS), a CJK font so Chinese renders, and Qt's SVG
# icon engine for the window icon. Qt's own Chinese strings (standard buttons) are recommended.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "fonts-noto-cjk, libopenblas0-pthread, libqt6svg6")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n")
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
# The .deb holds only Debian packages' libraries, so it is built against Debian's LibTorch (CPU training);
# from a build with pip's torch (its libraries live in a venv the package cannot depend on) CPack refuses.
if(OSPREY_WITH_TORCH AND NOT OSPREY_TORCH_FLAVOR STREQUAL "debian")
    file(WRITE ${CMAKE_BINARY_DIR}/OspreyRefusePackage.cmake
         "message(FATAL_ERROR \"The .deb is built against Debian's LibTorch only; this build folder uses "
         "${OSPREY_TORCH_DIR_USED}. Build the package in its own folder: cmake -S . -B build-debian -G Ninja "
         "-DOSPREY_TORCH=debian && cmake --build build-debian -j2 --target package (docs/packaging.md)\")\n")
    set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_BINARY_DIR}/OspreyRefusePackage.cmake)
endif()
include(CPack)
