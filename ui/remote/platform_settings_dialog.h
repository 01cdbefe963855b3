#pragma once
// PlatformSettingsDialog: Settings → Platform. Shows the platform URL and the stored API key, masked
// (the key itself never reaches a widget or a log), tests the key against /api/account/summary,
// stores a new key (OS keychain or the 0600 settings file, through core/remote's CredentialStore) and
// removes it. Every store and network call runs on a worker thread; the GUI only ever holds the masked
// key. GUI thread only.

#include "remote/credential_store.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace osprey::ui {

class BackgroundTask;
struct TaskResult;

class PlatformSettingsDialog : public QDialog {
    Q_OBJECT
public:
    /// `store` says where keys live; tests pass one on a temporary folder with KeychainUse::Never.
    explicit PlatformSettingsDialog(remote::CredentialStore store = remote::CredentialStore(),
                                    QWidget* parent = nullptr);
    ~PlatformSettingsDialog() override;

    /// Re-reads the stored settings (on the worker).
    void reload();
    /// Checks the typed key, or else the effective one, against the URL in the field.
    void testKey();
    /// Stores the typed key (when one was typed) and the URL.
    void save();
    /// Removes the stored key (after a confirmation unless `confirm` is false).
    void removeKey(bool confirm = true);
    bool isBusy() const;

    /// The masked key shown ("ul_****abcd"), empty when none is stored.
    QString maskedKey() const { return m_masked; }
    QLineEdit* keyEdit() const { return m_keyEdit; }
    QLineEdit* urlEdit() const { return m_urlEdit; }
    /// The latest outcome: "Signed in as …", the failure and its reason, "Key stored in …".
    QLabel* resultLabel() const { return m_result; }
    QLabel* keyLabel() const { return m_keyLabel; }

signals:
    /// A reload, test, save or remove finished (`operation` is "load", "test", "save" or "remove").
    void operationFinished(const QString& operation);

private:
    void run(const QString& operation, const std::function<TaskResult()>& job);
    void onFinished(const TaskResult& result);
    enum class Outcome { Pending, Good, Bad };
    void showResult(const QString& text, Outcome outcome);
    void updateButtons();

    remote::CredentialStore m_store;
    BackgroundTask* m_task;
    QString m_operation;
    QString m_masked;
    QLabel* m_keyLabel;
    QLabel* m_envNote;
    QLineEdit* m_keyEdit;
    QLineEdit* m_urlEdit;
    QLabel* m_result;
    QPushButton* m_test;
    QPushButton* m_save;
    QPushButton* m_remove;
};

} // namespace osprey::ui
