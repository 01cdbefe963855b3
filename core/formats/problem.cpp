#include "formats/problem.h"

#include <algorithm>

namespace osprey::formats {

std::string Problem::text() const {
    std::string out = severity == Severity::Error ? "error: " : "warning: ";
    out += file;
    if (!where.empty())
        out += ": " + where;
    out += ": " + message;
    if (!skipped.empty())
        out += " (skipped " + skipped + ")";
    return out;
}

void ProblemList::error(ProblemKind kind, std::string file, std::string where, std::string message,
                        std::string skipped) {
    m_problems.push_back(
        {Severity::Error, kind, std::move(file), std::move(where), std::move(message), std::move(skipped)});
}

void ProblemList::warning(ProblemKind kind, std::string file, std::string where, std::string message) {
    m_problems.push_back(
        {Severity::Warning, kind, std::move(file), std::move(where), std::move(message), {}});
}

std::size_t ProblemList::errorCount() const {
    return static_cast<std::size_t>(std::count_if(m_problems.begin(), m_problems.end(), [](const Problem& p) {
        return p.severity == Severity::Error;
    }));
}

std::size_t ProblemList::warningCount() const {
    return m_problems.size() - errorCount();
}

} // namespace osprey::formats
