// The Simplified Chinese catalogue stays complete and consistent:
// - lupdate, run over the GUI's sources into a copy of translations/osprey_zh_CN.ts, leaves no unfinished
//   and no obsolete entry (so a new tr() string fails here until it is translated);
// - every translation keeps the source's placeholders (%1, %n, %p), its accelerator as "(&X)", its
//   shortcut keys and rich-text tags, and contains Chinese;
// - each term of translations/glossary_zh_CN.tsv is translated the same way wherever it occurs.
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

const QString kCatalogue = QStringLiteral(OSPREY_SOURCE_DIR "/translations/osprey_zh_CN.ts");
const QString kGlossary = QStringLiteral(OSPREY_SOURCE_DIR "/translations/glossary_zh_CN.tsv");

struct Message {
    QString context;
    QString source;
    QStringList translations; // one per numerus form, or one
    QString type;             // "", "unfinished", "vanished" or "obsolete"
    bool numerus = false;
};

QString describe(const Message& message) {
    return QStringLiteral("[%1] \"%2\" -> \"%3\"")
        .arg(message.context, message.source, message.translations.join(QStringLiteral(" | ")));
}

QList<Message> readCatalogue(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("cannot open %1").arg(path);
        return {};
    }
    QList<Message> messages;
    QXmlStreamReader xml(&file);
    QString context;
    Message current;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement()) {
            if (xml.isEndElement() && xml.name() == QLatin1String("message"))
                messages.append(current);
            continue;
        }
        const auto name = xml.name();
        if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            current = Message{context, {}, {}, {}, xml.attributes().value("numerus") == QLatin1String("yes")};
        } else if (name == QLatin1String("source")) {
            current.source = xml.readElementText();
        } else if (name == QLatin1String("translation")) {
            current.type = xml.attributes().value("type").toString();
            if (!current.numerus)
                current.translations.append(xml.readElementText());
        } else if (name == QLatin1String("numerusform")) {
            current.translations.append(xml.readElementText());
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return messages;
}

struct GlossaryTerm {
    QString english;
    QString chinese;
    QStringList exceptions; // phrases where the English word means something else
    int line = 0;
};

QList<GlossaryTerm> readGlossary(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot open %1").arg(path);
        return {};
    }
    QList<GlossaryTerm> terms;
    int line = 0;
    while (!file.atEnd()) {
        const QString text = QString::fromUtf8(file.readLine()).chopped(1);
        ++line;
        if (text.isEmpty() || text.startsWith('#'))
            continue;
        const QStringList fields = text.split('\t');
        if (fields.size() < 2 || fields[0].isEmpty() || fields[1].isEmpty()) {
            *error = QStringLiteral("%1:%2: expected \"English<TAB>Chinese[<TAB>exceptions]\"")
                         .arg(path)
                         .arg(line);
            return {};
        }
        terms.append({fields[0], fields[1],
                      fields.size() > 2 ? fields[2].split('|', Qt::SkipEmptyParts) : QStringList(), line});
    }
    return terms;
}

/// Whole words, spaces and hyphens alike, with the usual English endings; an acronym (a capital after
/// the first letter: mAP, IoU, NMS) matches only in its own case.
QRegularExpression termPattern(const QString& english) {
    QStringList words;
    for (const QString& word : english.split(QRegularExpression("[\\s-]+"), Qt::SkipEmptyParts))
        words.append(QRegularExpression::escape(word));
    const bool acronym = std::any_of(english.begin() + 1, english.end(), [](QChar c) { return c.isUpper(); });
    return QRegularExpression(
        "(?<![A-Za-z0-9_])" + words.join("[\\s-]+") + "(s|es|d|ed|ing|er|ers|ion|ation)?(?![A-Za-z0-9_])",
        acronym ? QRegularExpression::NoPatternOption : QRegularExpression::CaseInsensitiveOption);
}

/// The messages that use a glossary term without its Chinese term.
QStringList glossaryViolations(const QList<GlossaryTerm>& terms, const QList<Message>& messages) {
    QStringList violations;
    for (const GlossaryTerm& term : terms) {
        const QRegularExpression pattern = termPattern(term.english);
        for (const Message& message : messages) {
            QString source = message.source;
            for (const QString& exception : term.exceptions)
                source.replace(exception, QStringLiteral(" "), Qt::CaseInsensitive);
            if (!pattern.match(source).hasMatch())
                continue;
            for (const QString& translation : message.translations)
                if (!translation.contains(term.chinese)) {
                    violations.append(QStringLiteral("glossary line %1: \"%2\" should be \"%3\" in %4")
                                          .arg(term.line)
                                          .arg(term.english, term.chinese, describe(message)));
                    break;
                }
        }
    }
    return violations;
}

QStringList sorted(QStringList list) {
    list.sort();
    return list;
}

QStringList matches(const QString& pattern, const QString& text) {
    QStringList found;
    for (auto it = QRegularExpression(pattern).globalMatch(text); it.hasNext();)
        found.append(it.next().captured(0));
    return found;
}

/// Han characters, or the full-width punctuation Chinese text uses (，：（）).
bool hasChinese(const QString& text) {
    return std::any_of(text.begin(), text.end(), [](QChar c) {
        const char16_t u = c.unicode();
        return (u >= 0x4e00 && u <= 0x9fff) || (u >= 0x3000 && u <= 0x303f) || (u >= 0xff00 && u <= 0xffef);
    });
}

/// What a translation must keep of its source; empty when it does.
QString formatProblem(const Message& message, const QString& translation) {
    const QString placeholders = QStringLiteral("%(\\d+|n|p)");
    if (sorted(matches(placeholders, message.source)) != sorted(matches(placeholders, translation)))
        return QStringLiteral("placeholders differ");
    QString plain = message.source;
    plain.remove(QStringLiteral("&&"));
    if (const auto accelerator = QRegularExpression("&([^&\\s])").match(plain); accelerator.hasMatch()) {
        const QString expected = "(&" + accelerator.captured(1).toUpper() + ")";
        if (!translation.contains(expected) && !translation.contains("&" + accelerator.captured(1)))
            return QStringLiteral("accelerator %1 missing").arg(expected);
    }
    const QString keys =
        QStringLiteral("\\b(?:Ctrl|Shift|Alt)\\+(?:[A-Z0-9]\\b|F\\d+|Enter|Tab|Esc|Space|Backspace)");
    for (const QString& key : matches(keys, message.source))
        if (!translation.contains(key))
            return QStringLiteral("shortcut %1 missing").arg(key);
    const QString tags = QStringLiteral("</?[a-z]+>");
    if (sorted(matches(tags, message.source)) != sorted(matches(tags, translation)))
        return QStringLiteral("rich-text tags differ");
    return {};
}

} // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private slots:
    void lupdateLeavesNothingUnfinishedOrObsolete() {
        const QString project = QStringLiteral(OSPREY_LUPDATE_PROJECT);
        if (!QFile::exists(project))
            QSKIP("the lupdate project file is written by the osprey_catalogue target; build it first");
        QTemporaryDir dir;
        const QString copy = dir.filePath("osprey_zh_CN.ts");
        QVERIFY(QFile::copy(kCatalogue, copy));
        QFile file(project);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        json["translations"] = QJsonArray{copy};
        QFile out(dir.filePath("project.json"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(json).toJson());
        out.close();

        // Without -no-obsolete, so that strings gone from the sources show up as vanished.
        QProcess lupdate;
        lupdate.setProcessChannelMode(QProcess::MergedChannels);
        lupdate.start(QStringLiteral(OSPREY_LUPDATE),
                      {"-project", out.fileName(), "-locations", "none", "-tr-function-alias",
                       "QT_TRANSLATE_NOOP+=OSPREY_TRANSLATE_NOOP"});
        QVERIFY(lupdate.waitForFinished(120000));
        const QString log = QString::fromUtf8(lupdate.readAll());
        QVERIFY2(lupdate.exitCode() == 0, qPrintable(log));

        QString error;
        const QList<Message> messages = readCatalogue(copy, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(messages.size() > 600, qPrintable(log));
        QStringList problems;
        for (const Message& message : messages)
            if (!message.type.isEmpty())
                problems.append(message.type + ": " + describe(message));
        QVERIFY2(
            problems.isEmpty(),
            qPrintable(QStringLiteral("%1 entries of %2 are not translated or no longer used; translate them "
                                      "in translations/osprey_zh_CN.ts (lupdate runs on every build):\n%3")
                           .arg(problems.size())
                           .arg(kCatalogue, problems.join('\n'))));
    }

    void translationsKeepPlaceholdersAcceleratorsAndKeys() {
        QString error;
        const QList<Message> messages = readCatalogue(kCatalogue, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QStringList problems;
        // Messages that are identifiers or commands, the same in every language.
        const QStringList identical = {"imgsz ", "$ osprey-cli %1"};
        for (const Message& message : messages) {
            if (message.numerus && message.translations.size() != 1)
                problems.append("Chinese has one numerus form: " + describe(message));
            for (const QString& translation : message.translations) {
                if (translation.isEmpty() && message.type.isEmpty())
                    problems.append("empty: " + describe(message));
                else if (const QString problem = formatProblem(message, translation); !problem.isEmpty())
                    problems.append(problem + ": " + describe(message));
                else if (!hasChinese(translation) && translation != message.source)
                    problems.append("neither Chinese nor the source: " + describe(message));
                else if (!hasChinese(translation) &&
                         QRegularExpression("\\b[a-z]{4,}\\b").match(translation).hasMatch() &&
                         !identical.contains(message.source))
                    problems.append("left in English: " + describe(message));
            }
        }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join('\n')));
    }

    void formatCheckCatchesBrokenTranslations() {
        const Message message{"ctx", "&Open %1 (Ctrl+O)", {}, {}, false};
        QVERIFY(formatProblem(message, "打开 %1(&O) (Ctrl+O)").isEmpty());
        QCOMPARE(formatProblem(message, "打开(&O) (Ctrl+O)"), QString("placeholders differ"));
        QCOMPARE(formatProblem(message, "打开 %1 (Ctrl+O)"), QString("accelerator (&O) missing"));
        QCOMPARE(formatProblem(message, "打开 %1(&O)"), QString("shortcut Ctrl+O missing"));
    }

    void glossaryTermsAreTranslatedConsistently() {
        QString error;
        const QList<GlossaryTerm> terms = readGlossary(kGlossary, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY(terms.size() > 50);
        const QList<Message> messages = readCatalogue(kCatalogue, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList violations = glossaryViolations(terms, messages);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join('\n')));
    }

    void glossaryCheckCatchesAnInconsistentTerm() {
        const QList<GlossaryTerm> terms = {{"bounding box", "边界框", {}, 1},
                                           {"epoch", "轮", {}, 2},
                                           {"mAP", "mAP", {}, 3},
                                           {"run", "运行", {"runs out"}, 4}};
        const QList<Message> good = {{"c", "Draw a Bounding-Box", {"绘制边界框"}, {}, false},
                                     {"c", "3 epochs", {"3 轮"}, {}, false},
                                     {"c", "Map classes", {"映射类别"}, {}, false},
                                     {"c", "Lower it if memory runs out", {"内存不足时调小"}, {}, false}};
        QVERIFY(glossaryViolations(terms, good).isEmpty());
        const QList<Message> bad = {{"c", "Draw a bounding box", {"画一个方框"}, {}, false},
                                    {"c", "Epochs", {"周期"}, {}, false},
                                    {"c", "Best mAP", {"最佳平均精度"}, {}, false},
                                    {"c", "Stop the run", {"停止"}, {}, false}};
        QCOMPARE(glossaryViolations(terms, bad).size(), 4);
    }
};

QTEST_GUILESS_MAIN(TestTranslations)
#include "tst_translations.moc"
