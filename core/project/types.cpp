#include "project/types.h"

#include <array>
#include <cmath>
#include <cstdio>
#include <utility>

namespace osprey::project {

namespace {
template <typename E, size_t N>
std::optional<E> lookup(const std::array<std::pair<E, std::string_view>, N>& table, std::string_view text) {
    for (const auto& [value, name] : table)
        if (name == text)
            return value;
    return std::nullopt;
}
template <typename E, size_t N>
std::string_view name(const std::array<std::pair<E, std::string_view>, N>& table, E value) {
    for (const auto& [candidate, text] : table)
        if (candidate == value)
            return text;
    return {};
}

// These strings are stored in the database and are part of the public schema.
constexpr std::array<std::pair<ImageStatus, std::string_view>, 4> kStatuses{
    {{ImageStatus::New, "new"},
     {ImageStatus::Labeled, "labeled"},
     {ImageStatus::Reviewed, "reviewed"},
     {ImageStatus::VerifiedEmpty, "verified_empty"}}};
constexpr std::array<std::pair<Split, std::string_view>, 4> kSplits{
    {{Split::Train, "train"}, {Split::Val, "val"}, {Split::Test, "test"}, {Split::None, "none"}}};
constexpr std::array<std::pair<BoxSource, std::string_view>, 3> kSources{
    {{BoxSource::Manual, "manual"}, {BoxSource::Model, "model"}, {BoxSource::Import, "import"}}};
constexpr std::array<std::pair<RunStatus, std::string_view>, 4> kRunStatuses{
    {{RunStatus::Running, "running"},
     {RunStatus::Finished, "finished"},
     {RunStatus::Stopped, "stopped"},
     {RunStatus::Failed, "failed"}}};
} // namespace

std::string_view toString(ImageStatus status) {
    return name(kStatuses, status);
}
std::string_view toString(Split split) {
    return name(kSplits, split);
}
std::string_view toString(BoxSource source) {
    return name(kSources, source);
}
std::string_view toString(RunStatus status) {
    return name(kRunStatuses, status);
}
std::optional<ImageStatus> imageStatusFromString(std::string_view text) {
    return lookup(kStatuses, text);
}
std::optional<Split> splitFromString(std::string_view text) {
    return lookup(kSplits, text);
}
std::optional<BoxSource> boxSourceFromString(std::string_view text) {
    return lookup(kSources, text);
}
std::optional<RunStatus> runStatusFromString(std::string_view text) {
    return lookup(kRunStatuses, text);
}

std::string videoTimeText(double seconds) {
    const long long hundredths = std::isfinite(seconds) && seconds > 0 ? std::llround(seconds * 100) : 0;
    const long long hours = hundredths / 360000, minutes = hundredths / 6000 % 60;
    const long long wholeSeconds = hundredths / 100 % 60, fraction = hundredths % 100;
    char text[48];
    if (hours > 0)
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld.%02lld", hours, minutes, wholeSeconds, fraction);
    else
        std::snprintf(text, sizeof text, "%02lld:%02lld.%02lld", minutes, wholeSeconds, fraction);
    return text;
}

} // namespace osprey::project
