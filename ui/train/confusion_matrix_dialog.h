#pragma once
// ConfusionMatrixDialog: the confusion matrix of a run's validation at any epoch (from
// <run>/validation.jsonl): rows are the labelled classes, columns the detected ones, background last,
// as counts or normalised per row (per labelled class). Clicking a cell asks for the images behind it,
// which the editor opens as a queue. The file is read off the GUI thread. GUI thread only.

#include "run/val_results.h"

#include <QDialog>

#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QTableWidget;

namespace osprey::ui {

class BackgroundTask;

class ConfusionMatrixDialog : public QDialog {
    Q_OBJECT
public:
    /// Shows the run in `runDir` at `shownEpoch` (0: the last validated epoch); `loaded` follows.
    ConfusionMatrixDialog(const QString& runDir, int shownEpoch, QWidget* parent = nullptr);
    ~ConfusionMatrixDialog() override;

    QTableWidget* table() const { return m_table; }
    QComboBox* epochChoice() const { return m_epoch; }
    QCheckBox* normalised() const { return m_normalised; }
    /// The epoch shown (0 before the file was read).
    int epoch() const;
    /// The text of the cell (labelled `actual`, detected `detected`); background is the class count.
    QString cellText(int actual, int detected) const;

signals:
    void loaded(bool ok);
    /// A cell was clicked: open its images (labelled `actual`, detected `detected`) in the editor.
    void cellRequested(const QString& runDir, int epoch, int detected, int actual);

private:
    void fill();

    QString m_runDir;
    int m_wanted;
    BackgroundTask* m_reading;
    std::vector<run::EpochValidation> m_epochs;
    QComboBox* m_epoch;
    QCheckBox* m_normalised;
    QLabel* m_note;
    QTableWidget* m_table;
};

} // namespace osprey::ui
