#include "cli/train_launcher.h"

#include "project/project.h"
#include "run/run_files.h"
#include "run/run_folder.h"
#include "train/device_choice.h"
#include "train/distributed.h"

#include <nlohmann/json.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <vector>

namespace osprey::cli {

namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kStopGrace = std::chrono::seconds(15); // survivors' time to fail or save before SIGKILL

std::atomic<int> g_signal{0};

extern "C" void onLauncherSignal(int signalNumber) {
    g_signal.store(signalNumber);
}

struct Worker {
    int rank = 0;
    pid_t pid = -1;
    int errFd = -1; ///< the rank's stderr (ranks > 0), -1 when closed
    std::string pending, lastLine;
    bool ended = false;
    int status = 0;
};

std::vector<std::string> ownArguments() {
    std::ifstream file("/proc/self/cmdline", std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    std::vector<std::string> arguments;
    std::string current;
    for (char c : text) {
        if (c == '\0') {
            arguments.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    return arguments;
}

std::string describeEnd(const Worker& worker, int world) {
    std::string text = "rank " + std::to_string(worker.rank) + " of " + std::to_string(world) + " (pid " +
                       std::to_string(worker.pid) + ")";
    if (WIFSIGNALED(worker.status))
        text += " was killed by signal " + std::to_string(WTERMSIG(worker.status)) + " (" +
                strsignal(WTERMSIG(worker.status)) + ")";
    else
        text += " exited with code " + std::to_string(WEXITSTATUS(worker.status));
    if (!worker.lastLine.empty())
        text += "; its last output: " + worker.lastLine;
    return text;
}

bool failed(const Worker& worker) {
    return WIFSIGNALED(worker.status) || WEXITSTATUS(worker.status) != 0;
}

// Reads what a rank wrote to stderr; passes whole lines on, prefixed, and keeps the last one.
void drain(Worker& worker) {
    char buffer[4096];
    while (true) {
        const ssize_t n = ::read(worker.errFd, buffer, sizeof buffer);
        if (n <= 0) {
            if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
                ::close(worker.errFd);
                worker.errFd = -1;
            }
            break;
        }
        worker.pending.append(buffer, static_cast<size_t>(n));
    }
    size_t newline;
    while ((newline = worker.pending.find('\n')) != std::string::npos) {
        std::string line = worker.pending.substr(0, newline);
        worker.pending.erase(0, newline + 1);
        if (const auto cr = line.rfind('\r'); cr != std::string::npos)
            line = line.substr(cr + 1); // a progress bar's last state
        if (line.find_first_not_of(" \t") == std::string::npos)
            continue;
        worker.lastLine = line;
        std::fprintf(stderr, "rank %d: %s\n", worker.rank, line.c_str());
    }
}

// Everything is prepared before fork: the store's thread runs in this process, so the child only makes
// async-signal-safe calls before it executes.
pid_t startWorker(const std::vector<std::string>& arguments, int rank, int world, int port, int errFd) {
    const std::pair<const char*, std::string> variables[] = {{"RANK", std::to_string(rank)},
                                                             {"WORLD_SIZE", std::to_string(world)},
                                                             {"LOCAL_RANK", std::to_string(rank)},
                                                             {"LOCAL_WORLD_SIZE", std::to_string(world)},
                                                             {"MASTER_ADDR", "127.0.0.1"},
                                                             {"MASTER_PORT", std::to_string(port)},
                                                             {"TORCHELASTIC_USE_AGENT_STORE", "True"}};
    std::vector<std::string> environment;
    for (char** entry = environ; *entry; ++entry) {
        const std::string text = *entry;
        const auto name = text.substr(0, text.find('='));
        bool replaced = false;
        for (const auto& variable : variables)
            replaced = replaced || name == variable.first;
        if (!replaced)
            environment.push_back(text);
    }
    for (const auto& [name, value] : variables)
        environment.push_back(std::string(name) + "=" + value);
    std::vector<char*> argv, envp;
    for (const auto& argument : arguments)
        argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);
    for (const auto& entry : environment)
        envp.push_back(const_cast<char*>(entry.c_str()));
    envp.push_back(nullptr);

    const pid_t pid = ::fork();
    if (pid != 0)
        return pid;
    ::prctl(PR_SET_PDEATHSIG, SIGTERM); // no orphaned ranks when the launcher itself is killed
    if (errFd >= 0) {
        ::dup2(errFd, STDERR_FILENO);
        const int null = ::open("/dev/null", O_WRONLY);
        ::dup2(null, STDOUT_FILENO); // rank 0 writes the events; the others log to rank<N>.log
    }
    ::execve("/proc/self/exe", argv.data(), envp.data());
    static const char message[] = "osprey-cli: cannot start a worker process\n";
    (void)::write(STDERR_FILENO, message, sizeof message - 1);
    ::_exit(127);
}

// Rank 0 died without writing its own `failed` event: write it, and the runs row, for it.
void recordFailure(train::LaunchStore& store, const std::string& projectFolder, const std::string& message,
                   double seconds) {
    const auto published = store.tryGet("run");
    if (!published)
        return; // it died before the run folder existed: there is nothing to mark
    const auto run = nlohmann::json::parse(*published, nullptr, false);
    if (!run.is_object() || !run.contains("dir"))
        return;
    const std::filesystem::path dir = run.value("dir", std::string());
    if (auto events = run::JsonlFileSink::open(run::RunFolder(dir).events())) {
        run::TrainEvent event;
        event.type = run::TrainEvent::Type::Failed;
        event.message = message;
        event.timeS = seconds;
        events.value()->onEvent(event);
    }
    auto project = project::Project::open(projectFolder);
    if (!project)
        return;
    auto runs = project.value()->runs().list();
    if (!runs)
        return;
    for (auto record : runs.value())
        if (record.name == dir.filename().string() && record.status == project::RunStatus::Running) {
            record.status = project::RunStatus::Failed;
            record.finishedAt = std::time(nullptr);
            (void)project.value()->runs().update(record);
        }
}

} // namespace

Expected<int> localWorkerCount(const run::TrainConfig& config) {
    if (std::getenv("WORLD_SIZE"))
        return 0; // torchrun, SLURM or this launcher started us as a rank
    const bool cpu = config.device.empty() || config.device == "cpu";
    if (cpu)
        return config.workersPerNode >= 2 ? config.workersPerNode : 0;
    auto devices = train::chooseDevices(config.device, train::probeDevices());
    if (!devices)
        return fail(devices.error());
    const int gpus = static_cast<int>(devices->indices.size());
    if (config.workersPerNode > 0 && config.workersPerNode != gpus)
        return fail("workers_per_node=" + std::to_string(config.workersPerNode) + " with device=" +
                    config.device + ": on GPUs each worker trains on one of the listed devices; list " +
                    std::to_string(config.workersPerNode) + " GPUs or leave workers_per_node out");
    return gpus >= 2 ? gpus : 0;
}

int launchLocalWorkers(int workers, const run::TrainConfig& config, const std::string& projectFolder) {
    auto store = train::LaunchStore::host("127.0.0.1");
    if (!store) {
        std::fprintf(stderr, "error: %s\n", store.message().c_str());
        return 1;
    }
    const auto arguments = ownArguments();
    const auto start = Clock::now();
    std::vector<Worker> ranks(static_cast<size_t>(workers));
    std::string started;
    for (int rank = 0; rank < workers; ++rank) {
        Worker& worker = ranks[static_cast<size_t>(rank)];
        worker.rank = rank;
        int pipeFds[2] = {-1, -1};
        if (rank > 0 && ::pipe2(pipeFds, O_CLOEXEC) != 0) {
            std::fprintf(stderr, "error: cannot start rank %d: %s\n", rank, std::strerror(errno));
            return 1;
        }
        worker.pid = startWorker(arguments, rank, workers, (*store)->port(), pipeFds[1]);
        if (rank > 0) {
            ::close(pipeFds[1]);
            worker.errFd = pipeFds[0];
            ::fcntl(worker.errFd, F_SETFL, O_NONBLOCK);
        }
        started += (rank ? ", rank " : "rank ") + std::to_string(rank) + " pid " + std::to_string(worker.pid);
    }
    const bool cpu = config.device.empty() || config.device == "cpu";
    std::fprintf(stderr, "Data parallel: %d worker processes (%s, store 127.0.0.1:%d): %s\n", workers,
                 cpu ? "Gloo" : "NCCL", (*store)->port(), started.c_str());
    std::signal(SIGINT, onLauncherSignal);
    std::signal(SIGTERM, onLauncherSignal);

    std::string failure;
    bool killPending = false; // survivors get SIGKILL at killAt
    Clock::time_point killAt{};
    bool forwardedSignal = false;
    int alive = workers;
    while (alive > 0) {
        std::vector<pollfd> fds;
        for (auto& worker : ranks)
            if (worker.errFd >= 0)
                fds.push_back({worker.errFd, POLLIN, 0});
        ::poll(fds.data(), fds.size(), 100);
        for (auto& worker : ranks)
            if (worker.errFd >= 0)
                drain(worker);
        if (g_signal.load() && !forwardedSignal) {
            forwardedSignal = true; // Ctrl+C: every rank finishes its batch, rank 0 saves
            for (auto& worker : ranks)
                if (!worker.ended)
                    ::kill(worker.pid, SIGTERM);
        }
        int status = 0;
        pid_t pid;
        while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
            for (auto& worker : ranks) {
                if (worker.pid != pid || worker.ended)
                    continue;
                worker.ended = true;
                worker.status = status;
                --alive;
                if (worker.errFd >= 0)
                    drain(worker);
                if (failed(worker) && failure.empty()) {
                    failure = describeEnd(worker, workers);
                    (*store)->set("failure", failure); // the survivors' errors name it
                    for (auto& other : ranks)
                        if (!other.ended)
                            ::kill(other.pid, SIGTERM);
                    killAt = Clock::now() + kStopGrace;
                    killPending = true;
                }
            }
        }
        if (killPending && Clock::now() >= killAt) {
            for (auto& worker : ranks)
                if (!worker.ended)
                    ::kill(worker.pid, SIGKILL);
            killPending = false;
        }
    }
    for (auto& worker : ranks)
        if (worker.errFd >= 0)
            drain(worker);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    if (failure.empty())
        return WEXITSTATUS(ranks.front().status);
    const Worker& main = ranks.front();
    if (WIFSIGNALED(main.status) || WEXITSTATUS(main.status) != 1) // else rank 0 said it already
        std::fprintf(stderr, "error: training failed: %s\n", failure.c_str());
    if (WIFSIGNALED(main.status))
        recordFailure(**store, projectFolder, failure,
                      std::chrono::duration<double>(Clock::now() - start).count());
    return 1;
}

} // namespace osprey::cli
