// The image list's scrolling machinery: the ThumbnailCache serves the newest request first, drops the
// oldest beyond its limit and runs its workers below the GUI thread's CPU priority; ImageListView
// repaints a changed row without laying out every row again (QListView's full relayout on each change
// was the 100,000-image list's scroll stall).
#include "ui/project/image_list_view.h"
#include "ui/project/thumbnail_cache.h"

#include <QAbstractListModel>
#include <QDir>
#include <QFile>
#include <QPainter>
#include <QSignalSpy>
#include <QStyledItemDelegate>
#include <QTemporaryDir>
#include <QtTest>

#if defined(Q_OS_LINUX)
#include <sys/resource.h>
#include <unistd.h>
#endif

using namespace osprey;

namespace {

/// Writes `count` small JPEGs named 0.jpg, 1.jpg, ... into `folder`.
bool writeImages(const QString& folder, int count) {
    for (int i = 0; i < count; ++i) {
        QImage image(160, 120, QImage::Format_RGB32);
        image.fill(QColor::fromHsv(i * 50 % 360, 200, 200));
        if (!image.save(QDir(folder).filePath(QStringLiteral("%1.jpg").arg(i)), "JPG"))
            return false;
    }
    return true;
}

QStringList keysOf(const QSignalSpy& spy) {
    QStringList keys;
    for (const auto& arguments : spy)
        keys.append(arguments.at(0).toString());
    return keys;
}

/// A list of `rows` rows that counts how often a view asks it for an index.
class CountingModel : public QAbstractListModel {
public:
    explicit CountingModel(int rows) : m_rows(rows) {}
    int rowCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : m_rows; }
    QModelIndex index(int row, int column = 0, const QModelIndex& parent = {}) const override {
        ++indexCalls;
        return QAbstractListModel::index(row, column, parent);
    }
    QVariant data(const QModelIndex& index, int role) const override {
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("row %1").arg(index.row())) : QVariant();
    }
    void touch(int row) { emit dataChanged(QAbstractListModel::index(row), QAbstractListModel::index(row)); }

    mutable qint64 indexCalls = 0;

private:
    int m_rows;
};

/// Remembers which rows it painted.
class RecordingDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override {
        painted.insert(index.row());
        QStyledItemDelegate::paint(painter, option, index);
    }
    QSize sizeHint(const QStyleOptionViewItem&, const QModelIndex&) const override { return {200, 40}; }
    mutable QSet<int> painted;
};

/// Index requests caused by one changed row, after the view has settled and repainted.
qint64 indexCallsForOneChange(QListView* view, CountingModel* model) {
    model->indexCalls = 0;
    model->touch(2);
    QTest::qWait(50); // the delayed layout, if any, runs from a zero timer
    view->viewport()->repaint();
    return model->indexCalls;
}

} // namespace

class TestImageList : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_images;

    QString image(int i) const { return QDir(m_images).filePath(QStringLiteral("%1.jpg").arg(i)); }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_images = m_dir.filePath("images");
        QVERIFY(QDir().mkpath(m_images));
        QVERIFY(writeImages(m_images, 6));
    }

    void newestRequestIsDecodedFirst() {
        QTemporaryDir cache;
        ui::ThumbnailCache thumbnails(cache.path(), 64,
                                      {1, ui::ThumbnailCache::WorkerPriority::Background, 0});
        QSignalSpy ready(&thumbnails, &ui::ThumbnailCache::ready);
        // "a" starts at once on the only worker; the others wait and are served newest first, except
        // that asking again for a waiting one ("b": its row is still on screen) moves it to the front.
        for (int i = 0; i < 5; ++i)
            QVERIFY(thumbnails.thumbnail(QString(QChar('a' + i)), image(i)).isNull());
        QCOMPARE(thumbnails.runningCount(), 1);
        QCOMPARE(thumbnails.waitingCount(), 4);
        QVERIFY(thumbnails.thumbnail("b", image(1)).isNull());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 5, 10000);
        QCOMPARE(keysOf(ready), QStringList({"a", "b", "e", "d", "c"}));
        // Finished thumbnails come from memory, scaled to fit the size.
        const QImage thumbnail = thumbnails.thumbnail("c", image(2));
        QVERIFY(!thumbnail.isNull());
        QCOMPARE(thumbnail.size(), QSize(64, 48));
        QCOMPARE(thumbnails.waitingCount(), 0);
        QCOMPARE(thumbnails.runningCount(), 0);
        // ... and are kept on disk for the next session.
        QVERIFY(QFile::exists(QDir(cache.path()).filePath("thumbs/c-64.jpg")));
    }

    void oldestRequestsAreDroppedBeyondTheLimit() {
        QTemporaryDir cache;
        ui::ThumbnailCache thumbnails(cache.path(), 64,
                                      {1, ui::ThumbnailCache::WorkerPriority::Background, 2});
        QSignalSpy ready(&thumbnails, &ui::ThumbnailCache::ready);
        QSignalSpy dropped(&thumbnails, &ui::ThumbnailCache::dropped);
        for (int i = 0; i < 5; ++i)
            thumbnails.thumbnail(QString(QChar('a' + i)), image(i));
        // "a" runs; of b, c, d, e only the two newest may wait.
        QCOMPARE(keysOf(dropped), QStringList({"b", "c"}));
        QCOMPARE(thumbnails.waitingCount(), 2);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 3, 10000);
        QCOMPARE(keysOf(ready), QStringList({"a", "e", "d"}));
        // A dropped request is scheduled again when asked for again.
        QVERIFY(thumbnails.thumbnail("b", image(1)).isNull());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 4, 10000);
        QCOMPARE(ready.last().at(0).toString(), QString("b"));
        QVERIFY(!thumbnails.thumbnail("b", image(1)).isNull());
    }

    void waitForDoneDropsTheWaitingRequests() {
        QTemporaryDir cache;
        ui::ThumbnailCache thumbnails(cache.path(), 64,
                                      {1, ui::ThumbnailCache::WorkerPriority::Background, 0});
        QSignalSpy ready(&thumbnails, &ui::ThumbnailCache::ready);
        for (int i = 0; i < 4; ++i)
            thumbnails.thumbnail(QString::number(i), image(i));
        thumbnails.waitForDone();
        QCOMPARE(thumbnails.waitingCount(), 0);
        QTest::qWait(100);
        QCOMPARE(keysOf(ready), QStringList({"0"}));
    }

    void workersRunBelowTheGuiThreadPriority() {
#if defined(Q_OS_LINUX)
        QTemporaryDir cache;
        ui::ThumbnailCache thumbnails(cache.path(), 64,
                                      {1, ui::ThumbnailCache::WorkerPriority::Background, 0});
        QSignalSpy ready(&thumbnails, &ui::ThumbnailCache::ready);
        thumbnails.thumbnail("a", image(0));
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 10000);
        const int guiNice = getpriority(PRIO_PROCESS, static_cast<id_t>(gettid()));
        // Every thread's nice value is field 19 of /proc/self/task/<tid>/stat, counted from the pid.
        QList<int> nices;
        for (const QString& task : QDir("/proc/self/task").entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            QFile stat(QStringLiteral("/proc/self/task/%1/stat").arg(task));
            if (!stat.open(QIODevice::ReadOnly))
                continue;
            const QByteArray line = stat.readAll();
            const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
            if (fields.size() > 16)
                nices.append(fields[16].toInt());
        }
        QVERIFY2(nices.contains(std::min(guiNice + 10, 19)),
                 qPrintable(QStringLiteral("no worker at nice %1 among %2")
                                .arg(guiNice + 10)
                                .arg(QString::number(nices.size()))));
#else
        QSKIP("thread nice values are read from /proc on Linux only");
#endif
    }

    void changedRowRepaintsWithoutLayingOutEveryRow() {
        constexpr int kRows = 100000;
        CountingModel model(kRows);
        ui::ImageListView view;
        auto* delegate = new RecordingDelegate(&view);
        view.setItemDelegate(delegate);
        view.setModel(&model);
        view.resize(300, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::qWait(50);
        delegate->painted.clear();
        const qint64 calls = indexCallsForOneChange(&view, &model);
        QVERIFY2(calls < 1000, qPrintable(QString::number(calls)));
        QVERIFY(delegate->painted.contains(2));

        // The plain QListView in the same situation visits every row: what ImageListView avoids.
        QListView plain;
        plain.setItemDelegate(new RecordingDelegate(&plain));
        plain.setUniformItemSizes(true);
        plain.setModel(&model);
        plain.resize(300, 400);
        plain.show();
        QVERIFY(QTest::qWaitForWindowExposed(&plain));
        QTest::qWait(50);
        const qint64 plainCalls = indexCallsForOneChange(&plain, &model);
        if (plainCalls < kRows)
            qInfo("this Qt's QListView no longer lays out all rows on dataChanged (%lld index calls)",
                  plainCalls);
    }
};

QTEST_MAIN(TestImageList)
#include "tst_image_list.moc"
