#pragma once
// SplitDialog: re-splits the project into train/val/test, seeded and stratified by class; images with
// identical content stay together and locked images stay where they are. Shows the plan, then applies it.

#include <QDialog>

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace osprey::ui {

class BackgroundTask;
class ProjectDocument;
struct TaskResult;

class SplitDialog : public QDialog {
    Q_OBJECT
public:
    SplitDialog(ProjectDocument* document, QWidget* parent = nullptr);
    void setFractions(double train, double val, double test, int seed);
    void runSplit();
    bool isBusy() const;
    QString resultText() const;

private:
    void onFinished(const TaskResult& result);

    ProjectDocument* m_document;
    QDoubleSpinBox* m_train;
    QDoubleSpinBox* m_val;
    QDoubleSpinBox* m_test;
    QSpinBox* m_seed;
    QLabel* m_status;
    QPushButton* m_apply;
    BackgroundTask* m_task;
};

} // namespace osprey::ui
