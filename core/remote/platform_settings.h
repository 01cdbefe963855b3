#pragma once
// Where the platform is and which key to use, resolved with the spec's precedence, plus the
// project/name normalisation and key masking. Pure functions; thread-safe.

#include <string>
#include <string_view>

namespace osprey::remote {

inline constexpr const char* kDefaultPlatformUrl = "https://platform.ultralytics.com";
inline constexpr const char* kApiKeyEnv = "ULTRALYTICS_API_KEY";
inline constexpr const char* kPlatformUrlEnv = "ULTRALYTICS_PLATFORM_URL";
/// Project setting (core/project's settings table) remembering the platform project a project's runs are
/// streamed to, as `user/proj`. `osprey-cli train remote=...` writes it; the GUI's train panel reads it
/// as the default of its "Stream to platform" switch and writes it when streaming is on.
inline constexpr const char* kRemoteProjectSetting = "remote.project";

/// Where a setting came from, for `remote status`.
enum class SettingSource { None, Environment, Keychain, SettingsFile, Default };
const char* toString(SettingSource source);

/// The effective connection settings. Holds the key in memory only: never print `apiKey`, use maskKey().
struct PlatformSettings {
    std::string apiKey;
    std::string baseUrl = kDefaultPlatformUrl; ///< without a trailing slash
    SettingSource keySource = SettingSource::None;
    SettingSource urlSource = SettingSource::Default;
};

/// ULTRALYTICS_API_KEY / ULTRALYTICS_PLATFORM_URL first, then the stored credentials (CredentialStore),
/// then the default URL. Never fails: a missing key leaves `apiKey` empty.
PlatformSettings resolveSettings();

/// "ul_****abcd": the first three and last four characters; short keys are fully masked.
std::string maskKey(std::string_view key);

/// True for keys shaped like `ul_` + 40 hex digits (a hint only; the server decides).
bool looksLikeApiKey(std::string_view key);

/// Platform project from `remote=user/proj`: the part before the first '/' is kept as written, the rest
/// is lowercased, reduced to [a-z0-9 -], spaces become '-', cut at 128 characters.
std::string normalizeProject(std::string_view remote);
/// Run name, normalised like the project's tail; empty becomes "train".
std::string normalizeName(std::string_view name);

/// `<base>/<project>/<modelSlug>`.
std::string dashboardUrl(const std::string& baseUrl, const std::string& project,
                         const std::string& modelSlug);

/// Removes trailing slashes.
std::string trimBaseUrl(std::string_view url);

} // namespace osprey::remote
