#include "run/events_tail.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace osprey::run {

Expected<std::vector<EventsLine>> EventsTail::read(Partial partial) {
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(m_path.c_str(), "rb"),
                                                               &std::fclose);
    if (!file)
        return fail(m_path.string() + ": cannot be read: " + std::strerror(errno), "missing");
    if (std::fseek(file.get(), 0, SEEK_END) != 0)
        return fail(m_path.string() + ": cannot be read: " + std::strerror(errno), "missing");
    const long size = std::ftell(file.get());
    if (size < 0 || static_cast<std::uint64_t>(size) < m_offset)
        return fail(m_path.string() + ": the file is shorter (" + std::to_string(size) + " bytes) than the " +
                        std::to_string(m_offset) + " bytes already read: it was truncated or replaced",
                    "truncated");
    // Read up to the size measured now: what the writer appends meanwhile is for the next read.
    std::string fresh(static_cast<size_t>(static_cast<std::uint64_t>(size) - m_offset), '\0');
    if (std::fseek(file.get(), static_cast<long>(m_offset), SEEK_SET) != 0)
        return fail(m_path.string() + ": cannot be read: " + std::strerror(errno), "missing");
    fresh.resize(std::fread(fresh.data(), 1, fresh.size(), file.get()));

    std::vector<EventsLine> lines;
    size_t start = 0;
    while (start < fresh.size()) {
        size_t end = fresh.find('\n', start);
        const bool complete = end != std::string::npos;
        if (!complete) {
            if (partial == Partial::Wait)
                break;
            end = fresh.size();
        }
        EventsLine line;
        line.text = fresh.substr(start, end - start);
        if (!line.text.empty() && line.text.back() == '\r')
            line.text.pop_back();
        line.number = ++m_lines;
        if (auto event = parseEvent(line.text))
            line.event = std::move(event.value());
        else
            line.error = event.error();
        lines.push_back(std::move(line));
        start = complete ? end + 1 : end;
    }
    m_offset += start;
    return lines;
}

} // namespace osprey::run
