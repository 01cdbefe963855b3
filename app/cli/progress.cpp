#include "cli/progress.h"

#include "project/project.h"

#include <cstdio>
#include <unistd.h>

namespace osprey::cli {

void sayWhenWaitingForAnotherWriter(project::Project& project) {
    project.setBusyObserver([said = false](std::chrono::milliseconds) mutable {
        if (said)
            return;
        said = true;
        std::fprintf(stderr, "Waiting for another program that is writing to the project...\n");
    });
}

ProgressBar::ProgressBar(std::string label)
    : m_label(std::move(label)), m_terminal(::isatty(STDERR_FILENO) != 0),
      m_start(std::chrono::steady_clock::now()), m_lastDraw(m_start - std::chrono::seconds(1)) {}

void ProgressBar::update(long long done, long long total, const std::string& detail) {
    m_done = done;
    m_total = total;
    const auto now = std::chrono::steady_clock::now();
    if (!m_terminal || now - m_lastDraw < std::chrono::milliseconds(100))
        return;
    m_lastDraw = now;
    draw(done, total, detail);
}

void ProgressBar::finish(const std::string& detail) {
    draw(m_total > 0 ? m_total : m_done, m_total, detail);
    std::fputc('\n', stderr);
}

void ProgressBar::draw(long long done, long long total, const std::string& detail) {
    constexpr int kWidth = 30;
    const double fraction = total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
    const int filled = static_cast<int>(fraction * kWidth);
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
    std::string bar(static_cast<size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::fprintf(stderr, "%s%s [%s] %lld/%lld %3.0f%%  %.1fs elapsed, ETA %.0fs %s", m_terminal ? "\r" : "",
                 m_label.c_str(), bar.c_str(), done, total, fraction * 100, elapsed, eta, detail.c_str());
    std::fflush(stderr);
}

} // namespace osprey::cli
