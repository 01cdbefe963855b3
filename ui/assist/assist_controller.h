#pragma once
// AssistController: model proposals in the editor. Holds the active model (an Osprey checkpoint, an
// ONNX model or a Darknet cfg + weights, remembered per project, or the followed run's best.pt), runs it
// on the current image off the GUI thread (SuggestionEngine), maps its classes to the project's, keeps
// the candidates in a ProposalSet (re-filtered live by the confidence and IoU sliders), draws them on the
// canvas and turns accepted ones into boxes through an undoable command. Results for an image that is no
// longer shown are discarded. GUI thread only.

#include "assist/box_predictor.h"
#include "ui/annotate/box_canvas.h"
#include "ui/assist/proposal_set.h"
#include "ui/assist/suggestion_engine.h"

#include <QObject>
#include <QRectF>
#include <QThreadPool>
#include <memory>
#include <vector>

class QWidget;

namespace osprey::ui {

class AnnotationSession;
class RunFollower;

class AssistController : public QObject, public CanvasOverlay {
    Q_OBJECT
public:
    /// Candidates below this score are dropped by the predictor; the confidence slider starts here.
    static constexpr float kRawConfidence = SuggestionEngine::kRawConfidence;
    using Candidate = ProposalSet::Candidate;

    AssistController(AnnotationSession* session, BoxCanvas* canvas, QObject* parent = nullptr);
    ~AssistController() override;

    // ---- model ---------------------------------------------------------------------------------
    /// Makes `source` the active model (loaded on first use, off the GUI thread) and remembers it in the
    /// project's settings.
    void setModel(const assist::ModelSource& source);
    bool hasModel() const { return !m_source.model.empty(); }
    /// The active model ("" paths when none).
    const assist::ModelSource& source() const { return m_source; }
    /// The model's file name ("" when none).
    QString modelName() const;
    /// Asks for a model file (.pt, .onnx, or .cfg with its .weights and a names file).
    void chooseModel(QWidget* parent);
    /// Reads the project's remembered model and follow setting (after the session's document changed).
    void loadProjectModel();

    // ---- following a training run ----------------------------------------------------------------
    /// "Follow the active training run": the model becomes the best.pt written last under the project's
    /// runs/ and is reloaded each time the trainer writes a new best (remembered per project). Choosing a
    /// model file turns it off.
    void setFollowRun(bool on);
    bool followRun() const;
    RunFollower* runFollower() const { return m_follower; }

    // ---- proposals -----------------------------------------------------------------------------
    bool busy() const { return m_running; }
    /// How many times the predictor ran (suggestions made), for tests and the status line.
    int predictionCount() const { return m_predictions; }
    const std::vector<Candidate>& candidates() const { return m_proposals.candidates(); }
    /// Indices into candidates() shown now (by descending score).
    const std::vector<int>& visible() const { return m_proposals.visible(); }
    /// The selected candidate (index into candidates()), -1 when none.
    int selected() const { return m_proposals.selected(); }
    float confidence() const { return m_proposals.confidence(); }
    float iou() const { return m_proposals.iou(); }
    bool autoSuggest() const { return m_autoSuggest; }

    void paintOverlay(QPainter& painter, const QRectF& avoid) override;
    bool overlayClicked(QPointF imagePx) override;

public slots:
    /// Runs the predictor on the current image (asks for a model first when none is set).
    void suggest();
    void setAutoSuggest(bool on);
    void setConfidence(float threshold);
    void setIou(float threshold);
    void selectNext();
    void acceptSelected();
    void rejectSelected();
    void acceptAll();
    void clear();

signals:
    void proposalsChanged();
    void busyChanged(bool busy);
    void modelChanged();
    void autoSuggestChanged(bool on);
    void followRunChanged(bool on);
    /// The active model comes from an Osprey run whose curves.json names its best-F1 confidence: the
    /// default for the confidence slider (the bar moves to it; the user can move it on).
    void runConfidenceFound(float confidence);
    void message(const QString& text);

private:
    void offerRunConfidence();
    struct Result {
        std::int64_t imageId = 0;
        std::int64_t generation = 0;
        SuggestionEngine::Result prediction;
    };

    void start();
    void onFinished(const Result& result);
    void onImageChanged();
    void onFollowedCheckpoint(const QString& path, const QString& runName);
    /// The proposals changed: repaint and tell the views.
    void changed();
    void accept(const std::vector<int>& indices);
    void selectAfter(int position);

    AnnotationSession* m_session;
    BoxCanvas* m_canvas;
    std::shared_ptr<SuggestionEngine> m_engine;
    assist::ModelSource m_source;
    RunFollower* m_follower;
    std::int64_t m_revision = 0; ///< bumped when the followed file is rewritten in place
    QThreadPool m_pool;          ///< one suggestion at a time; destroying the controller waits for it
    bool m_running = false;
    bool m_pending = false;
    std::int64_t m_generation = 0;
    int m_predictions = 0;
    ProposalSet m_proposals;
    bool m_autoSuggest = false;
};

} // namespace osprey::ui
