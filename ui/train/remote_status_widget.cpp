#include "ui/train/remote_status_widget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>

namespace osprey::ui {

namespace {

QString megabytes(qint64 bytes) {
    return QString::number(double(bytes) / (1024.0 * 1024.0), 'f', 1);
}

QString toneStyle(RemoteStatusWidget::Tone tone) {
    // A pill with a tinted background: readable on the dark theme, the colour says good/busy/bad.
    const char* colors = tone == RemoteStatusWidget::Tone::Good   ? "#2eb872; background: #1f3a2c"
                         : tone == RemoteStatusWidget::Tone::Busy ? "#ffc14d; background: #3d3320"
                         : tone == RemoteStatusWidget::Tone::Bad  ? "#ff6b6b; background: #452426"
                                                                  : "#b0b4bb; background: #2c2f35";
    return QStringLiteral("QLabel { color: %1; border-radius: 9px; padding: 2px 10px; font-weight: bold; }")
        .arg(QLatin1String(colors));
}

} // namespace

RemoteStatusWidget::RemoteStatusWidget(QWidget* parent) : QWidget(parent) {
    m_badge = new QLabel(this);
    m_badge->setObjectName(QStringLiteral("remoteBadge"));
    m_link = new QLabel(this);
    m_link->setObjectName(QStringLiteral("remoteDashboardLink"));
    m_link->setTextFormat(Qt::RichText);
    m_link->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_link->setOpenExternalLinks(true);
    m_upload = new QProgressBar(this);
    m_upload->setObjectName(QStringLiteral("remoteUpload"));
    m_upload->setRange(0, 1000);
    m_upload->setTextVisible(true);
    m_upload->setMinimumWidth(300);
    m_upload->setMaximumWidth(380);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_badge);
    layout->addWidget(m_link);
    layout->addStretch(1);
    layout->addWidget(m_upload);
    setState({});
}

QString RemoteStatusWidget::badgeText(const TrainingRunModel::RemoteState& s) {
    if (!s.valid)
        return {};
    QString text;
    if (s.state == QLatin1String("connecting")) {
        text = tr("Platform: connecting…");
    } else if (s.state == QLatin1String("connected")) {
        text = tr("Platform: connected");
        if (s.queued > 0)
            text += tr(" · %1 queued").arg(s.queued);
    } else if (s.state == QLatin1String("retrying")) {
        text = s.error.isEmpty() ? tr("Platform: unreachable, retrying")
                                 : tr("Platform: unreachable (%1), retrying").arg(s.error);
        text += tr(" · %1 queued").arg(s.queued);
    } else if (s.state == QLatin1String("unauthorized")) {
        text = tr("Platform: key rejected (401) · reporting stopped");
    } else if (s.state == QLatin1String("finished")) {
        text = s.queued > 0 ? tr("Platform: done · %1 still queued").arg(s.queued)
                            : tr("Platform: done · %1 delivered").arg(s.delivered);
    } else if (s.state == QLatin1String("off")) {
        text = s.error.isEmpty() ? tr("Platform: off") : tr("Platform: off (%1)").arg(s.error);
    } else {
        text = tr("Platform: %1").arg(s.state);
    }
    if (s.failed > 0)
        text += tr(" · %1 rejected").arg(s.failed);
    if (s.cancelled)
        text += tr(" · cancelled on the platform");
    return text;
}

QString RemoteStatusWidget::adviceText(const TrainingRunModel::RemoteState& s) {
    if (!s.valid)
        return {};
    const QString reason = s.error.isEmpty() ? QString() : tr("Last error: %1\n").arg(s.error);
    if (s.state == QLatin1String("unauthorized"))
        return reason + tr("The platform did not accept the API key. Training goes on locally; "
                           "check or replace the key in Settings → Platform, then send the queued "
                           "events with: osprey-cli remote sync project=<project folder>");
    if (s.state == QLatin1String("retrying"))
        return reason + tr("Events are kept in the project's outbox and sent, in order, when the "
                           "platform answers again. Nothing is lost.");
    if (s.state == QLatin1String("finished") && s.queued > 0)
        return reason + tr("The queued events stay in the project's outbox; send them later with: "
                           "osprey-cli remote sync project=<project folder>");
    if (s.cancelled)
        return tr("The run was cancelled on the platform: training stops at the end of the epoch, then "
                  "uploads its weights.");
    if (s.failed > 0)
        return reason + tr("The platform rejected some events; they are not retried.");
    return reason.trimmed();
}

RemoteStatusWidget::Tone RemoteStatusWidget::tone(const TrainingRunModel::RemoteState& s) {
    if (s.state == QLatin1String("unauthorized") || s.failed > 0)
        return Tone::Bad;
    if (s.state == QLatin1String("connected"))
        return Tone::Good; // a short queue is normal while streaming
    if (s.state == QLatin1String("finished"))
        return s.queued > 0 ? Tone::Busy : Tone::Good;
    if (s.state == QLatin1String("connecting") || s.state == QLatin1String("retrying"))
        return Tone::Busy;
    return s.error.isEmpty() ? Tone::Neutral : Tone::Bad;
}

void RemoteStatusWidget::setState(const TrainingRunModel::RemoteState& s) {
    const bool shown = s.valid && !(s.state == QLatin1String("off") && s.error.isEmpty());
    setVisible(shown);
    if (!shown)
        return;
    m_badge->setText(badgeText(s));
    m_badge->setToolTip(adviceText(s));
    m_badge->setStyleSheet(toneStyle(tone(s)));
    if (s.dashboardUrl.isEmpty()) {
        m_link->hide();
    } else {
        m_link->setText(QStringLiteral("<a href=\"%1\">%2</a>")
                            .arg(s.dashboardUrl.toHtmlEscaped(), tr("Open the run on the platform ↗")));
        m_link->setToolTip(s.dashboardUrl);
        m_link->show();
    }
    if (s.uploadTotalBytes > 0) {
        const qint64 sent = std::min(s.uploadSentBytes, s.uploadTotalBytes);
        m_upload->setValue(int(sent * 1000 / s.uploadTotalBytes));
        if (s.uploading)
            m_upload->setFormat(
                tr("Uploading weights: %1 / %2 MB").arg(megabytes(sent), megabytes(s.uploadTotalBytes)));
        else if (sent < s.uploadTotalBytes)
            m_upload->setFormat(tr("Upload interrupted at %1 / %2 MB; it is retried")
                                    .arg(megabytes(sent), megabytes(s.uploadTotalBytes)));
        else
            m_upload->setFormat(tr("Weights uploaded: %1 MB").arg(megabytes(s.uploadTotalBytes)));
        m_upload->show();
    } else if (s.uploading) {
        m_upload->setValue(0);
        m_upload->setFormat(tr("Uploading weights…"));
        m_upload->show();
    } else {
        m_upload->hide();
    }
}

} // namespace osprey::ui
