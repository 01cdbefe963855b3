#include "ui/main/main_window.h"

#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/class_panel.h"
#include "ui/annotate/editor_actions.h"
#include "ui/annotate/validation_queue.h"
#include "ui/main/language.h"
#include "ui/project/dataset_actions.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_panel.h"
#include "ui/project/project_document.h"
#include "ui/project/thumbnail_cache.h"
#include "ui/remote/platform_settings_dialog.h"
#include "ui/train/train_actions.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QListView>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QStyleFactory>

namespace osprey::ui {

namespace {
constexpr int kMaxRecent = 8;

/// A folder as a user reads it: under the home folder as ~/..., in the platform's separators.
QString shownPath(const QString& folder) {
    const QString home = QDir::homePath();
    const QString clean = QDir::cleanPath(folder);
    if (home != QLatin1String("/") && (clean == home || clean.startsWith(home + QLatin1Char('/'))))
        return QDir::toNativeSeparators(QLatin1Char('~') + clean.mid(home.size()));
    return QDir::toNativeSeparators(clean);
}
} // namespace

void applyTheme() {
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    QPalette palette;
    const QColor window(0x23, 0x25, 0x2a), base(0x1b, 0x1d, 0x21), text(0xe3, 0xe5, 0xe8),
        accent(0x3d, 0x8b, 0xfd);
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    palette.setColor(QPalette::Base, base);
    palette.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2d, 0x33));
    palette.setColor(QPalette::ToolTipBase, QColor(0x31, 0x34, 0x3a));
    palette.setColor(QPalette::ToolTipText, text);
    palette.setColor(QPalette::Text, text);
    palette.setColor(QPalette::Button, QColor(0x2c, 0x2f, 0x35));
    palette.setColor(QPalette::ButtonText, text);
    palette.setColor(QPalette::Highlight, accent.darker(140));
    palette.setColor(QPalette::HighlightedText, Qt::white);
    palette.setColor(QPalette::Link, accent);
    palette.setColor(QPalette::PlaceholderText, QColor(0x80, 0x85, 0x8c));
    palette.setColor(QPalette::Disabled, QPalette::Text, QColor(0x70, 0x74, 0x7a));
    palette.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x70, 0x74, 0x7a));
    palette.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x70, 0x74, 0x7a));
    QApplication::setPalette(palette);
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName("MainWindow");
    setWindowIcon(applicationIcon());
    m_editor = new AnnotationEditor(this);
    setCentralWidget(m_editor);
    m_actions = new EditorActions(m_editor, this);
    connect(m_editor, &AnnotationEditor::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 4000); });
    m_listDock = new QDockWidget(tr("Images"), this);
    m_listDock->setObjectName("ImagesDock");
    m_listDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::LeftDockWidgetArea, m_listDock);
    m_legendDock = new QDockWidget(tr("Classes"), this);
    m_legendDock->setObjectName("ClassesDock");
    m_legendDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    addDockWidget(Qt::RightDockWidgetArea, m_legendDock);
    m_dataset = new DatasetActions(this);
    connect(m_dataset, &DatasetActions::imageActivated, this, &MainWindow::showImage);
    m_train = new TrainActions(this);
    m_validationQueue = new ValidationQueue(m_editor->canvas(), m_editor->session(), this);
    connect(m_train, &TrainActions::worstImagesRequested, m_validationQueue,
            &ValidationQueue::openWorstImages);
    connect(m_train, &TrainActions::confusionCellRequested, m_validationQueue,
            &ValidationQueue::openConfusionCell);
    connect(m_train, &TrainActions::changedImagesRequested, this,
            [this](const QList<qint64>& imageIds, const QString& title) {
                if (!m_imageModel || imageIds.isEmpty())
                    return;
                m_imageModel->setImageOrder(std::vector<std::int64_t>(imageIds.begin(), imageIds.end()),
                                            title);
                m_imageList->selectRow(0);
            });
    connect(m_validationQueue, &ValidationQueue::message, this,
            [this](const QString& text) { statusBar()->showMessage(text, 4000); });
    createMenus();
    resize(1280, 800);
    QSettings settings;
    restoreGeometry(settings.value("window/geometry").toByteArray());
    restoreState(settings.value("window/state").toByteArray());
    updateTitle();
    statusBar()->showMessage(tr("Open a project to start"));
}

MainWindow::~MainWindow() {
    // Panels refer to the document; delete them first.
    closeProject();
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* newAction = file->addAction(tr("&New Project…"), this, &MainWindow::newProject);
    newAction->setShortcut(QKeySequence::New);
    QAction* openAction = file->addAction(tr("&Open Project…"), this, &MainWindow::chooseProject);
    openAction->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_closeAction = file->addAction(tr("&Close Project"), this, [this] {
        if (confirmUnsavedEdits())
            closeProject();
    });
    m_closeAction->setShortcut(QKeySequence::Close);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    menuBar()->addMenu(m_actions->editMenu());
    QMenu* view = m_actions->viewMenu();
    menuBar()->addMenu(view);
    view->addSeparator();
    view->addAction(m_listDock->toggleViewAction());
    view->addAction(m_legendDock->toggleViewAction());
    menuBar()->addMenu(m_actions->imageMenu());
    menuBar()->addMenu(m_actions->classMenu());
    menuBar()->addMenu(m_dataset->menu());
    menuBar()->addMenu(m_train->menu());

    QMenu* settingsMenu = menuBar()->addMenu(tr("&Settings"));
    settingsMenu->addAction(tr("&Platform…"), this, [this] {
        PlatformSettingsDialog dialog(remote::CredentialStore(), this);
        dialog.exec();
    });
    createLanguageMenu(settingsMenu);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_actions->cheatSheetAction());
    help->addAction(m_actions->shortcutsAction());
    help->addSeparator();
    help->addAction(tr("&About Osprey"), this, [this] {
        QMessageBox::about(
            this, tr("About Osprey"),
            tr("<b>Osprey %1</b><p>Label images, train YOLO detectors and watch them learn.</p>"
               "<p>Licensed under the GNU GPL v3 or later.</p>")
                .arg(QApplication::applicationVersion()));
    });
    rebuildRecentMenu();
}

void MainWindow::createLanguageMenu(QMenu* settingsMenu) {
    QMenu* menu = settingsMenu->addMenu(tr("&Language"));
    menu->setObjectName("LanguageMenu");
    auto* group = new QActionGroup(menu);
    // The languages are named in themselves, so that each reader finds their own.
    const std::pair<Language, QString> choices[] = {{Language::System, tr("System Language")},
                                                    {Language::English, QStringLiteral("English")},
                                                    {Language::Chinese, QStringLiteral("中文")}};
    for (const auto& [language, name] : choices) {
        QAction* action = menu->addAction(name);
        action->setCheckable(true);
        action->setChecked(language == languageSetting());
        action->setData(static_cast<int>(language));
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, language] {
            setLanguageSetting(language);
            statusBar()->showMessage(tr("The new language applies when Osprey starts again."));
        });
    }
}

bool MainWindow::openProject(const QString& folder, bool quiet) {
    if (!confirmUnsavedEdits())
        return false;
    QString error;
    auto document = ProjectDocument::open(folder, &error);
    if (!document) {
        if (!quiet)
            QMessageBox::critical(this, tr("Cannot open project"), error);
        statusBar()->showMessage(error);
        return false;
    }
    closeProject();
    m_document = std::move(document);
    m_thumbnails = new ThumbnailCache(m_document->cacheFolder(), 112, this);
    m_imageModel = new ImageListModel(m_document.get(), m_thumbnails, this);
    m_imageList = new ImageListPanel(m_document.get(), m_imageModel, m_listDock);
    m_listDock->setWidget(m_imageList);
    m_editor->setDocument(m_document.get(), m_imageList);
    m_validationQueue->setDocument(m_document.get(), m_imageList);
    m_classPanel = new ClassPanel(m_editor->session(), m_legendDock);
    m_legendDock->setWidget(m_classPanel);
    m_dataset->setDocument(m_document.get());
    m_train->setDocument(m_document.get());
    if (m_imageModel->rowCount() > 0)
        m_imageList->selectRow(0);
    addRecent(m_document->folder());
    updateTitle();
    const auto total = m_document->project().images().count();
    statusBar()->showMessage(tr("%1 — %2 images, %3 classes")
                                 .arg(shownPath(m_document->folder()))
                                 .arg(total ? *total : 0)
                                 .arg(m_document->classes().size()));
    return true;
}

void MainWindow::closeProject() {
    if (!m_document)
        return;
    m_dataset->setDocument(nullptr);
    m_train->setDocument(nullptr);
    m_validationQueue->setDocument(nullptr, nullptr);
    m_editor->setDocument(nullptr, nullptr);
    m_listDock->setWidget(nullptr);
    m_legendDock->setWidget(nullptr);
    delete m_imageList;
    delete m_classPanel;
    delete m_imageModel;
    if (m_thumbnails)
        m_thumbnails->waitForDone();
    delete m_thumbnails;
    m_imageList = nullptr;
    m_classPanel = nullptr;
    m_imageModel = nullptr;
    m_thumbnails = nullptr;
    m_document.reset();
    updateTitle();
}

void MainWindow::showImage(qint64 imageId) {
    if (!m_document)
        return;
    if (m_imageModel->hasImageOrder()) {
        if (const int ordered = m_imageModel->rowOfImage(imageId); ordered >= 0) {
            m_imageList->selectRow(ordered);
            return;
        }
        m_imageModel->clearImageOrder();
    }
    auto row = m_document->project().images().row(imageId, m_imageModel->filter());
    if (!row) {
        m_imageModel->setFilter({});
        row = m_document->project().images().row(imageId, m_imageModel->filter());
    }
    if (row)
        m_imageList->selectRow(static_cast<int>(*row));
}

void MainWindow::newProject() {
    const QString folder =
        QFileDialog::getExistingDirectory(this, tr("Choose an empty folder for the new project"));
    if (folder.isEmpty())
        return;
    QString error;
    if (!ProjectDocument::create(folder, &error)) {
        QMessageBox::critical(this, tr("Cannot create project"), error);
        return;
    }
    openProject(folder);
}

void MainWindow::chooseProject() {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open a project folder"));
    if (!folder.isEmpty())
        openProject(folder);
}

void MainWindow::addRecent(const QString& folder) {
    QSettings settings;
    QStringList recent = settings.value("recentProjects").toStringList();
    recent.removeAll(folder);
    recent.prepend(folder);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    settings.setValue("recentProjects", recent);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList recent = QSettings().value("recentProjects").toStringList();
    for (const QString& folder : recent) {
        QAction* action = m_recentMenu->addAction(QDir::toNativeSeparators(folder), this,
                                                  [this, folder] { openProject(folder); });
        action->setEnabled(QFileInfo::exists(QDir(folder).filePath("project.osprey")));
    }
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("No recent projects"))->setEnabled(false);
}

void MainWindow::updateTitle() {
    if (m_document && m_document->readOnly())
        setWindowTitle(tr("%1 (read-only) — Osprey").arg(m_document->displayName()));
    else
        setWindowTitle(m_document ? tr("%1 — Osprey").arg(m_document->displayName()) : tr("Osprey"));
    if (m_closeAction)
        m_closeAction->setEnabled(m_document != nullptr);
}

bool MainWindow::confirmUnsavedEdits() {
    if (!m_document)
        return true;
    auto* session = m_editor->session();
    while (session->unsavedCount() > 0) {
        session->retryUnsaved();
        if (session->unsavedCount() == 0)
            break;
        QMessageBox box(QMessageBox::Warning, tr("Edits not saved"),
                        tr("%1 edits could not be stored yet. Closing the project now loses them.\n\n%2")
                            .arg(session->unsavedCount())
                            .arg(session->unsavedReason()),
                        QMessageBox::Retry | QMessageBox::Discard | QMessageBox::Cancel, this);
        box.setObjectName(QStringLiteral("unsavedEditsQuestion"));
        box.setDefaultButton(QMessageBox::Retry);
        const int answer = box.exec();
        if (answer == QMessageBox::Discard)
            return true;
        if (answer != QMessageBox::Retry)
            return false;
    }
    return true;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!confirmUnsavedEdits()) {
        event->ignore();
        return;
    }
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    event->accept();
}

} // namespace osprey::ui
