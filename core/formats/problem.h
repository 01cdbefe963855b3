#pragma once
// Problems found while reading a dataset: each names the file and the line or field, says what is wrong,
// and what was skipped because of it. Errors skip an item; warnings record a lenient reading.

#include <string>
#include <vector>

namespace osprey::formats {

enum class Severity { Warning, Error };

/// What kind of problem it is, for callers that group them (the health check, the wizard summary).
enum class ProblemKind {
    Syntax,            ///< malformed file, field or value
    MissingField,      ///< a required field is absent
    ClassOutOfRange,   ///< a class id outside the class list
    MissingImage,      ///< an image file that cannot be found
    LabelWithoutImage, ///< a label file with no image
    ImageWithoutLabel, ///< an image with no label file (imported as unlabeled)
    SizeMismatch,      ///< the size in the annotations differs from the file
    Unsupported,       ///< something the format allows that Osprey does not import
    RootNotFollowed,   ///< a dataset root named by the source (data.yaml's path:) that was not followed
    Other,
};

struct Problem {
    Severity severity = Severity::Error;
    ProblemKind kind = ProblemKind::Other;
    std::string file;    ///< the file (as the user knows it, relative to the source when possible)
    std::string where;   ///< "line 3" or a field path such as "annotations[3].bbox"; may be empty
    std::string message; ///< what is wrong
    std::string skipped; ///< what was left out because of it ("annotation id 7"); empty for warnings

    /// "file: where: message (skipped: ...)" as shown to users.
    std::string text() const;
};

/// Collects problems in order. Not thread-safe.
class ProblemList {
public:
    void error(ProblemKind kind, std::string file, std::string where, std::string message,
               std::string skipped);
    void warning(ProblemKind kind, std::string file, std::string where, std::string message);
    void add(Problem problem) { m_problems.push_back(std::move(problem)); }

    const std::vector<Problem>& all() const { return m_problems; }
    std::vector<Problem> take() { return std::move(m_problems); }
    std::size_t errorCount() const;
    std::size_t warningCount() const;
    bool empty() const { return m_problems.empty(); }

private:
    std::vector<Problem> m_problems;
};

} // namespace osprey::formats
