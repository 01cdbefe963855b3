<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>main</name>
    <message>
        <source>Label images and train object detectors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Project folder to open.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ClassLegendPanel</name>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Boxes</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageListDelegate</name>
    <message numerus="yes">
        <source>%n box(es)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageListModel</name>
    <message>
        <source>%1
%2 x %3 px, %4, %5 boxes, split %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>new</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>labeled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>reviewed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>verified empty</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>val</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageListPanel</name>
    <message>
        <source>Any status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only images with this status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only images in this split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show only images with at least one box of this class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 images</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ImageView</name>
    <message>
        <source>Cannot read %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an image in the list</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No project open

File ▸ Open Project… (Ctrl+O)
File ▸ New Project… (Ctrl+N)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1   %2 × %3 px   %4   %n box(es)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>osprey::ui::MainWindow</name>
    <message>
        <source>Images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a project to start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New Project…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open Project…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Close Project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About Osprey</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About Osprey</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Osprey %1&lt;/b&gt;&lt;p&gt;Label images, train YOLO detectors and watch them learn.&lt;/p&gt;&lt;p&gt;Licensed under the GNU GPL v3 or later.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — %2 images, %3 classes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose an empty folder for the new project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create project</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a project folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No recent projects</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — Osprey</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Osprey</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>osprey::ui::ProjectDocument</name>
    <message>
        <source>unknown class %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
