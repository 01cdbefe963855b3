// osprey-cli remote login|status|sync|logout: the platform key and the project's outbox (platform and MLflow
// runs). The key is never printed: only maskKey() output reaches the terminal.
#include "cli/verb.h"
#include "remote/credential_store.h"
#include "remote/mlflow_sender.h"
#include "remote/outbox.h"
#include "remote/outbox_sync.h"
#include "remote/platform_client.h"
#include "remote/platform_settings.h"
#include "remote/remote_options.h"

#include <nlohmann/json.hpp>

#include <iostream>

namespace osprey::cli {
namespace {

using namespace osprey::remote;

/// Asks the platform who owns the key; returns the username, or a message in `error`.
std::string checkKey(const PlatformSettings& settings, std::string& error) {
    PlatformClient client(settings);
    const auto response = client.accountSummary();
    if (classify(response) == Outcome::Unauthorized) {
        error = "the platform rejected the key (HTTP 401)";
        return {};
    }
    if (classify(response) != Outcome::Success) {
        error = "cannot check the key at " + settings.baseUrl + ": " + describe(response);
        return {};
    }
    const auto body = nlohmann::json::parse(response.body, nullptr, false);
    if (!body.is_object() || !body.contains("username")) {
        error = "the answer of " + settings.baseUrl + "/api/account/summary has no username";
        return {};
    }
    return body["username"].is_string() ? body["username"].get<std::string>() : body["username"].dump();
}

int runLogin(const Args& args) {
    PlatformSettings settings = resolveSettings();
    settings.apiKey = args.str("key");
    if (args.given("url"))
        settings.baseUrl = trimBaseUrl(args.str("url"));
    if (!looksLikeApiKey(settings.apiKey))
        std::cerr
            << "warning: the key does not look like ul_ followed by 40 hex digits; checking it anyway\n";
    std::string error;
    const auto user = checkKey(settings, error);
    if (user.empty()) {
        std::cerr << "error: " << error << "; the key " << maskKey(settings.apiKey) << " was not stored\n";
        return 1;
    }
    CredentialStore store;
    auto where = store.save(settings.apiKey, args.given("url") ? settings.baseUrl : std::string());
    if (!where) {
        std::cerr << "error: " << where.message() << "\n";
        return 1;
    }
    std::cout << "Logged in to " << settings.baseUrl << " as " << user << "; key " << maskKey(settings.apiKey)
              << " stored in the "
              << (*where == SettingSource::Keychain ? std::string("OS keychain")
                                                    : "settings file " + store.settingsFile().string())
              << "\n";
    return 0;
}

int runLogout(const Args&) {
    CredentialStore store;
    if (auto removed = store.remove(); !removed) {
        std::cerr << "error: " << removed.message() << "\n";
        return 1;
    }
    std::cout << "Removed the stored platform key\n";
    return 0;
}

int runStatus(const Args& args) {
    const auto settings = resolveSettings();
    std::cout << "Platform: " << settings.baseUrl << " (" << toString(settings.urlSource) << ")\n";
    if (settings.apiKey.empty()) {
        std::cout << "Key:      none (run `osprey-cli remote login key=...` or set ULTRALYTICS_API_KEY)\n";
    } else {
        std::cout << "Key:      " << maskKey(settings.apiKey) << " (" << toString(settings.keySource)
                  << ")\n";
        if (args.flag("check")) {
            std::string error;
            const auto user = checkKey(settings, error);
            std::cout << "Account:  " << (user.empty() ? "unknown: " + error : user) << "\n";
        }
    }
    if (!args.given("project"))
        return 0;
    auto outbox = Outbox::open(args.str("project"));
    if (!outbox) {
        std::cerr << "error: " << outbox.message() << "\n";
        return 1;
    }
    auto runs = (*outbox)->runs();
    if (!runs) {
        std::cerr << "error: " << runs.message() << "\n";
        return 1;
    }
    std::int64_t queued = 0;
    for (const auto& run : *runs) {
        auto counts = (*outbox)->counts(run.runUid);
        if (!counts)
            continue;
        queued += counts->pending;
        if (run.service == Service::Mlflow) {
            std::cout << "MLflow run " << run.name << " in experiment '" << run.project << "' at "
                      << run.baseUrl << " [" << run.runUid << "]: " << toString(run.state) << "; "
                      << counts->pending << " queued, " << counts->sent << " sent, " << counts->failed
                      << " failed\n";
            if (!run.remoteRunId.empty())
                std::cout << "  " << mlflowRunUrl(run.baseUrl, run.modelId, run.remoteRunId) << "\n";
            if (!run.lastError.empty())
                std::cout << "  last error: " << run.lastError << "\n";
            continue;
        }
        std::cout << "Run " << run.project << "/" << run.name << " [" << run.runUid
                  << "]: " << toString(run.state) << (run.cancelled ? ", cancelled by the platform" : "")
                  << "; " << counts->pending << " queued, " << counts->sent << " sent, " << counts->failed
                  << " failed\n";
        if (!run.modelSlug.empty())
            std::cout << "  dashboard: " << dashboardUrl(run.baseUrl, run.project, run.modelSlug) << "\n";
        if (!run.lastError.empty())
            std::cout << "  last error: " << run.lastError << "\n";
    }
    std::cout << "Queued events: " << queued << "\n";
    return 0;
}

int runSync(const Args& args) {
    SyncOptions options;
    options.timeout = std::chrono::milliseconds(static_cast<long long>(args.number("timeout") * 1000));
    auto report = syncOutbox(args.str("project"), options);
    if (!report) {
        std::cerr << "error: " << report.message() << "\n";
        return 1;
    }
    std::cout << "Sent " << report->delivered << " queued event(s); " << report->rejected << " rejected; "
              << report->remaining << " left\n";
    for (const auto& problem : report->problems)
        std::cerr << "warning: " << problem << "\n";
    return report->remaining == 0 && report->problems.empty() ? 0 : 2;
}

OSPREY_REGISTER_VERB(Verb{"remote login",
                          "Check a platform API key and store it (keychain, else a 0600 settings file)",
                          [] { return remote::remoteLoginOptions(); }, runLogin});
OSPREY_REGISTER_VERB(Verb{"remote logout", "Remove the stored platform API key", {}, runLogout});
OSPREY_REGISTER_VERB(Verb{
    "remote status", "Show the platform, the key (masked), and a project's queued events and last errors",
    [] { return remote::remoteStatusOptions(); }, runStatus});
OSPREY_REGISTER_VERB(Verb{
    "remote sync",
    "Send a project's queued platform events and uploads and MLflow records; non-zero exit if any are left",
    [] { return remote::remoteSyncOptions(); }, runSync});

} // namespace
} // namespace osprey::cli
