#include "ui/remote/platform_settings_dialog.h"

#include "remote/platform_client.h"
#include "remote/platform_settings.h"
#include "ui/common/background_task.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QVariantMap>
#include <cstdlib>

namespace osprey::ui {

namespace {

QString fromStd(const std::string& text) {
    return QString::fromStdString(text);
}

bool envSet(const char* name) {
    const char* value = std::getenv(name);
    return value && *value;
}

// The spec's precedence (environment, then the store, then the default) over a given store; core's
// resolveSettings() always reads the default store, which a test must never touch.
remote::PlatformSettings effectiveSettings(const remote::CredentialStore& store) {
    remote::PlatformSettings settings;
    if (envSet(remote::kApiKeyEnv)) {
        settings.apiKey = std::getenv(remote::kApiKeyEnv);
        settings.keySource = remote::SettingSource::Environment;
    }
    if (const auto stored = store.load()) {
        if (settings.apiKey.empty() && !stored->apiKey.empty()) {
            settings.apiKey = stored->apiKey;
            settings.keySource = stored->keySource;
        }
        if (!stored->baseUrl.empty()) {
            settings.baseUrl = remote::trimBaseUrl(stored->baseUrl);
            settings.urlSource = remote::SettingSource::SettingsFile;
        }
    }
    if (envSet(remote::kPlatformUrlEnv)) {
        settings.baseUrl = remote::trimBaseUrl(std::getenv(remote::kPlatformUrlEnv));
        settings.urlSource = remote::SettingSource::Environment;
    }
    return settings;
}

QString whereStored(remote::SettingSource source) {
    switch (source) {
    case remote::SettingSource::Environment:
        return PlatformSettingsDialog::tr("from the ULTRALYTICS_API_KEY environment variable");
    case remote::SettingSource::Keychain:
        return PlatformSettingsDialog::tr("stored in the OS keychain");
    case remote::SettingSource::SettingsFile:
        return PlatformSettingsDialog::tr("stored in the settings file (readable only by you)");
    case remote::SettingSource::None:
    case remote::SettingSource::Default:
        break;
    }
    return {};
}

} // namespace

PlatformSettingsDialog::PlatformSettingsDialog(remote::CredentialStore store, QWidget* parent)
    : QDialog(parent), m_store(std::move(store)), m_task(new BackgroundTask(this)) {
    setObjectName(QStringLiteral("platformSettings"));
    setWindowTitle(tr("Platform Settings"));
    auto* intro = new QLabel(tr("Stream training runs to a platform dashboard (Ultralytics Platform or a "
                                "compatible server) and upload the trained weights there. Create an API "
                                "key in the platform's settings and paste it here."),
                             this);
    intro->setWordWrap(true);
    m_urlEdit = new QLineEdit(this);
    m_urlEdit->setObjectName(QStringLiteral("platformUrl"));
    m_urlEdit->setPlaceholderText(QString::fromLatin1(remote::kDefaultPlatformUrl));
    m_urlEdit->setToolTip(tr("The platform's address. Empty uses %1.").arg(remote::kDefaultPlatformUrl));
    m_keyLabel = new QLabel(tr("Reading the stored key…"), this);
    m_keyLabel->setObjectName(QStringLiteral("storedKey"));
    m_keyLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_keyEdit = new QLineEdit(this);
    m_keyEdit->setObjectName(QStringLiteral("newKey"));
    m_keyEdit->setEchoMode(QLineEdit::Password);
    m_keyEdit->setPlaceholderText(tr("paste a new key (ul_…) to replace the stored one"));
    m_keyEdit->setToolTip(tr("The key is stored in the OS keychain where one runs, otherwise in a settings "
                             "file only you can read. It is never shown or logged in clear."));
    m_envNote = new QLabel(this);
    m_envNote->setWordWrap(true);
    m_envNote->setStyleSheet(QStringLiteral("color: #ffc14d;"));
    m_envNote->hide();
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("platformResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* form = new QFormLayout;
    form->addRow(tr("Platform URL"), m_urlEdit);
    form->addRow(tr("API key"), m_keyLabel);
    form->addRow(QString(), m_keyEdit);
    m_test = new QPushButton(tr("Test"), this);
    m_test->setObjectName(QStringLiteral("testKey"));
    m_test->setToolTip(tr("Ask the platform whose key this is (the typed key, or else the stored one)."));
    m_remove = new QPushButton(tr("Remove Key"), this);
    m_remove->setObjectName(QStringLiteral("removeKey"));
    m_remove->setToolTip(tr("Delete the stored key from this computer."));
    m_save = new QPushButton(tr("Save"), this);
    m_save->setObjectName(QStringLiteral("saveKey"));
    auto* actions = new QHBoxLayout;
    actions->addWidget(m_test);
    actions->addWidget(m_remove);
    actions->addStretch(1);
    actions->addWidget(m_save);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_envNote);
    layout->addLayout(actions);
    layout->addWidget(m_result);
    layout->addWidget(close);
    setMinimumWidth(580);

    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_test, &QPushButton::clicked, this, &PlatformSettingsDialog::testKey);
    connect(m_save, &QPushButton::clicked, this, &PlatformSettingsDialog::save);
    connect(m_remove, &QPushButton::clicked, this, [this] { removeKey(true); });
    connect(m_task, &BackgroundTask::finished, this, &PlatformSettingsDialog::onFinished);
    connect(m_keyEdit, &QLineEdit::textChanged, this, &PlatformSettingsDialog::updateButtons);
    reload();
}

PlatformSettingsDialog::~PlatformSettingsDialog() {
    // A test request may take up to its timeout; the job only touches copies, so waiting is safe.
    m_task->wait();
}

bool PlatformSettingsDialog::isBusy() const {
    return m_task->isRunning();
}

void PlatformSettingsDialog::run(const QString& operation, const std::function<TaskResult()>& job) {
    if (m_task->isRunning())
        return;
    m_operation = operation;
    m_task->start([job](TaskContext&) { return job(); });
    updateButtons();
}

void PlatformSettingsDialog::reload() {
    const remote::CredentialStore store = m_store;
    run(QStringLiteral("load"), [store] {
        const remote::PlatformSettings settings = effectiveSettings(store);
        QVariantMap value;
        value[QStringLiteral("masked")] =
            settings.apiKey.empty() ? QString() : fromStd(remote::maskKey(settings.apiKey));
        value[QStringLiteral("keySource")] = int(settings.keySource);
        value[QStringLiteral("url")] =
            settings.urlSource == remote::SettingSource::Default ? QString() : fromStd(settings.baseUrl);
        value[QStringLiteral("envKey")] = envSet(remote::kApiKeyEnv);
        value[QStringLiteral("envUrl")] = envSet(remote::kPlatformUrlEnv);
        return TaskResult{value, {}};
    });
}

void PlatformSettingsDialog::testKey() {
    const remote::CredentialStore store = m_store;
    const std::string typed = m_keyEdit->text().trimmed().toStdString();
    const std::string url = m_urlEdit->text().trimmed().toStdString();
    showResult(tr("Asking the platform…"), Outcome::Pending);
    run(QStringLiteral("test"), [store, typed, url] {
        remote::PlatformSettings settings = effectiveSettings(store);
        if (!typed.empty())
            settings.apiKey = typed;
        if (!url.empty())
            settings.baseUrl = remote::trimBaseUrl(url);
        if (settings.apiKey.empty())
            return TaskResult{{}, tr("There is no key to test: paste one above.")};
        remote::ClientOptions options;
        options.timeout = std::chrono::milliseconds(15000);
        remote::PlatformClient client(settings, options);
        const remote::HttpResponse response = client.accountSummary();
        if (response.transport == remote::Transport::Ok && (response.status == 401 || response.status == 403))
            return TaskResult{{},
                              tr("Key rejected (%1): the platform does not accept this key. Check that "
                                 "the whole key was copied, or create a new one.")
                                  .arg(response.status)};
        if (response.transport != remote::Transport::Ok || response.status != 200)
            return TaskResult{{},
                              tr("The platform at %1 could not check the key: %2")
                                  .arg(fromStd(settings.baseUrl), fromStd(remote::describe(response)))};
        const QJsonObject body = QJsonDocument::fromJson(QByteArray::fromStdString(response.body)).object();
        const QString username = body.value(QLatin1String("username")).toString();
        if (username.isEmpty())
            return TaskResult{{},
                              tr("The platform at %1 answered, but not with an account; is this the "
                                 "right URL?")
                                  .arg(fromStd(settings.baseUrl))};
        return TaskResult{username, {}};
    });
}

void PlatformSettingsDialog::save() {
    const QString urlText = m_urlEdit->text().trimmed();
    if (!urlText.isEmpty()) {
        const QUrl parsed(urlText);
        if (!parsed.isValid() || parsed.host().isEmpty() ||
            (parsed.scheme() != QLatin1String("https") && parsed.scheme() != QLatin1String("http"))) {
            showResult(
                tr("The platform URL must be an https:// address, e.g. %1.").arg(remote::kDefaultPlatformUrl),
                Outcome::Bad);
            return;
        }
    }
    const remote::CredentialStore store = m_store;
    const std::string typed = m_keyEdit->text().trimmed().toStdString();
    const std::string url = urlText.toStdString();
    run(QStringLiteral("save"), [store, typed, url] {
        const auto stored = store.load();
        const std::string key = !typed.empty() ? typed : stored ? stored->apiKey : std::string();
        // Without any key only the URL is written, to the file: an empty secret has no place in a keychain.
        const remote::CredentialStore target =
            key.empty()
                ? remote::CredentialStore(store.settingsFile().parent_path(), remote::KeychainUse::Never)
                : store;
        const auto where = target.save(key, url);
        if (!where)
            return TaskResult{{}, tr("The settings could not be saved: %1").arg(fromStd(where.message()))};
        QVariantMap value;
        value[QStringLiteral("typed")] = !typed.empty();
        value[QStringLiteral("where")] = int(where.value());
        value[QStringLiteral("shaped")] = typed.empty() || remote::looksLikeApiKey(typed);
        return TaskResult{value, {}};
    });
}

void PlatformSettingsDialog::removeKey(bool confirm) {
    if (confirm && QMessageBox::question(this, tr("Remove API key"),
                                         tr("Remove the stored platform key from this computer? Runs can "
                                            "no longer stream until a key is stored again."),
                                         QMessageBox::Yes | QMessageBox::Cancel,
                                         QMessageBox::Cancel) != QMessageBox::Yes)
        return;
    const remote::CredentialStore store = m_store;
    run(QStringLiteral("remove"), [store] {
        if (const Status removed = store.remove(); !removed)
            return TaskResult{{}, tr("The key could not be removed: %1").arg(fromStd(removed.message()))};
        return TaskResult{};
    });
}

void PlatformSettingsDialog::onFinished(const TaskResult& result) {
    const QString operation = std::exchange(m_operation, QString());
    if (operation == QLatin1String("load")) {
        const QVariantMap value = result.value.toMap();
        m_masked = value.value(QStringLiteral("masked")).toString();
        const auto source = remote::SettingSource(value.value(QStringLiteral("keySource")).toInt());
        m_keyLabel->setText(m_masked.isEmpty() ? tr("no key stored")
                                               : tr("%1 (%2)").arg(m_masked, whereStored(source)));
        m_urlEdit->setText(value.value(QStringLiteral("url")).toString());
        QStringList notes;
        if (value.value(QStringLiteral("envKey")).toBool())
            notes << tr(
                "ULTRALYTICS_API_KEY is set in the environment; it takes precedence over a stored key.");
        if (value.value(QStringLiteral("envUrl")).toBool())
            notes << tr(
                "ULTRALYTICS_PLATFORM_URL is set in the environment; it takes precedence over the URL "
                "saved here.");
        m_envNote->setText(notes.join(QLatin1Char('\n')));
        m_envNote->setVisible(!notes.isEmpty());
    } else if (operation == QLatin1String("test")) {
        if (result.ok())
            showResult(tr("The key works: signed in as %1.").arg(result.value.toString()), Outcome::Good);
        else
            showResult(result.error, Outcome::Bad);
    } else if (operation == QLatin1String("save")) {
        if (result.ok()) {
            const QVariantMap value = result.value.toMap();
            const auto where = remote::SettingSource(value.value(QStringLiteral("where")).toInt());
            QString text = value.value(QStringLiteral("typed")).toBool()
                               ? tr("Key saved, %1.").arg(whereStored(where))
                               : tr("Platform URL saved.");
            if (!value.value(QStringLiteral("shaped")).toBool())
                text += QLatin1Char(' ') + tr("It does not look like a platform key (ul_ and 40 hex digits); "
                                              "use Test to check it.");
            showResult(text, Outcome::Good);
            m_keyEdit->clear();
        } else {
            showResult(result.error, Outcome::Bad);
        }
    } else if (operation == QLatin1String("remove")) {
        showResult(result.ok() ? tr("Key removed.") : result.error,
                   result.ok() ? Outcome::Good : Outcome::Bad);
    }
    updateButtons();
    if (operation == QLatin1String("save") || operation == QLatin1String("remove"))
        reload();
    emit operationFinished(operation);
}

void PlatformSettingsDialog::showResult(const QString& text, Outcome outcome) {
    m_result->setText(text);
    m_result->setStyleSheet(outcome == Outcome::Good  ? QStringLiteral("color: #2eb872; font-weight: bold;")
                            : outcome == Outcome::Bad ? QStringLiteral("color: #ff6b6b; font-weight: bold;")
                                                      : QStringLiteral("color: #8a8f98;"));
}

void PlatformSettingsDialog::updateButtons() {
    const bool busy = m_task->isRunning();
    m_test->setEnabled(!busy && (!m_masked.isEmpty() || !m_keyEdit->text().trimmed().isEmpty()));
    m_save->setEnabled(!busy);
    m_remove->setEnabled(!busy && !m_masked.isEmpty());
}

} // namespace osprey::ui
