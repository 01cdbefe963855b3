#include "ui/assist/assist_controller.h"

#include "assist/auto_labeler.h"
#include "imaging/image.h"
#include "ui/annotate/commands/accept_proposals_command.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_painter.h"
#include "ui/assist/model_file_chooser.h"
#include "ui/assist/run_follower.h"
#include "ui/project/project_document.h"

#include <QFileInfo>
#include <QPainter>
#include <QPointer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <mutex>

namespace osprey::ui {

namespace {

constexpr char kModelSetting[] = "assist.model";
constexpr char kFollowSetting[] = "assist.follow_run";
constexpr int kRawMaxDetections = 1000;

double iouOf(const QRectF& a, const QRectF& b) {
    const QRectF overlap = a.intersected(b);
    if (overlap.isEmpty())
        return 0.0;
    const double inter = overlap.width() * overlap.height();
    const double uni = a.width() * a.height() + b.width() * b.height() - inter;
    return uni > 0 ? inter / uni : 0.0;
}

QString toText(const std::filesystem::path& path) {
    return QString::fromStdString(path.string());
}

} // namespace

/// The predictor, shared with the worker so that a suggestion still running when the controller goes away
/// finishes safely. The mutex keeps one call at a time (BoxPredictor is not thread-safe).
struct AssistController::Engine {
    std::mutex mutex;
    assist::ModelSource loaded;
    std::int64_t revision = 0;
    std::unique_ptr<assist::BoxPredictor> predictor;
};

AssistController::AssistController(AnnotationSession* session, BoxCanvas* canvas, QObject* parent)
    : QObject(parent), m_session(session), m_canvas(canvas), m_engine(std::make_shared<Engine>()),
      m_follower(new RunFollower(this)) {
    connect(m_follower, &RunFollower::checkpointChanged, this, &AssistController::onFollowedCheckpoint);
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, &AssistController::onFinished);
    connect(session, &AnnotationSession::imageChanged, this, &AssistController::onImageChanged);
    canvas->setOverlay(this);
}

AssistController::~AssistController() {
    m_canvas->setOverlay(nullptr);
    m_watcher.waitForFinished();
}

// ---- model ---------------------------------------------------------------------------------------

void AssistController::setModel(const assist::ModelSource& source) {
    setFollowRun(false);
    m_source = source;
    ++m_generation;
    clear();
    if (ProjectDocument* document = m_session->document()) {
        const std::string value =
            source.model.string() + '\n' + source.weights.string() + '\n' + source.names.string();
        if (Status saved = document->project().setSetting(kModelSetting, value); !saved)
            emit message(tr("Could not remember the model: %1").arg(QString::fromStdString(saved.message())));
    }
    emit modelChanged();
}

QString AssistController::modelName() const {
    if (!hasModel())
        return {};
    const QString file = QString::fromStdString(m_source.model.filename().string());
    return followRun() ? tr("%1 of run %2").arg(file, m_follower->runName()) : file;
}

void AssistController::loadProjectModel() {
    m_source = {};
    ++m_generation;
    clear();
    if (ProjectDocument* document = m_session->document()) {
        const auto stored = document->project().setting(kModelSetting);
        const QStringList parts =
            stored ? QString::fromStdString(*stored).split(QLatin1Char('\n')) : QStringList();
        if (parts.size() == 3 && QFileInfo::exists(parts[0])) {
            m_source.model = parts[0].toStdString();
            m_source.weights = parts[1].toStdString();
            m_source.names = parts[2].toStdString();
        }
    }
    ProjectDocument* document = m_session->document();
    const auto followSetting =
        document ? document->project().setting(kFollowSetting) : Expected<std::string>(std::string());
    const bool follow = followSetting && *followSetting == "1";
    m_follower->setEnabled(false);
    m_follower->setProjectFolder(document ? document->folder() : QString());
    m_follower->setEnabled(follow); // loads the newest best.pt now when there is one
    emit followRunChanged(follow);
    emit modelChanged();
}

// ---- following a training run --------------------------------------------------------------------

bool AssistController::followRun() const {
    return m_follower->isEnabled();
}

void AssistController::setFollowRun(bool on) {
    if (on == m_follower->isEnabled())
        return;
    ProjectDocument* document = m_session->document();
    if (document)
        if (Status saved = document->project().setSetting(kFollowSetting, on ? "1" : "0"); !saved)
            emit message(
                tr("Could not remember the setting: %1").arg(QString::fromStdString(saved.message())));
    m_follower->setProjectFolder(document ? document->folder() : QString());
    m_follower->setEnabled(on);
    if (on && m_follower->checkpoint().isEmpty())
        emit message(tr("Following the training runs: no run has saved a best.pt yet; the first one will be "
                        "loaded when it is written"));
    emit followRunChanged(on);
    emit modelChanged();
}

void AssistController::onFollowedCheckpoint(const QString& path, const QString& runName) {
    const bool showing = !m_candidates.empty();
    m_source =
        assist::ModelSource{path.toStdString(), {}, {}, m_source.device.empty() ? "cpu" : m_source.device};
    ++m_revision; // the same path may hold a new checkpoint: load it again
    ++m_generation;
    clear();
    emit modelChanged();
    emit message(tr("Following run %1: using its best.pt saved at %2")
                     .arg(runName, QFileInfo(path).lastModified().toString(QStringLiteral("HH:mm:ss"))));
    // Proposals on screen came from the old checkpoint: ask the new one.
    if ((showing || m_autoSuggest) && m_session->imageId() != 0) {
        if (m_running)
            m_pending = true;
        else
            start();
    }
}

void AssistController::chooseModel(QWidget* parent) {
    const QString start = hasModel()              ? toText(m_source.model.parent_path())
                          : m_session->document() ? m_session->document()->folder()
                                                  : QString();
    if (const auto source = askForModelSource(parent, tr("Choose a Model for Suggestions"), start))
        setModel(*source);
}

// ---- running the model ---------------------------------------------------------------------------

void AssistController::suggest() {
    if (!m_session->document() || m_session->imageId() == 0)
        return;
    if (!hasModel()) {
        chooseModel(m_canvas->window());
        if (!hasModel())
            return;
    }
    if (m_running) {
        m_pending = true; // runs again for the image shown when this one finishes
        return;
    }
    start();
}

void AssistController::start() {
    const std::int64_t imageId = m_session->imageId();
    const std::string path = m_session->document()->imageFilePath(m_session->image()).toStdString();
    m_running = true;
    m_pending = false;
    ++m_predictions;
    emit busyChanged(true);
    emit message(tr("Suggesting boxes with %1…").arg(modelName()));
    m_watcher.setFuture(QtConcurrent::run([engine = m_engine, source = m_source, revision = m_revision, path,
                                           imageId, generation = m_generation] {
        Result result;
        result.imageId = imageId;
        result.generation = generation;
        const std::lock_guard lock(engine->mutex);
        if (!engine->predictor || engine->revision != revision || engine->loaded.model != source.model ||
            engine->loaded.weights != source.weights || engine->loaded.names != source.names) {
            engine->predictor.reset();
            auto opened = assist::BoxPredictor::open(source);
            if (!opened) {
                result.error = QString::fromStdString(opened.message());
                return result;
            }
            engine->predictor = std::move(*opened);
            engine->loaded = source;
            engine->revision = revision;
        }
        auto image = imaging::decodeImage(path);
        if (!image) {
            result.error = QString::fromStdString(image.message());
            return result;
        }
        assist::SuggestOptions options;
        options.confThreshold = kRawConfidence;
        options.iouThreshold = 1.0f; // no suppression here: the sliders apply NMS on the cached set
        options.maxDetections = kRawMaxDetections;
        auto proposals = engine->predictor->predict(*image, options);
        if (!proposals) {
            result.error = QString::fromStdString(proposals.message());
            return result;
        }
        result.proposals = std::move(*proposals);
        result.names = engine->predictor->names();
        return result;
    }));
}

void AssistController::onFinished() {
    const Result result = m_watcher.result();
    m_running = false;
    emit busyChanged(false);
    ProjectDocument* document = m_session->document();
    const bool current =
        document && result.generation == m_generation && result.imageId == m_session->imageId();
    if (m_pending && document && m_session->imageId() != 0) {
        start(); // asked again (or the image changed) while the model ran
        return;
    }
    m_pending = false;
    if (!current)
        return;
    if (!result.error.isEmpty()) {
        emit message(tr("Suggestion failed: %1").arg(result.error));
        return;
    }
    // Model classes map to project classes by name (or by the mapping saved for this model). A project
    // without classes takes the model's classes.
    const std::string modelKey = m_source.model.filename().string();
    Expected<assist::ClassMapping> mapping = fail("no mapping");
    if (document->classes().empty()) {
        const Status added = document->editClasses([&](project::Project& project) -> Status {
            mapping = assist::mapClassesByName(project, result.names, assist::AddClasses::Yes, modelKey);
            return mapping ? Status{} : fail(mapping.message());
        });
        if (added && mapping)
            emit message(tr("Added the model's %1 classes to the project").arg(result.names.size()));
    } else {
        mapping =
            assist::mapClassesByName(document->project(), result.names, assist::AddClasses::No, modelKey);
    }
    if (!mapping) {
        emit message(tr("Suggestion failed: %1").arg(QString::fromStdString(mapping.message())));
        return;
    }
    m_imageId = result.imageId;
    ++m_batch;
    m_candidates.clear();
    for (const auto& p : result.proposals) {
        const auto index = static_cast<size_t>(p.classIndex);
        if (index >= mapping->projectClassIds.size() || !mapping->projectClassIds[index])
            continue; // unmapped model classes are ignored
        m_candidates.push_back({QRectF(QPointF(p.x1, p.y1), QPointF(p.x2, p.y2)).normalized(), p.score,
                                *mapping->projectClassIds[index], false});
    }
    std::stable_sort(m_candidates.begin(), m_candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    m_selected = -1;
    refilter();
    if (mapping->mappedCount() == 0)
        emit message(
            tr("None of the model's %1 classes is a class of this project").arg(result.names.size()));
    else
        emit message(m_visible.size() == 1
                         ? tr("1 proposal: Enter accepts, X rejects, Shift+Enter accepts all")
                         : tr("%1 proposals: Enter accepts, X rejects, Shift+Enter accepts all")
                               .arg(m_visible.size()));
}

void AssistController::onImageChanged() {
    ++m_generation;
    ++m_batch;
    m_candidates.clear();
    m_visible.clear();
    m_selected = -1;
    m_imageId = 0;
    emit proposalsChanged();
    if (m_autoSuggest && hasModel() && m_session->imageId() != 0) {
        if (m_running)
            m_pending = true;
        else
            start();
    }
}

void AssistController::setAutoSuggest(bool on) {
    if (on == m_autoSuggest)
        return;
    m_autoSuggest = on;
    emit autoSuggestChanged(on);
    if (on && m_candidates.empty() && hasModel() && m_session->imageId() != 0)
        suggest();
}

// ---- filtering -----------------------------------------------------------------------------------

void AssistController::setConfidence(float threshold) {
    m_conf = threshold;
    refilter();
}

void AssistController::setIou(float threshold) {
    m_iou = threshold;
    refilter();
}

void AssistController::refilter() {
    // Class-aware greedy NMS over every candidate above the confidence, dismissed ones included (an
    // accepted box keeps suppressing its duplicates), then the dismissed ones are hidden.
    std::vector<int> kept;
    for (int i = 0; i < static_cast<int>(m_candidates.size()); ++i) {
        const Candidate& c = m_candidates[static_cast<size_t>(i)];
        if (c.score < m_conf)
            continue;
        const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](int k) {
            const Candidate& other = m_candidates[static_cast<size_t>(k)];
            return other.classId == c.classId && iouOf(other.rect, c.rect) > m_iou;
        });
        if (!suppressed)
            kept.push_back(i);
    }
    m_visible.clear();
    for (const int i : kept)
        if (!m_candidates[static_cast<size_t>(i)].dismissed)
            m_visible.push_back(i);
    if (std::find(m_visible.begin(), m_visible.end(), m_selected) == m_visible.end())
        m_selected = m_visible.empty() ? -1 : m_visible.front();
    m_canvas->update();
    emit proposalsChanged();
}

// ---- accept and reject ---------------------------------------------------------------------------

void AssistController::selectNext() {
    if (m_visible.empty())
        return;
    const auto it = std::find(m_visible.begin(), m_visible.end(), m_selected);
    m_selected = it == m_visible.end() || it + 1 == m_visible.end() ? m_visible.front() : *(it + 1);
    m_canvas->update();
    emit proposalsChanged();
}

void AssistController::selectAfter(int position) {
    refilter();
    if (!m_visible.empty())
        m_selected = m_visible[static_cast<size_t>(std::min<int>(position, int(m_visible.size()) - 1))];
    m_canvas->update();
    emit proposalsChanged();
}

void AssistController::acceptSelected() {
    if (m_selected >= 0)
        accept({m_selected});
}

void AssistController::acceptAll() {
    accept(m_visible);
}

void AssistController::accept(const std::vector<int>& indices) {
    ProjectDocument* document = m_session->document();
    if (!document || indices.empty() || m_imageId != m_session->imageId())
        return;
    const auto position = std::find(m_visible.begin(), m_visible.end(), indices.front()) - m_visible.begin();
    std::vector<project::BoxRecord> boxes;
    for (const int index : indices) {
        Candidate& c = m_candidates[static_cast<size_t>(index)];
        const QRectF r =
            c.rect.intersected(QRectF(0, 0, m_session->image().width, m_session->image().height));
        c.dismissed = true;
        if (r.isEmpty())
            continue;
        project::BoxRecord box;
        box.classId = c.classId;
        box.x1 = r.left();
        box.y1 = r.top();
        box.x2 = r.right();
        box.y2 = r.bottom();
        box.score = c.score;
        boxes.push_back(box);
    }
    // Undo shows the proposals again (while they are still the ones on screen); redo hides them.
    const auto applied = [self = QPointer<AssistController>(this), batch = m_batch, indices](bool accepted) {
        if (!self || self->m_batch != batch)
            return;
        for (const int index : indices)
            self->m_candidates[static_cast<size_t>(index)].dismissed = accepted;
        if (!accepted)
            self->m_selected = indices.front();
        self->refilter();
    };
    if (!boxes.empty())
        m_session->undoStack()->push(
            new AcceptProposalsCommand(document, m_session->ids(), m_imageId, std::move(boxes), applied));
    selectAfter(static_cast<int>(position));
}

void AssistController::rejectSelected() {
    if (m_selected < 0)
        return;
    const auto position = std::find(m_visible.begin(), m_visible.end(), m_selected) - m_visible.begin();
    m_candidates[static_cast<size_t>(m_selected)].dismissed = true;
    selectAfter(static_cast<int>(position));
}

void AssistController::clear() {
    ++m_batch;
    m_candidates.clear();
    m_visible.clear();
    m_selected = -1;
    m_canvas->update();
    emit proposalsChanged();
}

// ---- canvas --------------------------------------------------------------------------------------

void AssistController::paintOverlay(QPainter& painter, const QRectF& avoid) {
    ProjectDocument* document = m_session->document();
    if (!document || m_visible.empty() || m_imageId != m_session->imageId())
        return;
    // Lowest scores first and the selected proposal last, so that the labels that matter stay on top.
    std::vector<int> order(m_visible.rbegin(), m_visible.rend());
    std::stable_partition(order.begin(), order.end(), [this](int i) { return i != m_selected; });
    for (const int index : order) {
        const Candidate& c = m_candidates[static_cast<size_t>(index)];
        const QRectF r =
            QRectF(m_canvas->toWidget(c.rect.topLeft()), m_canvas->toWidget(c.rect.bottomRight()));
        const QColor color = document->classColor(c.classId);
        const bool selected = index == m_selected;
        const int width = selected ? 3 : 2;
        const QRectF line = BoxPainter::snapped(r, width);
        painter.save();
        if (selected) {
            QColor fill = color;
            fill.setAlpha(48);
            painter.fillRect(r, fill);
        }
        painter.setBrush(Qt::NoBrush);
        painter.setPen(
            QPen(BoxPainter::haloFor(color), width + 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        painter.drawRect(line);
        QPen dashed(color, width, Qt::CustomDashLine, Qt::FlatCap, Qt::MiterJoin);
        dashed.setDashPattern({4, 3});
        painter.setPen(dashed);
        painter.drawRect(line);
        painter.restore();
        const QString label =
            QStringLiteral("%1 %2").arg(document->className(c.classId)).arg(double(c.score), 0, 'f', 2);
        BoxPainter::paintLabel(painter, r, color, selected ? QStringLiteral("▶ ") + label : label,
                               m_canvas->rect(), avoid);
    }
}

bool AssistController::overlayClicked(QPointF imagePx) {
    if (m_visible.empty() || m_imageId != m_session->imageId())
        return false;
    // The smallest proposal under the click, so that a small one inside a big one can be picked.
    int best = -1;
    double bestArea = 0;
    for (const int index : m_visible) {
        const QRectF& r = m_candidates[static_cast<size_t>(index)].rect;
        const double area = r.width() * r.height();
        if (r.contains(imagePx) && (best < 0 || area < bestArea)) {
            best = index;
            bestArea = area;
        }
    }
    if (best < 0)
        return false;
    m_selected = best;
    m_canvas->update();
    emit proposalsChanged();
    return true;
}

} // namespace osprey::ui
