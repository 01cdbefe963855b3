#include "ui/project/project_document.h"

#include <QColor>
#include <QDir>
#include <QFileInfo>

namespace osprey::ui {

namespace {
// The GUI thread must not freeze for long while another program (an import, an auto-label run) holds the
// project's write lock: a GUI write waits at most this long, then fails as "busy". The annotation editor
// waits less and keeps its edits for a retry (AnnotationSession).
constexpr std::chrono::milliseconds kGuiBusyWait{5000};
} // namespace

ProjectDocument::ProjectDocument(std::unique_ptr<project::Project> project, QObject* parent)
    : QObject(parent), m_project(std::move(project)) {
    m_project->setBusyWait(kGuiBusyWait);
    reloadClasses();
}

bool ProjectDocument::readOnly() const {
    return m_project->readOnly();
}

Status ProjectDocument::noted(Status status) {
    if (!status) {
        ++m_writeFailures;
        m_lastWriteError = status.error();
        emit writeFailed(QString::fromStdString(status.message()));
    }
    return status;
}

ProjectDocument::~ProjectDocument() = default;

std::unique_ptr<ProjectDocument> ProjectDocument::open(const QString& folder, QString* error) {
    auto project = project::Project::open(folder.toStdString());
    if (!project) {
        if (error)
            *error = QString::fromStdString(project.message());
        return nullptr;
    }
    return std::make_unique<ProjectDocument>(std::move(project.value()));
}

std::unique_ptr<ProjectDocument> ProjectDocument::create(const QString& folder, QString* error) {
    auto project = project::Project::create(folder.toStdString());
    if (!project) {
        if (error)
            *error = QString::fromStdString(project.message());
        return nullptr;
    }
    return std::make_unique<ProjectDocument>(std::move(project.value()));
}

QString ProjectDocument::folder() const {
    return QString::fromStdString(m_project->folder().string());
}

QString ProjectDocument::displayName() const {
    return QFileInfo(folder()).fileName();
}

QString ProjectDocument::imageFilePath(const project::ImageRecord& image) const {
    return QString::fromStdString(m_project->resolve(image.path).string());
}

QString ProjectDocument::cacheFolder() const {
    const QString path = QDir(folder()).filePath(".cache");
    QDir().mkpath(path);
    return path;
}

void ProjectDocument::reloadClasses() {
    auto classes = m_project->classes().list();
    m_classes = classes ? std::move(classes.value()) : std::vector<project::ClassInfo>{};
    emit classesChanged();
}

Status ProjectDocument::editImage(qint64 imageId, const std::function<Status(project::Project&)>& body) {
    Status status = noted(m_project->transaction([&] { return body(*m_project); }));
    if (status && imageId != 0)
        emit imageChanged(imageId);
    return status;
}

Status ProjectDocument::editClasses(const std::function<Status(project::Project&)>& body) {
    Status status = noted(m_project->transaction([&] { return body(*m_project); }));
    if (status)
        reloadClasses();
    return status;
}

QColor ProjectDocument::classColor(std::int64_t classId) const {
    for (const auto& info : m_classes)
        if (info.id == classId)
            return QColor(QString::fromStdString(info.color));
    return QColor(Qt::magenta);
}

QString ProjectDocument::className(std::int64_t classId) const {
    for (const auto& info : m_classes)
        if (info.id == classId)
            return QString::fromStdString(info.name);
    return tr("unknown class %1").arg(classId);
}

} // namespace osprey::ui
