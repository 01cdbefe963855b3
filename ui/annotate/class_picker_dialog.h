#pragma once
// ClassPickerDialog: Ctrl+E. A search field over the class list; typing filters (case-insensitive
// substring), arrows move, Enter picks the highlighted class.

#include <QDialog>

class QLineEdit;
class QListWidget;

namespace osprey::ui {

class ProjectDocument;

class ClassPickerDialog : public QDialog {
    Q_OBJECT
public:
    ClassPickerDialog(ProjectDocument* document, std::int64_t currentClassId, QWidget* parent = nullptr);
    /// The picked class (0 when none).
    std::int64_t classId() const;
    QLineEdit* searchField() const { return m_search; }
    /// Number of classes shown for the current search.
    int visibleCount() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void filter(const QString& text);

    QLineEdit* m_search;
    QListWidget* m_list;
};

} // namespace osprey::ui
