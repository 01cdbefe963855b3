#pragma once
// ProjectDocument: the open project as seen by the GUI. Owns the core Project (GUI thread only) and
// announces changes with signals; views listen to those signals and never write behind its back.

#include "project/project.h"

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

namespace osprey::ui {

class ProjectDocument : public QObject {
    Q_OBJECT
public:
    explicit ProjectDocument(std::unique_ptr<project::Project> project, QObject* parent = nullptr);
    ~ProjectDocument() override;

    /// Opens a project folder; on failure returns null and fills `error` with a user-facing message.
    static std::unique_ptr<ProjectDocument> open(const QString& folder, QString* error);
    /// Creates a new empty project folder.
    static std::unique_ptr<ProjectDocument> create(const QString& folder, QString* error);

    project::Project& project() { return *m_project; }
    const project::Project& project() const { return *m_project; }
    QString folder() const;
    QString displayName() const;
    /// Absolute path of an image record's file.
    QString imageFilePath(const project::ImageRecord& image) const;
    /// The project's cache folder (thumbnails), created on demand.
    QString cacheFolder() const;

    /// Class colour lookup (by class id), refreshed by reloadClasses().
    QColor classColor(std::int64_t classId) const;
    QString className(std::int64_t classId) const;
    const std::vector<project::ClassInfo>& classes() const { return m_classes; }
    void reloadClasses();

    /// Runs `body` on the project as one transaction (committed at once, so nothing is lost on a crash)
    /// and, when it succeeds, emits imageChanged(imageId). The undo commands write through this.
    Status editImage(qint64 imageId, const std::function<Status(project::Project&)>& body);
    /// Runs `body` as one transaction and, when it succeeds, reloads the classes (emits classesChanged).
    Status editClasses(const std::function<Status(project::Project&)>& body);

    /// True when the project opened read-only (its folder cannot be written): edits are not stored.
    bool readOnly() const;
    /// How many writes through editImage/editClasses have failed (the editor compares it around an edit).
    int writeFailures() const { return m_writeFailures; }
    /// The last failed write (message and code: "busy", "full", "read-only", "io", ...).
    const Error& lastWriteError() const { return m_lastWriteError; }

signals:
    void classesChanged();
    /// Boxes or status of one image changed.
    void imageChanged(qint64 imageId);
    /// Images were added or removed; lists must reload.
    void imagesReset();
    /// A write through editImage/editClasses failed; nothing of it was stored.
    void writeFailed(const QString& message);

private:
    Status noted(Status status);

    std::unique_ptr<project::Project> m_project;
    std::vector<project::ClassInfo> m_classes;
    int m_writeFailures = 0;
    Error m_lastWriteError;
};

} // namespace osprey::ui
