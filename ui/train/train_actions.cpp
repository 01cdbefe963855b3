#include "ui/train/train_actions.h"

#include "ui/train/train_panel.h"

#include <QAction>
#include <QCloseEvent>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>

namespace osprey::ui {

TrainActions::TrainActions(QMainWindow* window) : QObject(window), m_window(window) {
    m_menu = new QMenu(tr("&Train"), window);
    m_dashboard = m_menu->addAction(tr("Training &Dashboard"), QKeySequence(tr("Ctrl+Shift+T")), this,
                                    &TrainActions::showDashboard);
    m_menu->addSeparator();
    m_start = m_menu->addAction(tr("&Start Training"), this, [this] {
        showDashboard();
        QString error;
        if (m_panel && !m_panel->start(&error))
            QMessageBox::warning(m_window, tr("Training"), error);
    });
    m_stop = m_menu->addAction(tr("S&top Training"), this, [this] {
        if (m_panel)
            m_panel->stop();
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
    if (watched == m_window && event->type() == QEvent::Close && m_panel && m_panel->isRunning()) {
        const auto answer = QMessageBox::question(
            m_window, tr("Training in progress"),
            tr("A training run is in progress. Stop it now? The trainer finishes the current batch and saves "
               "last.pt, so the run can be resumed later."),
            QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Yes) {
            event->ignore();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace osprey::ui
