#include "ui/project/dataset_actions.h"

#include "ui/project/export_dialog.h"
#include "ui/project/health_panel.h"
#include "ui/project/import_dialog.h"
#include "ui/project/project_document.h"
#include "ui/project/split_dialog.h"
#include "ui/project/statistics_panel.h"
#include "ui/project/video_import_dialog.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

namespace osprey::ui {

DatasetActions::DatasetActions(QMainWindow* window) : QObject(window), m_window(window) {
    m_menu = new QMenu(tr("&Dataset"), window);
    m_menu->addAction(tr("&Import…"), QKeySequence(tr("Ctrl+I")), this, &DatasetActions::openImport);
    m_menu->addAction(tr("Import &Videos…"), this, &DatasetActions::openVideoImport);
    m_menu->addAction(tr("&Export…"), QKeySequence(tr("Ctrl+Shift+E")), this, &DatasetActions::openExport);
    m_menu->addAction(tr("&Split…"), this, &DatasetActions::openSplit);
    m_menu->addSeparator();
    m_menu->addAction(tr("&Health Check"), QKeySequence(tr("Ctrl+Shift+H")), this,
                      &DatasetActions::showHealth);
    m_menu->addAction(tr("S&tatistics"), this, &DatasetActions::showStatistics);
    m_healthDock = new QDockWidget(tr("Health"), window);
    m_healthDock->setObjectName("HealthDock");
    m_statisticsDock = new QDockWidget(tr("Statistics"), window);
    m_statisticsDock->setObjectName("StatisticsDock");
    for (QDockWidget* dock : {m_healthDock, m_statisticsDock}) {
        window->addDockWidget(Qt::RightDockWidgetArea, dock);
        dock->hide();
    }
    setDocument(nullptr);
}

void DatasetActions::setDocument(ProjectDocument* document) {
    m_document = document;
    for (QAction* action : m_menu->actions())
        action->setEnabled(document != nullptr);
    delete m_health;
    delete m_statistics;
    m_health = nullptr;
    m_statistics = nullptr;
    if (!document) {
        m_healthDock->hide();
        m_statisticsDock->hide();
    }
}

void DatasetActions::openImport() {
    if (!m_document)
        return;
    auto* dialog = new ImportDialog(m_document, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void DatasetActions::openVideoImport() {
    if (!m_document)
        return;
    auto* dialog = new VideoImportDialog(m_document, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void DatasetActions::openExport() {
    if (!m_document)
        return;
    auto* dialog = new ExportDialog(m_document, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void DatasetActions::openSplit() {
    if (!m_document)
        return;
    auto* dialog = new SplitDialog(m_document, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

void DatasetActions::showHealth() {
    if (!m_document)
        return;
    if (!m_health) {
        m_health = new HealthPanel(m_document, m_healthDock);
        connect(m_health, &HealthPanel::imageActivated, this, &DatasetActions::imageActivated);
        m_healthDock->setWidget(m_health);
    }
    m_healthDock->show();
    m_healthDock->raise();
    m_health->run();
}

void DatasetActions::showStatistics() {
    if (!m_document)
        return;
    if (!m_statistics) {
        m_statistics = new StatisticsPanel(m_document, m_statisticsDock);
        m_statisticsDock->setWidget(m_statistics);
    }
    m_statisticsDock->show();
    m_statisticsDock->raise();
}

} // namespace osprey::ui
