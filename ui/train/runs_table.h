#pragma once
// RunsTable: the project's runs (name, status, model, epochs, best mAP50-95, dataset snapshot, duration) with
// "Show Charts" / "Compare N Runs" and "Resume". It only lists and asks: opening, comparing and resuming are
// the panel's. GUI thread only.

#include "project/types.h"

#include <QStringList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace osprey::ui {

class ProjectDocument;

class RunsTable : public QWidget {
    Q_OBJECT
public:
    enum Column {
        ColumnName,
        ColumnStatus,
        ColumnModel,
        ColumnEpochs,
        ColumnBest,
        ColumnSnapshot, ///< the first 12 digits of the dataset snapshot hash; the tooltip holds all 64
        ColumnDuration,
        ColumnCount
    };

    explicit RunsTable(ProjectDocument* document, QWidget* parent = nullptr);

    /// Re-reads the project's runs table.
    void reload();
    /// The runs selected, in table order; the first of them.
    QStringList selectedRuns() const;
    QString selectedRun() const;
    /// Resume is offered for one selected stopped run, Retrain for one selected run, while nothing trains.
    void setTraining(bool training);
    QTableWidget* table() const { return m_table; }

    /// The localised name of a run status, as the Status column shows it.
    static QString statusName(project::RunStatus status);

signals:
    /// Show Charts (or a double-click): one name shows the run, several compare them.
    void openRequested(const QStringList& names);
    void resumeRequested(const QString& name);
    void retrainRequested(const QString& name);

private:
    void updateButtons();

    ProjectDocument* m_document;
    QTableWidget* m_table;
    QLabel* m_empty;
    QPushButton* m_open;
    QPushButton* m_resume;
    QPushButton* m_retrain;
    bool m_training = false;
};

} // namespace osprey::ui
