#include "ui/train/train_actions.h"

#include "ui/train/export_model_dialog.h"
#include "ui/train/train_panel.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QEventLoop>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>

namespace osprey::ui {

TrainActions::TrainActions(QMainWindow* window) : QObject(window), m_window(window) {
    m_menu = new QMenu(tr("&Train"), window);
    m_dashboard = m_menu->addAction(tr("Training &Dashboard"), QKeySequence(tr("Ctrl+Shift+T")), this,
                                    &TrainActions::showDashboard);
    m_menu->addSeparator();
    m_start = m_menu->addAction(tr("&Start Training"), this, [this] {
        showDashboard();
        QString error;
        if (m_panel && !m_panel->requestStart(&error))
            QMessageBox::warning(m_window, tr("Training"), error);
    });
    m_stop = m_menu->addAction(tr("S&top Training"), this, [this] {
        if (m_panel)
            m_panel->stop();
    });
    m_menu->addSeparator();
    m_menu->addAction(tr("&Export Model…"), this, [this] {
        auto* dialog = new ExportModelDialog({}, m_window);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->open();
    });
    m_dock = new QDockWidget(tr("Training"), window);
    m_dock->setObjectName("TrainingDock");
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    m_dock->hide();
    window->installEventFilter(this);
    connect(m_menu, &QMenu::aboutToShow, this, &TrainActions::updateActions);
    setDocument(nullptr);
}

void TrainActions::setDocument(ProjectDocument* document) {
    m_document = document;
    delete m_panel;
    m_panel = nullptr;
    if (!document)
        m_dock->hide();
    updateActions();
}

void TrainActions::showDashboard() {
    if (!m_document)
        return;
    if (!m_panel) {
        m_panel = new TrainPanel(m_document, m_dock);
        m_dock->setWidget(m_panel);
        connect(m_panel, &TrainPanel::worstImagesRequested, this, &TrainActions::worstImagesRequested);
        connect(m_panel, &TrainPanel::confusionCellRequested, this, &TrainActions::confusionCellRequested);
        connect(m_panel, &TrainPanel::changedImagesRequested, this, &TrainActions::changedImagesRequested);
    }
    m_dock->show();
    m_dock->raise();
    updateActions();
}

void TrainActions::updateActions() {
    const bool running = m_panel && m_panel->isRunning();
    m_dashboard->setEnabled(m_document != nullptr);
    m_start->setEnabled(m_document != nullptr && !running);
    m_stop->setEnabled(running);
}

bool TrainActions::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window && event->type() == QEvent::Close && !confirmClose()) {
        event->ignore();
        return true;
    }
    return QObject::eventFilter(watched, event);
}

bool TrainActions::confirmClose() {
    if (!m_panel || !m_panel->isRunning())
        return true;
    QMessageBox box(QMessageBox::Question, tr("Training in progress"),
                    tr("<b>A training run is in progress.</b>"), QMessageBox::NoButton, m_window);
    box.setObjectName(QStringLiteral("closeWhileTraining"));
    box.setInformativeText(
        tr("<p><b>Keep training in the background</b>: the run goes on after Osprey closes and writes its "
           "charts and weights to the run folder; open it later from the runs table.</p>"
           "<p><b>Stop and save</b>: the trainer finishes the current batch and saves last.pt, so the run "
           "can be resumed.</p>"));
    QPushButton* keep = box.addButton(tr("Keep Training in Background"), QMessageBox::AcceptRole);
    keep->setObjectName(QStringLiteral("keepRunning"));
    QPushButton* stop = box.addButton(tr("Stop and Save"), QMessageBox::DestructiveRole);
    stop->setObjectName(QStringLiteral("stopRun"));
    QPushButton* cancel = box.addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancel"));
    box.setDefaultButton(keep);
    box.setEscapeButton(cancel);
    box.exec();
    if (box.clickedButton() == keep) {
        m_panel->detachRun();
        return true;
    }
    if (box.clickedButton() == stop)
        return stopAndWait();
    return false;
}

bool TrainActions::stopAndWait() {
    QProgressDialog progress(tr("Stopping the run: the trainer finishes its batch and saves last.pt…"),
                             tr("End Now Without Saving"), 0, 0, m_window);
    progress.setObjectName(QStringLiteral("stoppingTrainer"));
    progress.setWindowTitle(tr("Stopping training"));
    progress.setWindowModality(Qt::WindowModal);
    progress.setMinimumDuration(0);
    progress.setAutoClose(false);
    progress.setAutoReset(false);
    QEventLoop loop;
    connect(m_panel, &TrainPanel::runEnded, &loop, &QEventLoop::quit);
    connect(&progress, &QProgressDialog::canceled, m_panel, &TrainPanel::kill);
    m_panel->stop();
    // Nothing is processed between stop() and exec(), so the end of the run cannot slip past the loop.
    if (m_panel->isRunning()) {
        progress.show();
        loop.exec();
    }
    return !m_panel->isRunning();
}

} // namespace osprey::ui
