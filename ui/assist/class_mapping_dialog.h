#pragma once
// ClassMappingDialog: edits how a model's classes map to the project's classes for auto-label. One row per
// model class with a combo box: a project class, "(ignore)", or "(add as new class)" when the project has
// no class of that name. It starts from mapClassesByName (the mapping saved for this model, else the match
// by name, case-insensitive) and OK saves it with saveClassMapping under the model key that
// `osprey-cli autolabel` uses (the model's file name), so the CLI and the GUI share it. Only the rows that
// differ from the match by name, or that the user changed, are saved: a class left unmapped without a
// choice can still be added by add_classes=true. The model's class names are read off the GUI thread
// (opening the model may take a second). GUI thread only.

#include "assist/box_predictor.h"

#include <QDialog>
#include <QPointer>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

class QLabel;
class QLineEdit;
class QComboBox;
class QDialogButtonBox;
class QTableWidget;

namespace osprey::ui {

class BackgroundTask;
class ProjectDocument;
struct TaskResult;

class ClassMappingDialog : public QDialog {
    Q_OBJECT
public:
    /// What a model class maps to, besides a project class id (>= 1).
    static constexpr qint64 kIgnore = -1;
    static constexpr qint64 kAddClass = -2;

    ClassMappingDialog(ProjectDocument* document, const assist::ModelSource& model,
                       QWidget* parent = nullptr);
    ~ClassMappingDialog() override;

    /// The key a mapping is saved under for `model` (its file name), as osprey-cli autolabel uses it.
    static std::string modelKey(const assist::ModelSource& model);

    /// True while the model's class names are being read.
    bool isLoading() const;
    /// The model's class names (empty until loaded, or when loading failed).
    const QStringList& modelClasses() const { return m_names; }
    /// The error shown when the model could not be read (empty otherwise).
    QString errorText() const { return m_error; }
    /// The combo box of model class `row` (null when out of range).
    QComboBox* choiceBox(int row) const;
    /// The choice for model class `row`: a project class id, kIgnore or kAddClass.
    qint64 choice(int row) const;

public slots:
    /// Saves the mapping (adding the classes marked "add as new class") and closes; stays open on error.
    void accept() override;
    /// Sets every row back to the match by name, ignoring the saved mapping.
    void resetToNames();

signals:
    /// The class names were read and the table filled, or loading failed (errorText()).
    void loaded();

private:
    void onLoaded(const TaskResult& result);
    void fill(const std::vector<std::optional<std::int64_t>>& projectClassIds);
    void updateSummary();
    /// Shows only the rows whose model class or choice contains the filter text.
    void applyFilter();
    std::vector<std::string> names() const;

    QPointer<ProjectDocument> m_document; ///< null once the project closed
    assist::ModelSource m_model;
    BackgroundTask* m_task;
    QLabel* m_status;
    QLineEdit* m_filter;
    QTableWidget* m_table;
    QDialogButtonBox* m_buttons;
    QStringList m_names;
    std::vector<std::optional<std::int64_t>> m_byName; ///< the match by name, without the saved mapping
    std::vector<bool> m_touched;                       ///< rows the user changed since the last fill

    QString m_error;
};

} // namespace osprey::ui
