#include "remote/platform_settings.h"

#include "remote/credential_store.h"

#include <cctype>
#include <cstdlib>

namespace osprey::remote {

const char* toString(SettingSource source) {
    switch (source) {
    case SettingSource::None:
        return "none";
    case SettingSource::Environment:
        return "environment";
    case SettingSource::Keychain:
        return "keychain";
    case SettingSource::SettingsFile:
        return "settings file";
    case SettingSource::Default:
        return "default";
    }
    return "none";
}

std::string trimBaseUrl(std::string_view url) {
    while (!url.empty() && url.back() == '/')
        url.remove_suffix(1);
    return std::string(url);
}

PlatformSettings resolveSettings() {
    PlatformSettings settings;
    const char* envKey = std::getenv(kApiKeyEnv);
    const char* envUrl = std::getenv(kPlatformUrlEnv);
    // The store is only consulted for what the environment did not provide: a keychain lookup can be slow.
    std::optional<StoredCredentials> stored;
    if (!(envKey && *envKey) || !(envUrl && *envUrl))
        stored = CredentialStore().load();
    if (envKey && *envKey) {
        settings.apiKey = envKey;
        settings.keySource = SettingSource::Environment;
    } else if (stored && !stored->apiKey.empty()) {
        settings.apiKey = stored->apiKey;
        settings.keySource = stored->keySource;
    }
    if (envUrl && *envUrl) {
        settings.baseUrl = trimBaseUrl(envUrl);
        settings.urlSource = SettingSource::Environment;
    } else if (stored && !stored->baseUrl.empty()) {
        settings.baseUrl = trimBaseUrl(stored->baseUrl);
        settings.urlSource = SettingSource::SettingsFile;
    }
    return settings;
}

std::string maskKey(std::string_view key) {
    if (key.size() < 12)
        return "****";
    return std::string(key.substr(0, 3)) + "****" + std::string(key.substr(key.size() - 4));
}

bool looksLikeApiKey(std::string_view key) {
    if (key.size() != 43 || key.substr(0, 3) != "ul_")
        return false;
    for (char c : key.substr(3))
        if (!std::isxdigit(static_cast<unsigned char>(c)))
            return false;
    return true;
}

namespace {

std::string slug(std::string_view text) {
    std::string out;
    for (char raw : text) {
        const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(raw)));
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')
            out += c;
        else if (c == ' ')
            out += '-';
    }
    if (out.size() > 128)
        out.resize(128);
    return out;
}

} // namespace

std::string normalizeProject(std::string_view remote) {
    const auto slash = remote.find('/');
    if (slash == std::string_view::npos)
        return slug(remote);
    return std::string(remote.substr(0, slash + 1)) + slug(remote.substr(slash + 1));
}

std::string normalizeName(std::string_view name) {
    auto out = slug(name);
    return out.empty() ? std::string("train") : out;
}

std::string dashboardUrl(const std::string& baseUrl, const std::string& project,
                         const std::string& modelSlug) {
    return trimBaseUrl(baseUrl) + "/" + project + "/" + modelSlug;
}

} // namespace osprey::remote
