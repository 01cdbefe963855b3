#include "ui/assist/assist_controller.h"

#include "run/run_curves.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/commands/accept_proposals_command.h"
#include "ui/assist/model_file_chooser.h"
#include "ui/assist/proposal_painter.h"
#include "ui/assist/run_follower.h"
#include "ui/common/background.h"
#include "ui/project/project_document.h"

#include <QFileInfo>
#include <QPointer>
#include <algorithm>

namespace osprey::ui {

namespace {

constexpr char kModelSetting[] = "assist.model";
constexpr char kFollowSetting[] = "assist.follow_run";

QString toText(const std::filesystem::path& path) {
    return QString::fromStdString(path.string());
}

} // namespace

AssistController::AssistController(AnnotationSession* session, BoxCanvas* canvas, QObject* parent)
    : QObject(parent), m_session(session), m_canvas(canvas), m_engine(std::make_shared<SuggestionEngine>()),
      m_follower(new RunFollower(this)) {
    connect(m_follower, &RunFollower::checkpointChanged, this, &AssistController::onFollowedCheckpoint);
    m_pool.setMaxThreadCount(1);
    connect(session, &AnnotationSession::imageChanged, this, &AssistController::onImageChanged);
    canvas->setOverlay(this);
}

AssistController::~AssistController() {
    m_canvas->setOverlay(nullptr);
    m_pool.waitForDone();
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
        if (Status saved = document->project().settings().set(kModelSetting, value); !saved)
            emit message(tr("Could not remember the model: %1").arg(QString::fromStdString(saved.message())));
    }
    emit modelChanged();
    offerRunConfidence();
}

void AssistController::offerRunConfidence() {
    // A model from an Osprey run: its best-F1 confidence (the run's curves.json) becomes the default.
    if (const auto best = run::runBestConfidence(m_source.model)) {
        emit runConfidenceFound(static_cast<float>(*best));
        emit message(tr("Confidence %1: where this model's run found the best F1").arg(*best, 0, 'f', 2));
    }
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
        const auto stored = document->project().settings().get(kModelSetting);
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
        document ? document->project().settings().get(kFollowSetting) : Expected<std::string>(std::string());
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
        if (Status saved = document->project().settings().set(kFollowSetting, on ? "1" : "0"); !saved)
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
    const bool showing = !m_proposals.candidates().empty();
    m_source =
        assist::ModelSource{path.toStdString(), {}, {}, m_source.device.empty() ? "cpu" : m_source.device};
    ++m_revision; // the same path may hold a new checkpoint: load it again
    ++m_generation;
    clear();
    emit modelChanged();
    emit message(tr("Following run %1: using its best.pt saved at %2")
                     .arg(runName, QFileInfo(path).lastModified().toString(QStringLiteral("HH:mm:ss"))));
    if (const auto best = run::runBestConfidence(m_source.model))
        emit runConfidenceFound(static_cast<float>(*best));
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
    runInBackground(
        this,
        [engine = m_engine, source = m_source, revision = m_revision, path, imageId,
         generation = m_generation] {
            return Result{imageId, generation, engine->run(source, revision, path)};
        },
        [this](const Result& result) { onFinished(result); }, &m_pool);
}

void AssistController::onFinished(const Result& result) {
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
    const SuggestionEngine::Result& prediction = result.prediction;
    if (!prediction.error.isEmpty()) {
        emit message(tr("Suggestion failed: %1").arg(prediction.error));
        return;
    }
    auto mapped = mapProposals(*document, prediction, m_source.model.filename().string());
    if (!mapped) {
        emit message(tr("Suggestion failed: %1").arg(QString::fromStdString(mapped.message())));
        return;
    }
    if (mapped->addedClasses > 0)
        emit message(tr("Added the model's %1 classes to the project").arg(mapped->addedClasses));
    m_proposals.replace(result.imageId, std::move(mapped->candidates));
    changed();
    if (mapped->mappedClasses == 0)
        emit message(
            tr("None of the model's %1 classes is a class of this project").arg(prediction.names.size()));
    else
        emit message(visible().size() == 1
                         ? tr("1 proposal: Enter accepts, X rejects, Shift+Enter accepts all")
                         : tr("%1 proposals: Enter accepts, X rejects, Shift+Enter accepts all")
                               .arg(visible().size()));
}

void AssistController::onImageChanged() {
    ++m_generation;
    m_proposals.replace(0, {});
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
    if (on && candidates().empty() && hasModel() && m_session->imageId() != 0)
        suggest();
}

// ---- filtering -----------------------------------------------------------------------------------

void AssistController::setConfidence(float threshold) {
    m_proposals.setConfidence(threshold);
    changed();
}

void AssistController::setIou(float threshold) {
    m_proposals.setIou(threshold);
    changed();
}

void AssistController::changed() {
    m_canvas->update();
    emit proposalsChanged();
}

// ---- accept and reject ---------------------------------------------------------------------------

void AssistController::selectNext() {
    if (visible().empty())
        return;
    m_proposals.selectNext();
    changed();
}

void AssistController::selectAfter(int position) {
    m_proposals.selectAt(position);
    changed();
}

void AssistController::acceptSelected() {
    if (selected() >= 0)
        accept({selected()});
}

void AssistController::acceptAll() {
    accept(visible());
}

void AssistController::accept(const std::vector<int>& indices) {
    ProjectDocument* document = m_session->document();
    if (!document || indices.empty() || m_proposals.imageId() != m_session->imageId())
        return;
    const int position = m_proposals.positionOf(indices.front());
    std::vector<project::BoxRecord> boxes;
    for (const int index : indices) {
        const Candidate& c = candidates()[static_cast<size_t>(index)];
        const QRectF r =
            c.rect.intersected(QRectF(0, 0, m_session->image().width, m_session->image().height));
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
    m_proposals.setDismissed(indices, true);
    // Undo shows the proposals again (while they are still the ones on screen); redo hides them.
    const auto applied = [self = QPointer<AssistController>(this), batch = m_proposals.batch(),
                          indices](bool accepted) {
        if (!self || self->m_proposals.batch() != batch)
            return;
        self->m_proposals.setDismissed(indices, accepted);
        if (!accepted)
            self->m_proposals.select(indices.front());
        self->m_proposals.refilter();
        self->changed();
    };
    // Through the session: when the database refuses the boxes for now (another program writing, a full
    // disk), they are kept (the banner says so) and stored in their turn; the proposals stay hidden while
    // the edit waits and come back when it is taken back (Undo) or discarded.
    if (!boxes.empty())
        m_session->pushEdit(
            [document, ids = m_session->ids(), imageId = m_proposals.imageId(), boxes, applied] {
                return new AcceptProposalsCommand(document, ids, imageId, boxes, applied);
            },
            applied);
    selectAfter(position);
}

void AssistController::rejectSelected() {
    if (selected() < 0)
        return;
    const int position = m_proposals.positionOf(selected());
    m_proposals.setDismissed({selected()}, true);
    selectAfter(position);
}

void AssistController::clear() {
    m_proposals.clear();
    changed();
}

// ---- canvas --------------------------------------------------------------------------------------

void AssistController::paintOverlay(QPainter& painter, const QRectF& avoid) {
    ProjectDocument* document = m_session->document();
    if (document && !visible().empty() && m_proposals.imageId() == m_session->imageId())
        paintProposals(painter, m_proposals, *m_canvas, *document, avoid);
}

bool AssistController::overlayClicked(QPointF imagePx) {
    if (visible().empty() || m_proposals.imageId() != m_session->imageId())
        return false;
    const int hit = m_proposals.proposalAt(imagePx);
    if (hit < 0)
        return false;
    m_proposals.select(hit);
    changed();
    return true;
}

} // namespace osprey::ui
