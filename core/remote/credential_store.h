#pragma once
// Stores the platform API key: in the OS keychain through libsecret when a secret service runs,
// otherwise in `$XDG_CONFIG_HOME/osprey/platform.json` (or ~/.config/osprey) created with mode 0600.
// The base URL, when set, always lives in that file. Nothing here prints or logs the key.
//
// Thread affinity: none; each call opens what it needs. Concurrent save() calls race like any two
// writers of one settings file (the last rename wins; the file is never half-written).

#include "common/expected.h"
#include "remote/platform_settings.h"

#include <filesystem>
#include <optional>
#include <string>

namespace osprey::remote {

struct StoredCredentials {
    std::string apiKey;  ///< empty when none is stored
    std::string baseUrl; ///< empty when none is stored
    SettingSource keySource = SettingSource::None;
};

/// Which backend save() may use.
enum class KeychainUse { Auto, Never };

class CredentialStore {
public:
    /// `configDir` defaults to $XDG_CONFIG_HOME/osprey or ~/.config/osprey. With Auto, the keychain is
    /// tried when libsecret was built in, a D-Bus session bus is advertised and OSPREY_NO_KEYCHAIN is
    /// unset; any keychain failure falls back to the file.
    explicit CredentialStore(std::filesystem::path configDir = {}, KeychainUse keychain = KeychainUse::Auto);

    std::filesystem::path settingsFile() const;

    /// What is stored; nullopt when nothing is (a malformed file reads as nothing, with a warning).
    std::optional<StoredCredentials> load() const;
    /// Stores the key (and the base URL when not empty). Returns where the key went.
    Expected<SettingSource> save(const std::string& apiKey, const std::string& baseUrl = {}) const;
    /// Removes the key from the keychain and the file (the base URL is kept).
    Status remove() const;

    /// True when the keychain will be tried (see the constructor).
    bool keychainEnabled() const;

private:
    std::filesystem::path m_configDir;
    KeychainUse m_keychain;
};

} // namespace osprey::remote
