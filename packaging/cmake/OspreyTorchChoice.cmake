# Which LibTorch the build links, chosen once per build folder by the cache option OSPREY_TORCH:
#   auto    (default) pip's torch from packaging/setup-cuda-torch.sh's venv when it is installed and a CUDA
#           toolkit (nvcc) is there for its CMake files; otherwise Debian's libtorch-dev 1.13
#   pip     that venv, or fail saying why
#   debian  Debian's libtorch-dev 1.13 (CPU only, float32): the .deb is built with this one
# A Torch_DIR given on the command line (an official LibTorch zip, a device machine's PyTorch) wins under
# auto. The configure output says in one framed block which LibTorch it is and why. Changing the choice in
# an existing build folder forgets what the previous LibTorch's config files cached.
# Sets OSPREY_TORCH_FLAVOR (pip, debian or custom), OSPREY_TORCH_PREFIX (the prefix the LibTorch's config
# files sit under, for pip and custom) and, for pip, CMAKE_CUDA_COMPILER and CUDA_TOOLKIT_ROOT_DIR when
# nvcc is not on PATH but in /usr/local/cuda.
# Included from the top CMakeLists.txt before find_package(Torch).
# Its first value comes from the environment variable of the same name when set (install-deps.sh reads it too).
set(_osprey_torch_default auto)
if(DEFINED ENV{OSPREY_TORCH} AND NOT "$ENV{OSPREY_TORCH}" STREQUAL "")
    set(_osprey_torch_default $ENV{OSPREY_TORCH})
endif()
set(OSPREY_TORCH ${_osprey_torch_default} CACHE STRING "Which LibTorch to build with: auto (pip's torch when installed, else Debian's), pip or debian")
set_property(CACHE OSPREY_TORCH PROPERTY STRINGS auto pip debian)
if(NOT OSPREY_TORCH MATCHES "^(auto|pip|debian)$")
    message(FATAL_ERROR "OSPREY_TORCH=${OSPREY_TORCH}: use auto, pip or debian")
endif()

function(osprey_torch_banner flavor dir why)
    message(STATUS "==================================================================================")
    message(STATUS "Osprey: LibTorch = ${flavor}")
    message(STATUS "        Torch_DIR ${dir}")
    message(STATUS "        because ${why}")
    message(STATUS "==================================================================================")
endfunction()

set(_osprey_debian_dir /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/cmake/Torch)
set(_osprey_debian_ok FALSE)
if(EXISTS ${_osprey_debian_dir}/TorchConfig.cmake)
    set(_osprey_debian_ok TRUE)
endif()

get_property(_osprey_given_type CACHE Torch_DIR PROPERTY TYPE)
if(OSPREY_TORCH STREQUAL "auto" AND _osprey_given_type STREQUAL "UNINITIALIZED")
    # -DTorch_DIR=... without a type: the user's own LibTorch.
    set(_osprey_flavor custom)
    set(_osprey_dir ${Torch_DIR})
    set(_osprey_why "Torch_DIR was given on the command line (OSPREY_TORCH=auto)")
else()
    # pip's torch: the venv must be complete (setup-cuda-torch.sh --torch-dir checks its stamp) and its
    # CMake files need the CUDA toolkit's nvcc, on PATH or in /usr/local/cuda as NVIDIA installs it.
    set(_osprey_pip_dir "")
    set(_osprey_pip_problem "")
    if(NOT OSPREY_TORCH STREQUAL "debian")
        execute_process(COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/packaging/setup-cuda-torch.sh --torch-dir
                        RESULT_VARIABLE _osprey_rc OUTPUT_VARIABLE _osprey_pip_dir ERROR_VARIABLE _osprey_err
                        OUTPUT_STRIP_TRAILING_WHITESPACE)
        if(NOT _osprey_rc EQUAL 0 OR NOT EXISTS "${_osprey_pip_dir}/TorchConfig.cmake")
            set(_osprey_pip_dir "")
            set(_osprey_pip_problem "pip's torch is not installed (packaging/setup-cuda-torch.sh installs it)")
        else()
            find_program(_osprey_nvcc_on_path nvcc NO_CACHE)
            set(_osprey_nvcc "")
            if(NOT CMAKE_CUDA_COMPILER AND NOT _osprey_nvcc_on_path AND EXISTS /usr/local/cuda/bin/nvcc)
                set(_osprey_nvcc /usr/local/cuda/bin/nvcc)
            elseif(NOT CMAKE_CUDA_COMPILER AND NOT _osprey_nvcc_on_path)
                set(_osprey_pip_problem
                    "pip's torch is installed but no CUDA toolkit (nvcc on PATH or in /usr/local/cuda/bin), which its CMake files need, was found (see docs/cuda.md)")
            endif()
        endif()
    endif()
    if(OSPREY_TORCH STREQUAL "debian")
        set(_osprey_flavor debian)
        set(_osprey_why "OSPREY_TORCH=debian")
    elseif(NOT _osprey_pip_problem)
        set(_osprey_flavor pip)
        set(_osprey_why "OSPREY_TORCH=${OSPREY_TORCH} and pip's torch is installed")
    elseif(OSPREY_TORCH STREQUAL "pip")
        message(FATAL_ERROR "OSPREY_TORCH=pip, but ${_osprey_pip_problem}")
    else()
        set(_osprey_flavor debian)
        set(_osprey_why "OSPREY_TORCH=auto and ${_osprey_pip_problem}")
    endif()
    if(_osprey_flavor STREQUAL "pip")
        set(_osprey_dir ${_osprey_pip_dir})
    else()
        if(NOT _osprey_debian_ok)
            message(FATAL_ERROR "Osprey: ${_osprey_why}, and Debian's LibTorch is not installed either "
                                "(${_osprey_debian_dir}): run packaging/install-deps.sh")
        endif()
        set(_osprey_dir ${_osprey_debian_dir})
    endif()
endif()

# A new choice in an existing build folder: forget what the previous LibTorch's config files found. A
# folder configured before this choice existed has no OSPREY_TORCH_DIR_USED: its cached Torch_DIR says
# which LibTorch it used (without this, pip's headers were compiled against Debian's cached libtorch.so).
set(_osprey_previous_dir "${OSPREY_TORCH_DIR_USED}")
if(NOT DEFINED OSPREY_TORCH_DIR_USED AND DEFINED CACHE{Torch_DIR} AND EXISTS "${Torch_DIR}")
    get_filename_component(_osprey_previous_dir "${Torch_DIR}" ABSOLUTE)
endif()
if(_osprey_previous_dir AND NOT _osprey_previous_dir STREQUAL _osprey_dir)
    message(STATUS "Osprey: LibTorch changes from ${_osprey_previous_dir}; forgetting its cached paths")
    get_filename_component(_osprey_old_prefix "${_osprey_previous_dir}/../../.." ABSOLUTE)
    get_cmake_property(_osprey_cached CACHE_VARIABLES)
    foreach(_osprey_var IN LISTS _osprey_cached)
        get_property(_osprey_type CACHE ${_osprey_var} PROPERTY TYPE)
        if(_osprey_type STREQUAL "INTERNAL" OR _osprey_var MATCHES "^(OSPREY_TORCH|CMAKE_)")
            continue()
        endif()
        if(_osprey_var MATCHES "^(Torch_DIR|Caffe2_DIR|TORCH_LIBRARY|c10_LIBRARY|C10_CUDA_LIBRARY|kineto_LIBRARY|OSPREY_NCCL_INCLUDE_DIR|OSPREY_GLOO_INCLUDE_DIR|Protobuf_.*)$"
           OR (NOT _osprey_old_prefix MATCHES "^/usr" AND "${${_osprey_var}}" MATCHES "^${_osprey_old_prefix}"))
            unset(${_osprey_var} CACHE)
        endif()
    endforeach()
endif()
set(OSPREY_TORCH_DIR_USED ${_osprey_dir} CACHE INTERNAL "The Torch_DIR this build folder was configured with")

set(OSPREY_TORCH_FLAVOR ${_osprey_flavor})
set(OSPREY_TORCH_PREFIX "")
if(_osprey_flavor STREQUAL "custom")
    osprey_torch_banner("the LibTorch given with -DTorch_DIR" "${_osprey_dir}" "${_osprey_why}")
else()
    set(Torch_DIR ${_osprey_dir} CACHE PATH "The LibTorch Osprey builds with (set from OSPREY_TORCH)" FORCE)
    if(_osprey_flavor STREQUAL "pip")
        if(_osprey_nvcc)
            # Not on PATH: torch's FindCUDA and enable_language(CUDA) are told where it is.
            set(CMAKE_CUDA_COMPILER ${_osprey_nvcc} CACHE FILEPATH "The CUDA compiler pip's torch's CMake files need")
            set(CUDA_TOOLKIT_ROOT_DIR /usr/local/cuda CACHE PATH "The CUDA toolkit pip's torch's CMake files need")
        endif()
        osprey_torch_banner("pip's torch (CPU and NVIDIA GPUs; bf16 on CPUs that have it)" "${_osprey_dir}"
                            "${_osprey_why}")
    else()
        osprey_torch_banner("Debian's libtorch-dev 1.13 (CPU only, float32)" "${_osprey_dir}" "${_osprey_why}")
    endif()
endif()
if(NOT _osprey_flavor STREQUAL "debian")
    get_filename_component(OSPREY_TORCH_PREFIX "${_osprey_dir}/../../.." ABSOLUTE)
endif()
