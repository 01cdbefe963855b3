#pragma once
// syncOutbox: sends whatever is queued in a project's outbox (`osprey-cli remote sync`, `runs push`), e.g.
// a run trained offline or a process that was killed. Runs on the calling thread and blocks; each run goes
// to the platform or MLflow server it was recorded for. A run stopped by a 401 is retried with the current
// credentials. Platform runs need an API key; without one they are left queued and named in `problems`.
//
// Thread affinity: any thread; it opens its own connection.

#include "common/expected.h"
#include "remote/outbox_sender.h"
#include "remote/platform_client.h"
#include "remote/platform_settings.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace osprey::remote {

struct SyncOptions {
    RetryPolicy retry;
    ClientOptions client;
    /// Gives up (leaving the rest queued) after this long.
    std::chrono::milliseconds timeout{std::chrono::minutes(10)};
    /// Overrides resolveSettings(); only the key is used (each run keeps its own base URL).
    std::optional<PlatformSettings> settings;
    /// Only this outbox run (empty: every run with queued rows).
    std::string runUid;
    /// Progress: called after each delivered or rejected row with (done so far, still queued).
    std::function<void(std::int64_t done, std::int64_t queued)> progress;
};

struct SyncReport {
    std::int64_t delivered = 0;        ///< rows sent now
    std::int64_t rejected = 0;         ///< rows failed for good now (other 4xx)
    std::int64_t remaining = 0;        ///< rows still queued afterwards
    std::vector<std::string> problems; ///< one line per run that stopped early (401, timeout)
};

Expected<SyncReport> syncOutbox(const std::filesystem::path& projectFolder, const SyncOptions& options = {});

} // namespace osprey::remote
