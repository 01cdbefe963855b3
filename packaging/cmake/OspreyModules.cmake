# Helpers that declare Osprey's library targets. Each core module is one static library whose link
# list states what it may use, so the build enforces the layer rule in DESIGN.md.

# osprey_core_module(<name> SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...] [TORCH_PCH])
# Creates target osprey_<name> (alias osprey::<name>) from core/<name>. Public headers are included as
# "<name>/header.h" from the core/ root.
function(osprey_core_module name)
    cmake_parse_arguments(ARG "TORCH_PCH" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
    set(target osprey_${name})
    add_library(${target} STATIC ${ARG_SOURCES})
    add_library(osprey::${name} ALIAS ${target})
    target_include_directories(${target} PUBLIC ${OSPREY_SOURCE_DIR}/core)
    target_compile_options(${target} PRIVATE ${OSPREY_WARNINGS})
    target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
    # Core is Qt-free: no moc, uic or rcc steps there.
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
    if(ARG_TORCH_PCH)
        # Torch headers dominate compile time; one precompiled header per torch module.
        target_precompile_headers(${target} PRIVATE <torch/torch.h>)
    endif()
endfunction()

# osprey_ui_module(<name> SOURCES ... [DEPS ...]) creates osprey_ui_<name> from ui/<name>.
function(osprey_ui_module name)
    cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
    set(target osprey_ui_${name})
    add_library(${target} STATIC ${ARG_SOURCES})
    add_library(osprey::ui_${name} ALIAS ${target})
    target_include_directories(${target} PUBLIC ${OSPREY_SOURCE_DIR} ${OSPREY_SOURCE_DIR}/core)
    target_compile_options(${target} PRIVATE ${OSPREY_WARNINGS})
    target_link_libraries(${target} PUBLIC Qt6::Widgets ${ARG_DEPS})
    set_target_properties(${target} PROPERTIES AUTOMOC ON AUTORCC ON)
endfunction()
