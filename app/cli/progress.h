#pragma once
// A one-line terminal progress bar on stderr, redrawn at most 10 times a second. Silent when stderr is
// not a terminal, apart from the final line.

#include <chrono>
#include <string>

namespace osprey::project {
class Project;
}

namespace osprey::cli {

/// Prints one line on stderr the first time a write of `project` waits for another program writing to it
/// (an import or auto-label run elsewhere), so a pause is explained.
void sayWhenWaitingForAnotherWriter(project::Project& project);

class ProgressBar {
public:
    explicit ProgressBar(std::string label);
    /// Updates the bar; cheap to call for every item.
    void update(long long done, long long total, const std::string& detail = {});
    /// Draws the final state and ends the line.
    void finish(const std::string& detail = {});

private:
    void draw(long long done, long long total, const std::string& detail);
    std::string m_label;
    bool m_terminal;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_lastDraw;
    long long m_done = 0, m_total = 0;
};

} // namespace osprey::cli
