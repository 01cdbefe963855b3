#pragma once
// OutboxSender: delivers the oldest pending row of one run and lane, and decides what happens next
// (the retry policy of specs/remote-platform.md, made durable). Used by RunReporter's two sender
// threads and by `remote sync`. Each call does at most one delivery (one event, or one upload with its
// URL request and PUT) and never sleeps: it returns how long the caller should wait.
//
// Rules: 2xx marks the row sent (and an answer with `cancelled: true` marks the run cancelled);
// 5xx, 408, 429, timeouts and connection errors are retried with exponential backoff and jitter, or
// after Retry-After (capped at 60 s); 401 stops the run ("unauthorized", kept queued for a later sync);
// any other 4xx fails that row for good and moves on.
//
// Thread affinity: one object per thread; it borrows an Outbox and a PlatformClient owned by that thread.

#include "remote/outbox.h"
#include "remote/platform_client.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>

namespace osprey::remote {

struct RetryPolicy {
    std::chrono::milliseconds initialBackoff{1000}; ///< first retry delay (before jitter)
    std::chrono::milliseconds maxBackoff{30000};    ///< exponential growth stops here
    std::chrono::milliseconds retryAfterCap{60000}; ///< a longer Retry-After is cut to this
};

/// Called on the sender's thread; keep them short.
struct SenderHooks {
    std::function<void()> cancelled;                              ///< an answer said `cancelled: true`
    std::function<void(const std::string& reason)> unauthorized;  ///< 401: reporting stopped
    std::function<void(const std::string& error)> error;          ///< a failed attempt or a rejected row
    std::function<void(const std::string& modelSlug)> registered; ///< training_started was answered
    UploadProgress uploadProgress;
    std::function<void(bool ok)> uploadFinished; ///< an upload row left the queue
};

enum class StepResult {
    Idle,         ///< nothing pending on this lane
    Delivered,    ///< one row sent
    Rejected,     ///< one row failed for good (4xx); go on
    RetryLater,   ///< a retryable failure; wait `wait`
    Blocked,      ///< waiting for something else (an earlier event, console batching); wait `wait`
    Unauthorized, ///< 401: stop this run
    StoreError,   ///< the database could not be read or written; wait and retry
};
const char* toString(StepResult result);

struct Step {
    StepResult result = StepResult::Idle;
    std::chrono::milliseconds wait{0};
    std::string message;
};

/// The retry delays: exponential from initialBackoff to maxBackoff with "equal jitter" (at least half
/// the delay, so retries never bunch up at zero).
class Backoff {
public:
    explicit Backoff(RetryPolicy policy);
    /// The delay after the n-th consecutive failure (n >= 1).
    std::chrono::milliseconds delay(int failures);
    const RetryPolicy& policy() const { return m_policy; }

private:
    RetryPolicy m_policy;
    std::mt19937 m_random;
};

/// Delivers one queued row at a time: the platform's OutboxSender and the MLflow sender.
class RowSender {
public:
    virtual ~RowSender() = default;
    /// With FlushConsole::Now, pending console lines are sent at once instead of waiting to fill a batch.
    enum class FlushConsole { WhenDue, Now };
    /// Delivers the next pending row of `runUid` on `lane`.
    virtual Step deliverNext(const std::string& runUid, Lane lane,
                             FlushConsole flush = FlushConsole::WhenDue) = 0;

protected:
    /// The step for a database that could not be read or written (logged; retried after a second).
    static Step storeError(const Error& error);
    /// Reads the run to deliver for into `run`; a step when there is none to deliver for (the database
    /// failed, the run is unknown, or it was stopped by a refusal).
    static std::optional<Step> loadRun(Outbox& outbox, const std::string& runUid, RemoteRun& run);
};

class OutboxSender : public RowSender {
public:
    OutboxSender(Outbox& outbox, PlatformClient& client, RetryPolicy policy = {}, SenderHooks hooks = {});

    /// Delivers the next pending row of `runUid` on `lane`. With FlushConsole::Now, pending console
    /// lines are sent at once instead of waiting to fill a batch of 5 lines or 5 s.
    Step deliverNext(const std::string& runUid, Lane lane,
                     FlushConsole flush = FlushConsole::WhenDue) override;

    /// The backoff for the n-th consecutive failure (n >= 1), with jitter; exposed for tests.
    std::chrono::milliseconds backoff(int failures) { return m_backoff.delay(failures); }

private:
    Step deliverEvent(const RemoteRun& run, FlushConsole flush);
    Step deliverUpload(const RemoteRun& run);
    Step retry(Lane lane, std::int64_t rowId, const std::string& runUid, const HttpResponse& response);
    Step unauthorized(std::int64_t rowId, const std::string& runUid, const HttpResponse& response);
    Step reject(std::int64_t rowId, const std::string& runUid, const HttpResponse& response,
                const std::string& what);

    Outbox& m_outbox;
    PlatformClient& m_client;
    Backoff m_backoff;
    SenderHooks m_hooks;
    int m_failures[2] = {0, 0}; ///< consecutive failures per lane
};

} // namespace osprey::remote
