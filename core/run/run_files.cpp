#include "run/run_files.h"

#include "common/atomic_file.h"
#include "common/strings.h"
#include "run/run_folder.h"
#include "run/train_options.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>

namespace osprey::run {

const std::vector<std::string>& resultsCsvColumns() {
    static const std::vector<std::string> kColumns = [] {
        std::vector<std::string> columns{"epoch"};
        for (const MetricColumn& column : metricColumns())
            if (column.inResultsCsv)
                columns.emplace_back(column.key);
        return columns;
    }();
    return kColumns;
}

namespace {

constexpr std::string_view kDflLoss = "/dfl_loss";
constexpr std::string_view kL1Loss = "/l1_loss";

std::string l1Name(const std::string& column) {
    return column.ends_with(kDflLoss)
               ? column.substr(0, column.size() - kDflLoss.size()) + std::string(kL1Loss)
               : column;
}

} // namespace

const std::vector<std::string>& endToEndResultsCsvColumns() {
    static const std::vector<std::string> kColumns = [] {
        std::vector<std::string> columns;
        for (const auto& column : resultsCsvColumns())
            columns.push_back(l1Name(column));
        return columns;
    }();
    return kColumns;
}

const char* thirdLossName(std::string_view modelName) {
    return toLower(std::string(modelName)).starts_with("yolo26") ? "l1" : "dfl";
}

namespace {

bool needsQuotes(const std::string& value) {
    if (value.empty())
        return true;
    static const std::string kSpecial = ":#{}[],&*!|>'\"%@`";
    return value.find_first_of(kSpecial) != std::string::npos || value.front() == ' ' || value.back() == ' ';
}

std::string header(bool endToEnd) {
    std::string line;
    for (const auto& column : endToEnd ? endToEndResultsCsvColumns() : resultsCsvColumns())
        line += (line.empty() ? "" : ",") + column;
    return line;
}

} // namespace

Status writeArgsYaml(const std::filesystem::path& path, const std::map<std::string, std::string>& args) {
    std::ostringstream out;
    for (const auto& [key, value] : args) {
        out << key << ": ";
        if (needsQuotes(value)) {
            std::string escaped;
            for (const char c : value)
                escaped += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
            out << '"' << escaped << '"';
        } else {
            out << value;
        }
        out << '\n';
    }
    return writeFileAtomic(path, out.str());
}

Expected<std::map<std::string, std::string>> readArgsYaml(const std::filesystem::path& path) {
    auto text = readFile(path);
    if (!text)
        return fail(text.error());
    std::map<std::string, std::string> args;
    int lineNumber = 0;
    for (const auto& line : split(text.value(), '\n')) {
        ++lineNumber;
        if (trim(line).empty() || trim(line).front() == '#')
            continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos)
            return fail(path.string() + ":" + std::to_string(lineNumber) + ": expected 'key: value'");
        const std::string key(trim(std::string_view(line).substr(0, colon)));
        std::string value(trim(std::string_view(line).substr(colon + 1)));
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
            std::string unescaped;
            for (size_t i = 1; i + 1 < value.size(); ++i) {
                if (value[i] == '\\' && i + 2 < value.size())
                    ++i;
                unescaped += value[i];
            }
            value = unescaped;
        }
        args[key] = value;
    }
    return args;
}

ResultsCsv::ResultsCsv(std::filesystem::path path, bool endToEnd)
    : m_path(std::move(path)), m_endToEnd(endToEnd) {}

Status ResultsCsv::loadExisting(int lastEpoch) {
    m_rows.clear();
    if (!std::filesystem::exists(m_path))
        return {};
    auto text = readFile(m_path);
    if (!text)
        return fail(text.error());
    bool first = true;
    for (const auto& line : split(text.value(), '\n')) {
        if (first || trim(line).empty()) {
            first = false;
            continue;
        }
        const auto epoch = parseInt(trim(line.substr(0, line.find(','))));
        if (epoch && *epoch >= 1 && *epoch <= lastEpoch)
            m_rows.push_back(line);
    }
    return {};
}

std::vector<std::string> resultsCsvCells(const EpochMetrics& m) {
    std::vector<std::string> cells;
    std::ostringstream cell;
    const auto take = [&] {
        cells.push_back(cell.str());
        cell.str({});
    };
    cell << m.epoch;
    take();
    cell << std::fixed << std::setprecision(3) << m.timeS;
    take();
    cell << std::setprecision(5);
    for (const double value : {m.boxLoss, m.clsLoss, m.dflLoss, m.precision, m.recall, m.map50, m.map50to95,
                               m.valBoxLoss, m.valClsLoss, m.valDflLoss}) {
        cell << value;
        take();
    }
    cell << std::defaultfloat << std::setprecision(6);
    for (const double value : {m.lrPg0, m.lrPg1, m.lrPg2}) {
        cell << value;
        take();
    }
    return cells;
}

Status ResultsCsv::append(const EpochMetrics& m) {
    std::string row;
    for (const auto& cell : resultsCsvCells(m))
        row += (row.empty() ? "" : ",") + cell;
    m_rows.push_back(row);
    std::string text = header(m_endToEnd) + "\n";
    for (const auto& line : m_rows)
        text += line + "\n";
    return writeFileAtomic(m_path, text);
}

std::vector<double> ResultsTable::column(const std::string& name) const {
    std::vector<double> values;
    auto at = std::find(columns.begin(), columns.end(), name);
    if (at == columns.end())
        at = std::find(columns.begin(), columns.end(), l1Name(name));
    if (at == columns.end())
        return values;
    const auto index = static_cast<size_t>(at - columns.begin());
    for (const auto& row : rows)
        values.push_back(index < row.size() ? row[index] : std::numeric_limits<double>::quiet_NaN());
    return values;
}

Expected<ResultsTable> readResultsCsv(const std::filesystem::path& path) {
    auto text = readFile(path);
    if (!text)
        return fail(text.error());
    ResultsTable table;
    int lineNumber = 0;
    for (const auto& line : split(text.value(), '\n')) {
        ++lineNumber;
        if (trim(line).empty())
            continue;
        const auto cells = split(line, ',');
        if (table.columns.empty()) {
            for (const auto& cell : cells)
                table.columns.emplace_back(trim(cell));
            continue;
        }
        if (cells.size() != table.columns.size())
            return fail(path.string() + ":" + std::to_string(lineNumber) + ": " +
                        std::to_string(cells.size()) + " cells where the header has " +
                        std::to_string(table.columns.size()));
        std::vector<double> row;
        for (const auto& cell : cells) {
            const std::string value(trim(cell));
            char* end = nullptr;
            const double number = std::strtod(value.c_str(), &end);
            row.push_back(!value.empty() && end && *end == '\0' ? number
                                                                : std::numeric_limits<double>::quiet_NaN());
        }
        table.rows.push_back(std::move(row));
    }
    if (table.columns.empty())
        return fail(path.string() + ": empty, no header line");
    return table;
}

Expected<std::filesystem::path> claimRunDir(const std::filesystem::path& runsDir, const std::string& base) {
    std::error_code error;
    std::filesystem::create_directories(runsDir, error);
    if (error)
        return fail(runsDir.string() + ": cannot create the runs folder: " + error.message());
    for (int i = 1; i < 100000; ++i) {
        const auto candidate = runsDir / (i == 1 ? base : base + std::to_string(i));
        // create_directory is mkdir(2): true only for the one caller that made the folder.
        if (std::filesystem::create_directory(candidate, error))
            return candidate;
        if (error == std::errc::file_exists) // a file of that name: try the next one
            error.clear();
        else if (error)
            return fail(candidate.string() + ": cannot create the run folder: " + error.message());
    }
    return fail(runsDir.string() + ": no free run folder name for '" + base + "'");
}

Expected<std::unique_ptr<JsonlFileSink>> JsonlFileSink::open(const std::filesystem::path& path) {
    std::error_code error;
    std::filesystem::create_directories(path.parent_path(), error);
    std::FILE* file = std::fopen(path.c_str(), "ab");
    if (!file)
        return fail(path.string() +
                    ": cannot open the events file for writing; check the folder's permissions");
    return std::unique_ptr<JsonlFileSink>(new JsonlFileSink(file));
}

JsonlFileSink::~JsonlFileSink() {
    std::fclose(m_file);
}

void JsonlFileSink::onEvent(const TrainEvent& event) {
    const std::string line = toJson(event) + "\n";
    std::lock_guard lock(m_mutex);
    std::fwrite(line.data(), 1, line.size(), m_file);
    std::fflush(m_file);
}

std::string writeRunConfigJson(const std::map<std::string, std::string>& args) {
    return nlohmann::json(args).dump();
}

std::map<std::string, std::string> readRunConfigJson(std::string_view json) {
    std::map<std::string, std::string> args;
    const auto parsed = nlohmann::json::parse(json, nullptr, false);
    if (!parsed.is_object())
        return args;
    for (const auto& [key, value] : parsed.items())
        args[key] = value.is_string() ? value.get<std::string>() : value.dump();
    return args;
}

Expected<std::vector<std::string>> retrainArguments(const std::filesystem::path& runDir) {
    const RunFolder run(runDir);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(run.bestWeights(), ec))
        return fail(run.bestWeights().string() + ": the run " + run.name() +
                        " has no best.pt to retrain from (it ended before its first validation?)",
                    "missing");
    auto args = readArgsYaml(run.args());
    if (!args)
        return fail(args.error());
    std::vector<std::string> out;
    for (const auto& option : trainOptions()) {
        if (!shows(option.shownIn, FrontEnd::Cli) || option.key == "name" || option.key == "resume" ||
            option.key == "weights")
            continue;
        if (const auto it = args->find(option.key); it != args->end() && !it->second.empty())
            out.push_back(option.key + "=" + it->second);
    }
    out.push_back("weights=" + run.bestWeights().string());
    return out;
}

} // namespace osprey::run
