#include "ui/annotate/editor_banner.h"

#include "ui/annotate/annotation_session.h"
#include "ui/project/project_document.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace osprey::ui {

EditorBanner::EditorBanner(AnnotationSession* session, QWidget* parent)
    : QFrame(parent), m_session(session), m_text(new QLabel(this)),
      m_retry(new QPushButton(tr("Retry"), this)) {
    setObjectName("editorBanner");
    setFrameShape(QFrame::StyledPanel);
    // Amber, as a warning that is not an error dialog: the work goes on.
    setStyleSheet("#editorBanner { background: #fff3cd; border: 1px solid #e0b252; } "
                  "#editorBanner QLabel { color: #533f03; }");
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_retry);
    connect(m_retry, &QPushButton::clicked, m_session, &AnnotationSession::retryUnsaved);
    connect(m_session, &AnnotationSession::unsavedChanged, this, &EditorBanner::refresh);
    refresh();
}

QString EditorBanner::text() const {
    return isHidden() ? QString() : m_text->text();
}

void EditorBanner::refresh() {
    const ProjectDocument* document = m_session->document();
    const int unsaved = m_session->unsavedCount();
    QString text;
    if (document && document->readOnly()) {
        text = tr("This project is read-only: its folder cannot be written. You can look at it, but "
                  "edits are not stored.");
    } else if (unsaved > 0) {
        const QString& code = m_session->unsavedCode();
        const bool one = unsaved == 1;
        if (code == QLatin1String("busy"))
            text =
                one ? tr("1 edit not saved yet: another program is writing to this project (an import or "
                         "auto-label run?). It is kept and saved as soon as that has finished.")
                    : tr("%1 edits not saved yet: another program is writing to this project (an import or "
                         "auto-label run?). They are kept and saved as soon as that has finished.")
                          .arg(unsaved);
        else if (code == QLatin1String("full"))
            text = one ? tr("1 edit could not be saved: the disk is full. It is kept: free some space, then "
                            "press Retry.")
                       : tr("%1 edits could not be saved: the disk is full. They are kept: free some space, "
                            "then press Retry.")
                             .arg(unsaved);
        else
            text = one ? tr("1 edit could not be saved: %1. It is kept: press Retry to save it.")
                             .arg(m_session->unsavedReason())
                       : tr("%1 edits could not be saved: %2. They are kept: press Retry to save them.")
                             .arg(unsaved)
                             .arg(m_session->unsavedReason());
    }
    m_text->setText(text);
    m_retry->setVisible(unsaved > 0);
    setToolTip(unsaved > 0 ? m_session->unsavedReason() : QString());
    setVisible(!text.isEmpty());
}

} // namespace osprey::ui
