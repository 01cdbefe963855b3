#pragma once
// EventsTail: the one reader of an events file (a run's events.jsonl, or the trainer's stdout spooled to a
// file) that follows it while it grows. Each read() returns the complete lines appended since the last one,
// each with its event (run::parseEvent) or the reason it is not one; a last line without its newline is the
// writer's line in progress and is left for the next read. The live dashboard, the run viewer, `runs push`
// and the planner's measurements all read events through it.
//
// Thread affinity: a value type; one object belongs to one thread. Each read() opens the file anew, so a
// file that is replaced or unlinked between reads is no problem for the writer.

#include "common/expected.h"
#include "run/train_events.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::run {

/// One complete line of an events file.
struct EventsLine {
    std::string text;        ///< the line without its newline (and without a trailing carriage return)
    std::int64_t number = 0; ///< 1-based line number, counted from the offset the tail started at
    std::optional<TrainEvent> event; ///< the event; empty when the line is not one
    /// Why the line is not an event (parseEvent's error: code "not_json" for text that is not a JSON object,
    /// a torn or garbled line, "unknown_type" for an event of a newer writer); empty for an event.
    Error error;
};

class EventsTail {
public:
    /// Follows `path` from byte `offset` (0: the whole file).
    explicit EventsTail(std::filesystem::path path, std::uint64_t offset = 0)
        : m_path(std::move(path)), m_offset(offset) {}

    /// What to do with a last line that has no newline yet.
    enum class Partial {
        Wait, ///< leave it for a later read: the writer is still writing it
        Take  ///< read it as a line: the writer has ended
    };
    /// The lines appended since the last read, in order. Fails with code "missing" when the file cannot be
    /// opened and "truncated" when it is now shorter than what was read (replaced or truncated: the tail
    /// cannot go on); the offset is then unchanged.
    Expected<std::vector<EventsLine>> read(Partial partial = Partial::Wait);

    const std::filesystem::path& path() const { return m_path; }
    /// The byte offset just past the last line read: where the next read starts.
    std::uint64_t offset() const { return m_offset; }

private:
    std::filesystem::path m_path;
    std::uint64_t m_offset = 0;
    std::int64_t m_lines = 0;
};

} // namespace osprey::run
