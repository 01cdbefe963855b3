// `osprey-cli help` and `osprey-cli help VERB` for every verb against reference output captured before the
// verbs' keys moved into the core modules' option tables (issue 34): the same verbs, and for each verb the
// same keys in the same order with the same types, defaults and required-ness. The help wording may
// change; the keys may not. The references are tests/app/reference/help/<verb words joined by _>.txt and
// verbs.txt (the list); after a deliberate change to a key, capture them again with
// `osprey-cli help VERB > tests/app/reference/help/VERB.txt`.
#include "app/cli_process.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

using namespace osprey;

namespace {

const QString kReferenceDir = QStringLiteral(OSPREY_SOURCE_DIR "/tests/app/reference/help");

/// What a help line states about one key, wording aside: "name type [required | default X]".
struct KeyFacts {
    QString name, type, requirement;
    bool operator==(const KeyFacts&) const = default;
};

QString describe(const QList<KeyFacts>& keys) {
    QStringList lines;
    for (const auto& key : keys)
        lines << key.name + " [" + key.type + (key.requirement.isEmpty() ? "" : ", " + key.requirement) + "]";
    return lines.join('\n');
}

/// The keys of one verb's help text, in order. A key line is "  NAME  HELP [TYPE(, required| default X)]".
QList<KeyFacts> keysOf(const QString& help) {
    static const QRegularExpression line(QStringLiteral(R"(^  (\S+)\s{2,}.*\[([^\[\],]+)(?:, (.+))?\]$)"));
    QList<KeyFacts> keys;
    bool inKeys = false;
    for (const QString& text : help.split('\n')) {
        if (text.startsWith(QLatin1String("Keys ")))
            inKeys = true;
        else if (inKeys && !text.isEmpty()) {
            const auto match = line.match(text);
            if (!match.hasMatch()) {
                keys.append({QStringLiteral("<unreadable line: %1>").arg(text), {}, {}});
                continue;
            }
            keys.append({match.captured(1), match.captured(2), match.captured(3)});
        }
    }
    return keys;
}

/// The verb names listed by `osprey-cli help`.
QStringList verbsOf(const QString& usage) {
    QStringList names;
    bool inVerbs = false;
    for (const QString& text : usage.split('\n')) {
        if (text == QLatin1String("Verbs:"))
            inVerbs = true;
        else if (inVerbs && text.isEmpty())
            break;
        else if (inVerbs)
            names << text.trimmed().section(QStringLiteral("  "), 0, 0);
    }
    return names;
}

QString readReference(const QString& name) {
    QFile file(kReferenceDir + "/" + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return QString::fromUtf8(file.readAll());
}

} // namespace

class TestCliHelp : public QObject {
    Q_OBJECT
private slots:
    void readsKeyFacts() {
        // The parser itself: a changed default, type or required-ness must show as a difference.
        const QString help = QStringLiteral("osprey-cli x - y [a|b]\n\nKeys (key=value or --key value):\n"
                                            "  project  project folder [path, required]\n"
                                            "  conf     threshold [a] [number, default 0.25]\n"
                                            "  name     GPU name (set, remove) [text]\n");
        const QList<KeyFacts> keys = keysOf(help);
        QCOMPARE(keys.size(), 3);
        QCOMPARE(keys[0], (KeyFacts{"project", "path", "required"}));
        QCOMPARE(keys[1], (KeyFacts{"conf", "number", "default 0.25"}));
        QCOMPARE(keys[2], (KeyFacts{"name", "text", ""}));
        QVERIFY(keysOf(QString(help).replace("0.25", "0.3")) != keys);
        QVERIFY(keysOf(QString(help).replace("[number", "[integer")) != keys);
    }

    void listsTheSameVerbs() {
        const auto usage = test::runCli({"help"});
        QCOMPARE(usage.exitCode, 0);
        const QStringList expected = verbsOf(readReference("verbs.txt"));
        QVERIFY(expected.size() > 20);
        QCOMPARE(verbsOf(usage.out), expected);
    }

    void verbHasTheSameKeys_data() {
        QTest::addColumn<QString>("verb");
        for (const QString& verb : verbsOf(readReference("verbs.txt")))
            QTest::newRow(qPrintable(verb)) << verb;
    }

    void verbHasTheSameKeys() {
        QFETCH(QString, verb);
        const QString file = QString(verb).replace(' ', '_') + ".txt";
        QVERIFY2(QFile::exists(kReferenceDir + "/" + file), qPrintable("no reference " + file));
        const auto help = test::runCli(QStringList{"help"} + verb.split(' '));
        QCOMPARE(help.exitCode, 0);
        QVERIFY2(help.out.startsWith("osprey-cli " + verb + " - "), qPrintable(help.out));
        const QList<KeyFacts> expected = keysOf(readReference(file));
        const QList<KeyFacts> actual = keysOf(help.out);
        QCOMPARE(describe(actual), describe(expected));
    }
};

QTEST_GUILESS_MAIN(TestCliHelp)
#include "tst_cli_help.moc"
