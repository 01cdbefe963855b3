#include "ui/annotate/editor_actions.h"

#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#ifdef OSPREY_HAVE_ASSIST
#include "ui/assist/assist_controller.h"
#include "ui/assist/auto_label_dialog.h"
#include "ui/assist/class_mapping_dialog.h"
#include "ui/assist/label_next_dialog.h"
#include "ui/assist/review_queue_actions.h"
#endif
#include "ui/annotate/box_canvas.h"
#include "ui/annotate/cheat_sheet_dialog.h"
#include "ui/annotate/shortcut_registry.h"
#include "ui/annotate/shortcuts_dialog.h"
#include "ui/project/project_document.h"

#include <QAction>
#include <QMenu>
#include <QUndoStack>

namespace osprey::ui {

namespace {
constexpr double kNudgeSmallPx = 1.0;
constexpr double kNudgeLargePx = 10.0;
} // namespace

EditorActions::EditorActions(AnnotationEditor* editor, QWidget* window)
    : QObject(editor), m_editor(editor), m_window(window), m_registry(new ShortcutRegistry(this)) {
    m_edit = new QMenu(tr("&Edit"), window);
    m_view = new QMenu(tr("&View"), window);
    m_image = new QMenu(tr("&Image"), window);
    m_class = new QMenu(tr("&Class"), window);
    createEditMenu();
    createViewMenu();
    createImageMenu();
    createClassMenu();
    createAssistMenu();
    m_cheatSheet = add(nullptr, "help.cheatSheet", tr("Keyboard &Cheat Sheet"),
                       {QKeySequence(Qt::Key_F1), QKeySequence(QStringLiteral("?"))}, Scope::Window);
    connect(m_cheatSheet, &QAction::triggered, this, &EditorActions::showCheatSheet);
    connect(editor->canvas(), &BoxCanvas::spaceTapped, this, [this] {
        // Space pans while held; a tap runs whichever action the user bound to Space.
        for (const auto& entry : m_registry->entries())
            if (entry.action->shortcuts().contains(QKeySequence(Qt::Key_Space)))
                entry.action->trigger();
    });
}

QAction* EditorActions::add(QMenu* menu, const QString& id, const QString& text,
                            const QList<QKeySequence>& keys, Scope scope) {
    auto* action = new QAction(text, this);
    action->setObjectName(id);
    if (scope == Scope::Canvas) {
        // Canvas keys (arrows, Delete, Tab, Ctrl+C) must keep working normally in the lists and fields.
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        m_editor->addAction(action);
    } else {
        action->setShortcutContext(Qt::WindowShortcut);
        m_window->addAction(action);
    }
    if (menu)
        menu->addAction(action);
    m_registry->add(id, menu ? menu->title() : tr("&Help"), action, keys);
    return action;
}

QAction* EditorActions::action(const QString& id) const {
    return m_registry->action(id);
}

void EditorActions::createEditMenu() {
    AnnotationEditor* editor = m_editor;
    // Through the session, not the stack: while edits wait for the database, Undo takes back the newest
    // waiting one and stored steps wait their turn (AnnotationSession::undo).
    AnnotationSession* session = editor->session();
    auto* undo = new QAction(tr("&Undo"), this);
    auto* redo = new QAction(tr("&Redo"), this);
    connect(undo, &QAction::triggered, session, &AnnotationSession::undo);
    connect(redo, &QAction::triggered, session, &AnnotationSession::redo);
    const auto update = [session, undo, redo] {
        undo->setEnabled(session->canUndo());
        undo->setText(session->undoText());
        redo->setEnabled(session->canRedo());
        redo->setText(session->redoText());
    };
    connect(session, &AnnotationSession::historyChanged, this, update);
    update();
    m_edit->addAction(undo);
    m_edit->addAction(redo);
    m_window->addAction(undo);
    m_window->addAction(redo);
    m_registry->add("edit.undo", m_edit->title(), undo, {QKeySequence::Undo});
    m_registry->add("edit.redo", m_edit->title(), redo,
                    {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_edit->addSeparator();
    connect(add(m_edit, "edit.draw", tr("&Draw Box"), {QKeySequence(Qt::Key_W)}, Scope::Window),
            &QAction::triggered, editor->canvas(), &BoxCanvas::armDrawing);
    connect(add(m_edit, "edit.delete", tr("De&lete Box"),
                {QKeySequence(Qt::Key_Delete), QKeySequence(Qt::Key_Backspace)}, Scope::Canvas),
            &QAction::triggered, editor, &AnnotationEditor::deleteSelection);
    connect(add(m_edit, "edit.copy", tr("&Copy Boxes"), {QKeySequence::Copy}, Scope::Canvas),
            &QAction::triggered, editor, &AnnotationEditor::copySelection);
    connect(add(m_edit, "edit.paste", tr("&Paste Boxes"), {QKeySequence::Paste}, Scope::Canvas),
            &QAction::triggered, editor, &AnnotationEditor::paste);
    connect(add(m_edit, "edit.pastePrevious", tr("Paste Boxes from &Previous Image"),
                {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V)}, Scope::Window),
            &QAction::triggered, editor, &AnnotationEditor::pasteFromPreviousImage);
    m_edit->addSeparator();
    connect(add(m_edit, "edit.selectAll", tr("Select &All Boxes"), {QKeySequence::SelectAll}, Scope::Canvas),
            &QAction::triggered, editor->canvas(), &BoxCanvas::selectAll);
    connect(
        add(m_edit, "edit.selectNext", tr("Select &Next Box"), {QKeySequence(Qt::Key_Tab)}, Scope::Canvas),
        &QAction::triggered, editor, [editor] {
#ifdef OSPREY_HAVE_ASSIST
            // While model proposals are shown, Tab walks through them instead.
            if (!editor->assist()->visible().empty()) {
                editor->assist()->selectNext();
                return;
            }
#endif
            editor->canvas()->selectNextBox();
        });
    QMenu* nudge = m_edit->addMenu(tr("N&udge"));
    struct Step {
        const char* id;
        QString text;
        Qt::Key key;
        double dx, dy;
    };
    const Step steps[] = {{"left", tr("Left"), Qt::Key_Left, -1, 0},
                          {"right", tr("Right"), Qt::Key_Right, 1, 0},
                          {"up", tr("Up"), Qt::Key_Up, 0, -1},
                          {"down", tr("Down"), Qt::Key_Down, 0, 1}};
    for (const Step& step : steps)
        for (const bool large : {false, true}) {
            const double distance = large ? kNudgeLargePx : kNudgeSmallPx;
            const QString id = QStringLiteral("edit.nudge.%1%2").arg(step.id, large ? ".large" : "");
            const QString text = large ? tr("%1 by %2 px").arg(step.text).arg(kNudgeLargePx) : step.text;
            QAction* action = add(nudge, id, text,
                                  {QKeySequence(large ? (Qt::SHIFT | step.key) : QKeyCombination(step.key))},
                                  Scope::Canvas);
            action->setAutoRepeat(true);
            const double dx = step.dx * distance, dy = step.dy * distance;
            connect(action, &QAction::triggered, editor->canvas(),
                    [editor, dx, dy] { editor->canvas()->nudge(dx, dy); });
        }
    m_edit->addSeparator();
    m_shortcuts = add(m_edit, "edit.shortcuts", tr("&Keyboard Shortcuts…"),
                      {QKeySequence(Qt::CTRL | Qt::Key_Comma)}, Scope::Window);
    connect(m_shortcuts, &QAction::triggered, this, &EditorActions::showShortcutSettings);
}

void EditorActions::createViewMenu() {
    BoxCanvas* canvas = m_editor->canvas();
    connect(add(m_view, "view.zoomIn", tr("Zoom &In"),
                {QKeySequence::ZoomIn, QKeySequence(Qt::CTRL | Qt::Key_Equal)}, Scope::Window),
            &QAction::triggered, canvas, &BoxCanvas::zoomIn);
    connect(add(m_view, "view.zoomOut", tr("Zoom &Out"), {QKeySequence::ZoomOut}, Scope::Window),
            &QAction::triggered, canvas, &BoxCanvas::zoomOut);
    connect(add(m_view, "view.fit", tr("&Fit to Window"), {QKeySequence(Qt::Key_F)}, Scope::Window),
            &QAction::triggered, canvas, &BoxCanvas::zoomToFit);
    connect(add(m_view, "view.actualSize", tr("&Actual Pixels (1:1)"), {QKeySequence(Qt::CTRL | Qt::Key_1)},
                Scope::Window),
            &QAction::triggered, canvas, &BoxCanvas::zoomToActualSize);
    m_view->addSeparator();
    QAction* hide =
        add(m_view, "view.hideBoxes", tr("&Hide Boxes"), {QKeySequence(Qt::Key_H)}, Scope::Window);
    hide->setCheckable(true);
    connect(hide, &QAction::toggled, canvas, &BoxCanvas::setBoxesHidden);
}

void EditorActions::createImageMenu() {
    AnnotationEditor* editor = m_editor;
    connect(add(m_image, "image.next", tr("&Next Image"), {QKeySequence(Qt::Key_D)}, Scope::Window),
            &QAction::triggered, editor, &AnnotationEditor::nextImage);
    connect(add(m_image, "image.previous", tr("&Previous Image"), {QKeySequence(Qt::Key_A)}, Scope::Window),
            &QAction::triggered, editor, &AnnotationEditor::previousImage);
    connect(add(m_image, "image.nextUnlabeled", tr("Next &Unlabeled Image"), {QKeySequence(Qt::Key_N)},
                Scope::Window),
            &QAction::triggered, editor, &AnnotationEditor::nextUnlabeledImage);
    m_image->addSeparator();
    connect(
        add(m_image, "image.reviewed", tr("Mark &Reviewed"), {QKeySequence(Qt::Key_Space)}, Scope::Window),
        &QAction::triggered, editor, &AnnotationEditor::markReviewed);
    connect(add(m_image, "image.verifiedEmpty", tr("Mark &Verified Empty (No Objects)"),
                {QKeySequence(Qt::Key_V)}, Scope::Window),
            &QAction::triggered, editor, &AnnotationEditor::markVerifiedEmpty);
}

void EditorActions::createClassMenu() {
    connect(add(m_class, "class.choose", tr("&Choose Class…"), {QKeySequence(Qt::CTRL | Qt::Key_E)},
                Scope::Window),
            &QAction::triggered, m_editor, &AnnotationEditor::chooseClass);
    m_class->addSeparator();
    for (int index = 0; index < 9; ++index) {
        QAction* action =
            add(m_class, QStringLiteral("class.set%1").arg(index + 1), tr("Class %1").arg(index + 1),
                {QKeySequence(Qt::Key_1 + index)}, Scope::Window);
        connect(action, &QAction::triggered, m_editor, [this, index] { m_editor->setClassByIndex(index); });
        m_classActions.append(action);
    }
    connect(m_class, &QMenu::aboutToShow, this, &EditorActions::updateClassActions);
}

void EditorActions::createAssistMenu() {
#ifdef OSPREY_HAVE_ASSIST
    AssistController* assist = m_editor->assist();
    QMenu* menu = m_edit->addMenu(tr("Model &Proposals"));
    connect(add(menu, "assist.suggest", tr("&Suggest Boxes"), {QKeySequence(Qt::Key_I)}, Scope::Window),
            &QAction::triggered, assist, &AssistController::suggest);
    QAction* every = add(menu, "assist.everyImage", tr("Suggest on &Every Image"),
                         {QKeySequence(Qt::SHIFT | Qt::Key_I)}, Scope::Window);
    every->setCheckable(true);
    connect(every, &QAction::toggled, assist, &AssistController::setAutoSuggest);
    connect(assist, &AssistController::autoSuggestChanged, every, &QAction::setChecked);
    connect(add(menu, "assist.chooseModel", tr("Choose &Model…"),
                {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I)}, Scope::Window),
            &QAction::triggered, assist, [this] { m_editor->assist()->chooseModel(m_window); });
    QAction* follow = add(menu, "assist.followRun", tr("&Follow the Active Training Run"),
                          {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F)}, Scope::Window);
    follow->setCheckable(true);
    follow->setToolTip(
        tr("Use the best.pt written last under the project's runs, reloaded each time training "
           "saves a better one"));
    connect(follow, &QAction::toggled, assist, &AssistController::setFollowRun);
    connect(assist, &AssistController::followRunChanged, follow, &QAction::setChecked);
    menu->addSeparator();
    // Batch auto-label and the model-to-project class mapping it uses; both need an open project.
    AnnotationSession* session = m_editor->session();
    QAction* autoLabel = add(menu, "assist.autoLabel", tr("Auto-Label &Images…"),
                             {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L)}, Scope::Window);
    connect(autoLabel, &QAction::triggered, this, [this, session] {
        if (!session->document())
            return;
        auto* dialog = new AutoLabelDialog(session->document(), m_editor->assist()->source(), m_window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &AutoLabelDialog::projectChanged, this, [session](bool replaced) {
            // Undo steps may refer to model boxes that Replace deleted.
            if (replaced)
                session->clearHistory();
            if (ProjectDocument* document = session->document(); document && session->imageId() != 0)
                emit document->imageChanged(session->imageId());
        });
        connect(dialog, &AutoLabelDialog::reviewRequested, this,
                [this] { m_editor->reviewQueue()->open(assist::ReviewOrder::Confidence); });
        dialog->open();
    });
    QAction* mapping = add(menu, "assist.classMapping", tr("Class Ma&pping…"),
                           {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M)}, Scope::Window);
    connect(mapping, &QAction::triggered, this, [this, session] {
        if (!session->document())
            return;
        if (!m_editor->assist()->hasModel())
            m_editor->assist()->chooseModel(m_window);
        if (!m_editor->assist()->hasModel())
            return;
        auto* dialog = new ClassMappingDialog(session->document(), m_editor->assist()->source(), m_window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    // What to label next: the picks open as the label-next queue (and their proposals, for review).
    QAction* labelNext = add(menu, "assist.labelNext", tr("Choose Images to Label &Next…"),
                             {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_N)}, Scope::Window);
    connect(labelNext, &QAction::triggered, this, [this, session] {
        if (!session->document())
            return;
        auto* dialog = new LabelNextDialog(session->document(), m_editor->assist()->source(), m_window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &LabelNextDialog::projectChanged, this, [session] {
            if (ProjectDocument* document = session->document(); document && session->imageId() != 0)
                emit document->imageChanged(session->imageId());
        });
        connect(dialog, &LabelNextDialog::queueReady, this,
                [this] { m_editor->reviewQueue()->openLabelNext(); });
        dialog->open();
    });
    const auto updateProjectActions = [session, autoLabel, mapping, labelNext] {
        autoLabel->setEnabled(session->document() != nullptr);
        mapping->setEnabled(session->document() != nullptr);
        labelNext->setEnabled(session->document() != nullptr);
    };
    connect(session, &AnnotationSession::imageChanged, this, updateProjectActions);
    updateProjectActions();
    menu->addAction(m_editor->reviewQueue()->confidenceAction());
    menu->addAction(m_editor->reviewQueue()->disagreementAction());
    menu->addAction(m_editor->reviewQueue()->labelNextAction());
    menu->addSeparator();
    // Enabled only while proposals are shown, so that Enter and Esc keep their usual meaning otherwise.
    QList<QAction*> whileShown;
    whileShown << add(menu, "assist.accept", tr("&Accept Proposal"),
                      {QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}, Scope::Canvas);
    connect(whileShown.back(), &QAction::triggered, assist, &AssistController::acceptSelected);
    whileShown << add(menu, "assist.reject", tr("&Reject Proposal"), {QKeySequence(Qt::Key_X)},
                      Scope::Canvas);
    connect(whileShown.back(), &QAction::triggered, assist, &AssistController::rejectSelected);
    whileShown << add(menu, "assist.acceptAll", tr("Accept A&ll Proposals"),
                      {QKeySequence(Qt::SHIFT | Qt::Key_Return), QKeySequence(Qt::SHIFT | Qt::Key_Enter)},
                      Scope::Canvas);
    connect(whileShown.back(), &QAction::triggered, assist, &AssistController::acceptAll);
    whileShown << add(menu, "assist.clear", tr("&Clear Proposals"), {QKeySequence(Qt::Key_Escape)},
                      Scope::Canvas);
    connect(whileShown.back(), &QAction::triggered, assist, &AssistController::clear);
    const auto update = [assist, whileShown] {
        for (QAction* action : whileShown)
            action->setEnabled(!assist->visible().empty());
    };
    connect(assist, &AssistController::proposalsChanged, this, update);
    update();
#endif
}

void EditorActions::updateClassActions() {
    ProjectDocument* document = m_editor->session()->document();
    for (int index = 0; index < m_classActions.size(); ++index) {
        const bool exists = document && index < static_cast<int>(document->classes().size());
        m_classActions[index]->setText(
            exists ? tr("Class %1: %2")
                         .arg(index + 1)
                         .arg(QString::fromStdString(document->classes()[static_cast<size_t>(index)].name))
                   : tr("Class %1").arg(index + 1));
        m_classActions[index]->setEnabled(exists);
    }
}

void EditorActions::showCheatSheet() {
    auto* sheet = m_window->findChild<CheatSheetDialog*>();
    if (!sheet)
        sheet = new CheatSheetDialog(m_registry, m_window);
    sheet->refresh();
    sheet->show();
    sheet->raise();
}

void EditorActions::showShortcutSettings() {
    ShortcutsDialog dialog(m_registry, m_window);
    dialog.exec();
}

} // namespace osprey::ui
