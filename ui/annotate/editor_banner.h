#pragma once
// EditorBanner: the strip above the canvas that says when edits are not being stored. A read-only project
// (its folder cannot be written) says so once, in place of failing on every edit. Edits the database
// refused (disk full, another program holding the project) are counted with the reason and a Retry
// button; the session keeps them and retries by itself. Hidden while everything is stored. GUI thread
// only.

#include <QFrame>

class QLabel;
class QPushButton;

namespace osprey::ui {

class AnnotationSession;

class EditorBanner : public QFrame {
    Q_OBJECT
public:
    explicit EditorBanner(AnnotationSession* session, QWidget* parent = nullptr);

    /// Re-reads the session's state (called when the project changes).
    void refresh();
    /// The text shown (empty when hidden).
    QString text() const;
    QPushButton* retryButton() const { return m_retry; }

private:
    AnnotationSession* m_session;
    QLabel* m_text;
    QPushButton* m_retry;
};

} // namespace osprey::ui
