#pragma once
// Locating the shared fixtures beside the checkout. Tests that need them call QSKIP with a clear message
// when the folder is absent, so a fresh clone still passes.

#include <QString>
#include <filesystem>

namespace osprey::test {

inline std::filesystem::path sharedDir() {
    return std::filesystem::path(OSPREY_SHARED_DIR);
}
inline std::filesystem::path fixture(const std::string& relative) {
    return sharedDir() / "fixtures" / relative;
}
inline bool haveFixture(const std::string& relative) {
    return std::filesystem::exists(fixture(relative));
}

} // namespace osprey::test

/// Skips the current test when a shared fixture is missing.
#define OSPREY_REQUIRE_FIXTURE(relative)                                                                     \
    do {                                                                                                     \
        if (!osprey::test::haveFixture(relative))                                                            \
            QSKIP(                                                                                           \
                qPrintable(QString("shared fixture %1 not found beside the checkout (../shared/fixtures); "  \
                                   "skipping")                                                               \
                               .arg(QString::fromStdString(relative))));                                     \
    } while (false)
