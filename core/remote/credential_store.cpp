#include "remote/credential_store.h"

#include "common/atomic_file.h"
#include "common/log.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef OSPREY_HAVE_LIBSECRET
#include <libsecret/secret.h>
#endif

namespace osprey::remote {
namespace {

std::filesystem::path defaultConfigDir() {
    if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "osprey";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".config" / "osprey";
    return std::filesystem::current_path() / ".osprey";
}

#ifdef OSPREY_HAVE_LIBSECRET
const SecretSchema* keySchema() {
    static const SecretSchema schema = {"org.osprey.PlatformKey",
                                        SECRET_SCHEMA_NONE,
                                        {{"service", SECRET_SCHEMA_ATTRIBUTE_STRING}, {nullptr, {}}}};
    return &schema;
}

std::string takeError(GError* error) {
    std::string message = error ? error->message : "unknown error";
    if (error)
        g_error_free(error);
    return message;
}

bool keychainStore(const std::string& key) {
    GError* error = nullptr;
    const gboolean ok =
        secret_password_store_sync(keySchema(), SECRET_COLLECTION_DEFAULT, "Osprey platform API key",
                                   key.c_str(), nullptr, &error, "service", "platform", nullptr);
    if (!ok) {
        log::warn("keychain unavailable (" + takeError(error) + "); using the settings file");
        return false;
    }
    return true;
}

std::optional<std::string> keychainLookup() {
    GError* error = nullptr;
    gchar* secret = secret_password_lookup_sync(keySchema(), nullptr, &error, "service", "platform", nullptr);
    if (!secret) {
        if (error)
            log::warn("keychain lookup failed: " + takeError(error));
        return std::nullopt;
    }
    std::string key = secret;
    secret_password_free(secret);
    return key;
}

void keychainClear() {
    GError* error = nullptr;
    secret_password_clear_sync(keySchema(), nullptr, &error, "service", "platform", nullptr);
    if (error)
        log::warn("keychain clear failed: " + takeError(error));
}
#endif

// Created 0600 from the first byte: a file written and then chmod-ed would be readable for a moment.
Status writePrivateFile(const std::filesystem::path& path, const std::string& contents) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec)
        return fail(path.parent_path().string() + ": cannot create the folder: " + ec.message());
    const auto temp = path.string() + ".tmp";
    ::unlink(temp.c_str());
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return fail(temp + ": cannot create: " + std::strerror(errno));
    const char* data = contents.data();
    size_t left = contents.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, data, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            ::close(fd);
            ::unlink(temp.c_str());
            return fail(temp + ": write failed: " + std::strerror(errno));
        }
        data += n;
        left -= static_cast<size_t>(n);
    }
    ::fchmod(fd, 0600);
    ::fsync(fd);
    ::close(fd);
    if (::rename(temp.c_str(), path.c_str()) != 0) {
        ::unlink(temp.c_str());
        return fail(path.string() + ": cannot replace: " + std::strerror(errno));
    }
    return {};
}

nlohmann::json readJsonFile(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return nlohmann::json::object();
    auto text = readFile(path);
    if (!text)
        return nlohmann::json::object();
    auto json = nlohmann::json::parse(*text, nullptr, false);
    if (json.is_discarded() || !json.is_object()) {
        log::warn(path.string() + ": not a JSON object; ignoring the stored platform settings");
        return nlohmann::json::object();
    }
    return json;
}

} // namespace

CredentialStore::CredentialStore(std::filesystem::path configDir, KeychainUse keychain)
    : m_configDir(configDir.empty() ? defaultConfigDir() : std::move(configDir)), m_keychain(keychain) {}

std::filesystem::path CredentialStore::settingsFile() const {
    return m_configDir / "platform.json";
}

bool CredentialStore::keychainEnabled() const {
#ifdef OSPREY_HAVE_LIBSECRET
    if (m_keychain == KeychainUse::Never)
        return false;
    if (const char* off = std::getenv("OSPREY_NO_KEYCHAIN"); off && *off && std::string(off) != "0")
        return false;
    // Without a session bus GLib would try to autolaunch one, which hangs or fails slowly on servers.
    const char* bus = std::getenv("DBUS_SESSION_BUS_ADDRESS");
    return bus && *bus;
#else
    return false;
#endif
}

std::optional<StoredCredentials> CredentialStore::load() const {
    const auto json = readJsonFile(settingsFile());
    StoredCredentials stored;
    if (auto url = json.find("base_url"); url != json.end() && url->is_string())
        stored.baseUrl = url->get<std::string>();
    if (auto key = json.find("api_key");
        key != json.end() && key->is_string() && !key->get<std::string>().empty()) {
        stored.apiKey = key->get<std::string>();
        stored.keySource = SettingSource::SettingsFile;
    }
#ifdef OSPREY_HAVE_LIBSECRET
    if (stored.apiKey.empty() && json.value("key_store", std::string()) == "keychain" && keychainEnabled()) {
        if (auto key = keychainLookup()) {
            stored.apiKey = *key;
            stored.keySource = SettingSource::Keychain;
        }
    }
#endif
    if (stored.apiKey.empty() && stored.baseUrl.empty())
        return std::nullopt;
    return stored;
}

Expected<SettingSource> CredentialStore::save(const std::string& apiKey, const std::string& baseUrl) const {
    auto json = readJsonFile(settingsFile());
    if (!baseUrl.empty())
        json["base_url"] = trimBaseUrl(baseUrl);
    SettingSource where = SettingSource::SettingsFile;
#ifdef OSPREY_HAVE_LIBSECRET
    if (keychainEnabled() && keychainStore(apiKey))
        where = SettingSource::Keychain;
#endif
    if (where == SettingSource::Keychain) {
        json.erase("api_key");
        json["key_store"] = "keychain";
    } else {
        json["api_key"] = apiKey;
        json["key_store"] = "file";
    }
    if (auto written = writePrivateFile(settingsFile(), json.dump(2) + "\n"); !written)
        return fail(written.error());
    return where;
}

Status CredentialStore::remove() const {
#ifdef OSPREY_HAVE_LIBSECRET
    if (keychainEnabled())
        keychainClear();
#endif
    auto json = readJsonFile(settingsFile());
    std::error_code ec;
    if (!std::filesystem::exists(settingsFile(), ec))
        return {};
    json.erase("api_key");
    json.erase("key_store");
    return writePrivateFile(settingsFile(), json.dump(2) + "\n");
}

} // namespace osprey::remote
